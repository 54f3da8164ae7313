// Batches of proofs with one key (CudaBackend's compute with k > 1, a sector's partitions): each
// proof's terms equal the CPU backend's for its own witness, for BLS12-381 and BN254 in both H
// conventions, with the key all streamed, with only the witness parts (A, B1, B2, L) streamed,
// with one of them streamed, and all resident; chunks that divide nothing (77, 500: partial last
// chunks, several per MSM); batches of 1, 2 and 3 different witnesses of one circuit, pageable
// and page-locked; a batch's proofs verify; every proof's phases are timed; a set cancel flag
// ends the batch; spans of different lengths and an empty batch are refused, and a witness of
// the wrong length is refused by prove_batch (the library's one check); the batch's VRAM estimate.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "backend_test_util.hpp"
#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "require_device.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::groth16;
using gpu::KeyLayout;
using gpu::KeyPart;

// A mul chain's key and `count` witnesses (seeds 1, 2, ...: different values, one circuit).
template <class E>
struct ChainBatch {
  using Fr = typename E::Fr;
  ChainBatch(HConvention conv, std::size_t count) {
    gadgets::circuits::MulChain<Fr> c{1200, 1};
    pk = setup<E>(cs::record<Fr>(c), conv, 41);
    for (std::size_t i = 0; i < count; ++i) {
      c.seed = 1 + i;
      ws.push_back(cs::witness<Fr>(c).full());
      want.push_back(test::cpu_terms<E>(pk, std::span<const Fr>(ws.back())));
    }
  }
  std::vector<std::span<const Fr>> spans() const { return {ws.begin(), ws.end()}; }
  ProvingKey<E> pk;
  std::vector<std::vector<Fr>> ws;
  std::vector<ProofTerms<E>> want;
};

template <class E>
std::vector<ProofTerms<E>> run_batch(gpu::CudaBackend<E>& b, const ProvingKey<E>& pk,
                                     const std::vector<std::span<const typename E::Fr>>& ws,
                                     std::vector<PhaseTimings>& ts) {
  ts.assign(ws.size(), PhaseTimings{});
  std::vector<ProofTerms<E>> out(ws.size());
  b.compute(pk, ws, ts, out);
  return out;
}

template <class E>
void expect_batch_equal(const ChainBatch<E>& cb, const KeyLayout& layout, std::size_t count) {
  SCOPED_TRACE(layout.describe() + ", " + std::to_string(count) + " proofs");
  const gpu::DeviceProvingKey<E> key(cb.pk, 0, layout);
  gpu::CudaBackend<E> b(key);
  auto ws = cb.spans();
  ws.resize(count);
  std::vector<PhaseTimings> ts;
  const auto got = run_batch<E>(b, cb.pk, ws, ts);
  for (std::size_t i = 0; i < count; ++i) {
    SCOPED_TRACE("proof " + std::to_string(i));
    test::expect_terms_eq<E>(got[i], cb.want[i], "batched");
    for (const char* phase : {"transfer_witness", "msm_h", "msm_a", "msm_b_g1", "msm_b_g2", "msm_l"})
      EXPECT_GT(ts[i].get(phase), 0.0) << phase;
  }
}

template <class E>
class BatchTest : public ::testing::Test {};
using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(BatchTest, Engines);

TYPED_TEST(BatchTest, TermsEqualTheCpusInEveryLayoutAndBothConventions) {
  using E = TypeParam;
  constexpr unsigned kAll = KeyLayout::kAllMask;
  const unsigned bit_b2 = KeyLayout::bit(KeyPart::kB2);
  for (HConvention conv : {HConvention::kOddCoset, HConvention::kZDivided}) {
    SCOPED_TRACE(conv == HConvention::kOddCoset ? "odd coset" : "z divided");
    const ChainBatch<E> cb(conv, 3);
    for (std::size_t count : {1, 2, 3}) expect_batch_equal<E>(cb, KeyLayout::all_streamed(77), count);
    expect_batch_equal<E>(cb, KeyLayout{kAll & ~KeyLayout::kBatchMask, 500}, 3);  // H, matrices resident
    expect_batch_equal<E>(cb, KeyLayout{kAll & ~bit_b2, 77}, 2);                   // only B2 streams
    expect_batch_equal<E>(cb, KeyLayout{0, 77, true}, 2);                          // compact twiddles
    expect_batch_equal<E>(cb, KeyLayout::all_resident(), 2);                       // nothing shared
  }
}

TYPED_TEST(BatchTest, PinnedWitnessesAndProofsThatVerify) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ChainBatch<E> cb(HConvention::kZDivided, 2);
  std::vector<gpu::PinnedBuffer<Fr>> pinned;
  std::vector<std::span<const Fr>> ws;
  for (const auto& w : cb.ws) {
    pinned.emplace_back(w.size());
    std::copy(w.begin(), w.end(), pinned.back().data());
    ws.emplace_back(pinned.back().data(), w.size());
  }
  const gpu::DeviceProvingKey<E> key(cb.pk, 0, KeyLayout::all_streamed(300));
  gpu::CudaBackend<E> b(key);
  std::vector<PhaseTimings> ts;
  const auto got = run_batch<E>(b, cb.pk, ws, ts);
  for (std::size_t i = 0; i < ws.size(); ++i) {
    test::expect_terms_eq<E>(got[i], cb.want[i], "pinned witnesses");
    // The terms make a proof that verifies with the witness's public input, and not with another's.
    const Proof<E> p = assemble_proof<E>(cb.pk, got[i], Fr::from_u64(11 + i), Fr::from_u64(29 + i));
    const std::vector<Fr> pub{cb.ws[i][1]}, other{cb.ws[1 - i][1]};
    EXPECT_TRUE(verify(cb.pk.vk, p, std::span<const Fr>(pub))) << i;
    EXPECT_FALSE(verify(cb.pk.vk, p, std::span<const Fr>(other))) << i;
  }
}

TYPED_TEST(BatchTest, CancelAndMismatchedSpans) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ChainBatch<E> cb(HConvention::kOddCoset, 2);
  const gpu::DeviceProvingKey<E> key(cb.pk, 0, KeyLayout::all_streamed(500));
  gpu::CudaBackend<E> b(key);
  const auto ws = cb.spans();
  std::vector<PhaseTimings> ts(2);
  std::vector<ProofTerms<E>> out(1);
  EXPECT_THROW(b.compute(cb.pk, ws, ts, out), std::invalid_argument);
  EXPECT_THROW(b.compute(cb.pk, std::span<const std::span<const Fr>>{}, std::span<PhaseTimings>{},
                         std::span<ProofTerms<E>>{}),
               std::invalid_argument);
  out.resize(2);
  std::atomic<bool> cancel{true};
  ts[1].cancel = &cancel;
  EXPECT_THROW(b.compute(cb.pk, ws, ts, out), Cancelled);
  // The backend proves on after a cancelled batch.
  cancel = false;
  std::vector<PhaseTimings> ts2;
  const auto got = run_batch<E>(b, cb.pk, ws, ts2);
  for (std::size_t i = 0; i < 2; ++i) test::expect_terms_eq<E>(got[i], cb.want[i], "after a cancel");
  const std::vector<Fr> short_w(cb.ws[0].begin(), cb.ws[0].end() - 1);
  const std::vector<std::span<const Fr>> bad{ws[0], std::span<const Fr>(short_w)};
  EXPECT_THROW(prove_batch<E>(cb.pk, bad, b, ts), std::invalid_argument);
}

TYPED_TEST(BatchTest, VramEstimateCountsTwoScalarChunksInThePlaceOfTheWitness) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  using Key = gpu::DeviceProvingKey<E>;
  const ChainBatch<E> cb(HConvention::kOddCoset, 1);
  const std::size_t nv = cb.pk.num_vars;
  const KeyLayout streamed = KeyLayout::all_streamed(77);  // two chunks hold less than the witness
  EXPECT_EQ(Key::estimate_batch_scratch_bytes(cb.pk, streamed), Key::estimate_proof_scratch_bytes(cb.pk, streamed));
  const KeyLayout large = KeyLayout::all_streamed(nv);  // two chunks hold more
  EXPECT_EQ(Key::estimate_batch_scratch_bytes(cb.pk, large),
            Key::estimate_proof_scratch_bytes(cb.pk, large) + nv * sizeof(Fr));
  const KeyLayout h_only{KeyLayout::kAllMask & ~KeyLayout::bit(KeyPart::kH), 77};
  EXPECT_EQ(Key::estimate_batch_scratch_bytes(cb.pk, h_only), Key::estimate_proof_scratch_bytes(cb.pk, h_only));
  EXPECT_EQ(Key::estimate_batch_scratch_bytes(cb.pk, KeyLayout::all_resident()),
            Key::estimate_proof_scratch_bytes(cb.pk, KeyLayout::all_resident()));
}

}  // namespace
