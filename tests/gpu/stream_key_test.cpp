// Streamed proving keys (KeyPlacement::kStreamPoints: points and constraint matrices stay in
// host memory, every MSM and a/b/c evaluation runs chunk by chunk) and the witness upload
// paths of CudaBackend: proof terms equal the resident key's and the CPU backend's for
// BLS12-381 and BN254, in both H conventions, with chunks that divide nothing (40, 77, 777,
// 1000: partial last chunks, several chunks per MSM, matrix rows split between pieces),
// pageable and registered (pinned) host points, pageable and page-locked witnesses; keys
// resident in part (KeyLayout: each part alone resident, each alone streamed, mixes); keys
// whose matrices carry a value index (16-bit positions streamed or resident instead of the
// values); the VRAM figures of a streamed key and of each part, the chunk sizing and the layout
// for a VRAM budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "backend_test_util.hpp"
#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/groth16/key_value_index.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "require_device.hpp"
#include "support/random_r1cs.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::groth16;
using gpu::KeyLayout;
using gpu::KeyPart;
using gpu::KeyPlacement;

// Page-locks the five point arrays of pk for the object's lifetime.
template <class E>
struct RegisteredPoints {
  explicit RegisteredPoints(const ProvingKey<E>& pk) {
    add(pk.a_query), add(pk.b_g1_query), add(pk.b_g2_query), add(pk.l_query), add(pk.h_query);
  }
  template <class V>
  void add(const V& v) {
    regs.emplace_back(v.data(), v.size() * sizeof(typename V::value_type));
  }
  std::vector<gpu::HostRegistration> regs;
};

// pk with its matrices' value index (as the engine loads keys); the index of A must exist.
template <class E>
ProvingKey<E> with_value_index(ProvingKey<E> pk) {
  index_key_values(pk);
  EXPECT_TRUE(pk.a.indexed());
  return pk;
}

template <class E>
ProofTerms<E> gpu_terms(const gpu::DeviceProvingKey<E>& key, const ProvingKey<E>& pk,
                        std::span<const typename E::Fr> w) {
  gpu::CudaBackend<E> b(key);
  PhaseTimings t;
  ProofTerms<E> out = b.compute(pk, w, t);
  for (const char* phase : {"transfer_witness", "msm_h", "msm_a", "msm_b_g1", "msm_b_g2", "msm_l"})
    EXPECT_GT(t.get(phase), 0.0) << phase;
  return out;
}

// Streamed with each chunk size == resident == CPU; and the streamed key's proof verifies.
template <class E>
void expect_streamed_equal(const ProvingKey<E>& pk, std::span<const typename E::Fr> w,
                           std::initializer_list<std::size_t> chunks, std::size_t num_public) {
  const ProofTerms<E> want = test::cpu_terms<E>(pk, w);
  {
    const gpu::DeviceProvingKey<E> resident(pk, 0);
    EXPECT_EQ(resident.placement(), KeyPlacement::kResident);
    test::expect_terms_eq<E>(gpu_terms<E>(resident, pk, w), want, "resident");
  }
  const std::size_t longest = std::max({pk.a_query.size(), pk.l_query.size(), pk.h_query.size()});
  for (std::size_t chunk : chunks) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    const gpu::DeviceProvingKey<E> key(pk, 0, KeyPlacement::kStreamPoints, chunk);
    EXPECT_EQ(key.placement(), KeyPlacement::kStreamPoints);
    EXPECT_EQ(key.chunk_points(), std::min(chunk, longest));
    EXPECT_GT(pk.h_query.size(), key.chunk_points()) << "the H MSM must take several chunks";
    test::expect_terms_eq<E>(gpu_terms<E>(key, pk, w), want, "streamed");
    gpu::CudaBackend<E> b(key);
    PhaseTimings t;
    const Proof<E> p = prove_verified<E>(pk, w, b, t);
    const std::vector<typename E::Fr> pub(w.begin() + 1, w.begin() + 1 + num_public);
    EXPECT_TRUE(verify(pk.vk, p, std::span<const typename E::Fr>(pub)));
  }
}

template <class E>
class StreamedKeyTest : public test::RandomSystemTest<E, 98765> {};

using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(StreamedKeyTest, Engines);

TYPED_TEST(StreamedKeyTest, RandomSystemBothConventions) {
  using E = TypeParam;
  const std::span<const typename E::Fr> w(this->sys_.w);
  for (HConvention conv : {HConvention::kOddCoset, HConvention::kZDivided}) {
    SCOPED_TRACE(conv == HConvention::kOddCoset ? "odd coset" : "z divided");
    const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, conv, 31);
    expect_streamed_equal<E>(pk, w, {77, 777}, 4);
    SCOPED_TRACE("value index");
    expect_streamed_equal<E>(with_value_index(pk), w, {77}, 4);
  }
}

// The constraint matrices of a streamed key stay in host memory and pass through the chunk
// buffers; rows longer than a buffer (random rows of up to 900 terms on 400 variables, buffers
// of 40 points: ~210 BLS12-381 or ~140 BN254 terms) are split between pieces. The terms still
// equal the resident key's and the CPU's, in both conventions (the snarkjs key streams C too).
TYPED_TEST(StreamedKeyTest, MatrixRowsLongerThanAChunkBuffer) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  std::mt19937_64 rng(43);
  const auto sys = test::random_system<Fr>(rng, 400, 3, 150, 900);
  const std::size_t cap = 40 * std::max(sizeof(typename E::G1Affine), sizeof(typename E::G2Affine));
  for (HConvention conv : {HConvention::kOddCoset, HConvention::kZDivided}) {
    SCOPED_TRACE(conv == HConvention::kOddCoset ? "odd coset" : "z divided");
    const ProvingKey<E> pk = setup<E>(sys.r1cs, conv, 47);
    const auto pieces = gpu::plan_csr_chunks(pk.a.row_ptr, cap, sizeof(Fr));
    ASSERT_TRUE(std::any_of(pieces.begin(), pieces.end(), [](const gpu::CsrChunk& c) { return c.split; }))
        << "no row of A is longer than a buffer: the test would not split one";
    expect_streamed_equal<E>(pk, std::span<const Fr>(sys.w), {40}, 3);
    // Indexed, a term takes 6 bytes instead of 36: buffers of 12 points (~380 BLS12-381 or
    // ~250 BN254 terms) still split rows.
    const ProvingKey<E> ipk = with_value_index(pk);
    const std::size_t icap = 12 * std::max(sizeof(typename E::G1Affine), sizeof(typename E::G2Affine));
    const auto ipieces = gpu::plan_csr_chunks(ipk.a.row_ptr, icap, 2);
    ASSERT_TRUE(std::any_of(ipieces.begin(), ipieces.end(), [](const gpu::CsrChunk& c) { return c.split; }));
    SCOPED_TRACE("value index");
    expect_streamed_equal<E>(ipk, std::span<const Fr>(sys.w), {12}, 3);
  }
}

TYPED_TEST(StreamedKeyTest, MulChainChunks1000And777PageableAndRegisteredPoints) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  gadgets::circuits::MulChain<Fr> circuit{3000, 7};
  const auto cs = cs::record<Fr>(circuit);
  const auto w = cs::witness<Fr>(circuit).full();
  for (HConvention conv : {HConvention::kZDivided, HConvention::kOddCoset}) {
    SCOPED_TRACE(conv == HConvention::kOddCoset ? "odd coset" : "z divided");
    ProvingKey<E> pk = setup<E>(cs, conv, 32);
    if (conv == HConvention::kOddCoset) pk.c = r1cs::CsrMatrix<Fr>{}, pk.c_stored = false;  // as .zkey keys come
    expect_streamed_equal<E>(pk, std::span<const Fr>(w), {1000, 777}, 1);
    // The same with the point arrays page-locked: the chunk copies are truly asynchronous.
    const RegisteredPoints<E> pinned(pk);
    ASSERT_TRUE(gpu::is_pinned(pk.h_query.data()));
    const gpu::DeviceProvingKey<E> key(pk, 0, KeyPlacement::kStreamPoints, 777);
    test::expect_terms_eq<E>(gpu_terms<E>(key, pk, std::span<const Fr>(w)), test::cpu_terms<E>(pk, w),
                             "streamed from registered points");
  }
}

TYPED_TEST(StreamedKeyTest, ConcurrentWorkersShareOneStreamedKey) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kZDivided, 33);
  const std::span<const Fr> w(this->sys_.w);
  const ProofTerms<E> want = test::cpu_terms<E>(pk, w);
  const gpu::DeviceProvingKey<E> key(pk, 0, KeyPlacement::kStreamPoints, 100);
  std::vector<int> ok(3, 0);
  std::vector<std::thread> workers;
  for (int k = 0; k < 3; ++k)
    workers.emplace_back([&, k] {
      gpu::CudaBackend<E> b(key);  // one backend (staging, copy stream) per worker thread
      for (int rep = 0; rep < 2; ++rep) {
        PhaseTimings t;
        const ProofTerms<E> got = b.compute(pk, w, t);
        ok[k] += got.a.to_affine() == want.a.to_affine() && got.b2.to_affine() == want.b2.to_affine() &&
                 got.h.to_affine() == want.h.to_affine() && got.l.to_affine() == want.l.to_affine();
      }
    });
  for (auto& th : workers) th.join();
  for (int k = 0; k < 3; ++k) EXPECT_EQ(ok[k], 2) << "worker " << k;
}

// The witness from pageable memory (staged through pinned buffers), registered in place,
// and in a PinnedBuffer: the same terms, with a resident and a streamed key.
TYPED_TEST(StreamedKeyTest, PageableAndPinnedWitnessGiveTheSameTerms) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kOddCoset, 34);
  const ProofTerms<E> want = test::cpu_terms<E>(pk, std::span<const Fr>(this->sys_.w));
  std::vector<Fr> pageable = this->sys_.w;
  std::vector<Fr> registered = this->sys_.w;
  gpu::PinnedBuffer<Fr> pinned(this->sys_.w.size());
  std::copy(this->sys_.w.begin(), this->sys_.w.end(), pinned.data());
  gpu::HostRegistration reg(registered.data(), registered.size() * sizeof(Fr));
  ASSERT_FALSE(gpu::is_pinned(pageable.data()));
  ASSERT_TRUE(gpu::is_pinned(registered.data()));
  ASSERT_TRUE(gpu::is_pinned(pinned.data()));
  for (KeyPlacement place : {KeyPlacement::kResident, KeyPlacement::kStreamPoints}) {
    const gpu::DeviceProvingKey<E> key(pk, 0, place, 256);
    gpu::CudaBackend<E> b(key);  // one backend for all three: its staging is reused
    for (const Fr* src : std::initializer_list<const Fr*>{pageable.data(), registered.data(), pinned.data(),
                                                          pageable.data()}) {
      PhaseTimings t;
      test::expect_terms_eq<E>(b.compute(pk, std::span<const Fr>(src, this->sys_.w.size()), t), want,
                               src == pageable.data() ? "pageable witness" : "pinned witness");
    }
  }
  static_assert(gpu::CudaBackend<E>::kStagingBytes == 2 * gpu::StagedUploader::kChunkBytes);
}

TYPED_TEST(StreamedKeyTest, VramFiguresAndChunkSizing) {
  using E = TypeParam;
  using Key = gpu::DeviceProvingKey<E>;
  gadgets::circuits::MulChain<typename E::Fr> circuit{3000, 1};
  const ProvingKey<E> pk = setup<E>(cs::record<typename E::Fr>(circuit), HConvention::kZDivided, 35);
  const std::size_t points = (pk.a_query.size() + pk.b_g1_query.size() + pk.l_query.size() + pk.h_query.size()) *
                                 sizeof(typename E::G1Affine) +
                             pk.b_g2_query.size() * sizeof(typename E::G2Affine);
  EXPECT_EQ(Key::estimate_bytes(pk), Key::estimate_bytes(pk, KeyPlacement::kResident, 999));
  // Streamed, neither the points nor the constraint matrices take VRAM (C is not stored here).
  const std::size_t csr = gpu::DeviceCsr<typename E::Fr>::bytes(pk.a) + gpu::DeviceCsr<typename E::Fr>::bytes(pk.b);
  EXPECT_EQ(Key::estimate_bytes(pk) - Key::estimate_bytes(pk, KeyPlacement::kStreamPoints, 500), points + csr);
  // The per-proof scratch of a streamed key holds its two chunk buffers (G2-sized).
  const std::size_t s500 = Key::estimate_proof_scratch_bytes(pk, KeyPlacement::kStreamPoints, 500);
  const std::size_t s2000 = Key::estimate_proof_scratch_bytes(pk, KeyPlacement::kStreamPoints, 2000);
  EXPECT_GT(s2000, s500);
  EXPECT_GE(Key::stream_chunk_bytes(500), 2 * 500 * sizeof(typename E::G2Affine));
  EXPECT_GE(s500, Key::stream_chunk_bytes(500) + pk.num_vars * sizeof(typename E::Fr));
  EXPECT_GE(s2000, Key::stream_chunk_bytes(2000) + pk.num_vars * sizeof(typename E::Fr));
  EXPECT_THROW(Key::estimate_bytes(pk, static_cast<KeyPlacement>(7)), std::invalid_argument);
  EXPECT_THROW((void)Key(pk, 0, static_cast<KeyPlacement>(7)), std::invalid_argument);
  // Chunk sizing for a budget: the largest chunk that fits, at most the longest array.
  const std::size_t budget = Key::stream_chunk_bytes(1200) + 100;
  const std::size_t c = Key::stream_chunk_points(pk, budget);
  EXPECT_LE(Key::stream_chunk_bytes(c), budget);
  EXPECT_GE(c, 1200u);
  EXPECT_GT(Key::stream_chunk_bytes(c + 1), budget);
  EXPECT_EQ(Key::stream_chunk_points(pk, std::size_t{1} << 40), pk.h_query.size());
  EXPECT_THROW(Key::stream_chunk_points(pk, 1024), std::invalid_argument);
  // A default chunk is kDefaultStreamChunk clamped to the longest point array.
  EXPECT_EQ(Key(pk, 0, KeyPlacement::kStreamPoints).chunk_points(), pk.h_query.size());
  // The streamed key's VRAM is what its estimate says, without the points.
  std::size_t free0 = 0, free1 = 0;
  gpu::set_device(0);
  gpu::device_memory(&free0, nullptr);
  const Key key(pk, 0, KeyPlacement::kStreamPoints, 1000);
  gpu::device_memory(&free1, nullptr);
  EXPECT_EQ(key.bytes(), Key::estimate_bytes(pk, KeyPlacement::kStreamPoints, 1000));
  const std::size_t used = free0 > free1 ? free0 - free1 : 0;  // other processes may share the device
  EXPECT_LE(used, key.bytes() + (std::size_t{32} << 20));
}

// Keys resident in part: each part alone resident, each alone streamed, and two mixes, in both
// conventions (the snarkjs key with C stored, so the streamed matrices include it), with and
// without the value index, a third of them with the NTT's compact twiddle table: the terms equal
// the CPU's, the key's VRAM is its estimate, and a proof (compact table) verifies.
TYPED_TEST(StreamedKeyTest, PartlyResidentLayouts) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const std::span<const Fr> w(this->sys_.w);
  std::vector<unsigned> masks;
  for (KeyPart p : gpu::kAllKeyParts) {
    masks.push_back(KeyLayout::bit(p));
    masks.push_back(KeyLayout::kAllMask & ~KeyLayout::bit(p));
  }
  masks.push_back(KeyLayout::bit(KeyPart::kMatrices) | KeyLayout::bit(KeyPart::kH));
  masks.push_back(KeyLayout::bit(KeyPart::kA) | KeyLayout::bit(KeyPart::kB2) | KeyLayout::bit(KeyPart::kL));
  for (bool indexed : {false, true})
  for (HConvention conv : {HConvention::kOddCoset, HConvention::kZDivided}) {
    SCOPED_TRACE(conv == HConvention::kOddCoset ? "odd coset" : "z divided");
    SCOPED_TRACE(indexed ? "value index" : "values");
    const ProvingKey<E> plain = setup<E>(this->sys_.r1cs, conv, 36);
    const ProvingKey<E> pk = indexed ? with_value_index(plain) : plain;
    const ProofTerms<E> want = test::cpu_terms<E>(pk, w);
    for (unsigned m : masks) {
      const KeyLayout want_layout{m, 77, m % 3 == 0};  // some with the NTT's compact twiddle table
      SCOPED_TRACE(want_layout.describe());
      const gpu::DeviceProvingKey<E> key(pk, 0, want_layout);
      EXPECT_EQ(key.layout(), want_layout);
      EXPECT_EQ(key.placement(), KeyPlacement::kStreamPoints);
      EXPECT_EQ(key.bytes(), gpu::DeviceProvingKey<E>::estimate_bytes(pk, want_layout));
      test::expect_terms_eq<E>(gpu_terms<E>(key, pk, w), want, "partly resident");
    }
    const gpu::DeviceProvingKey<E> key(pk, 0, KeyLayout{masks.back(), 77, true});
    gpu::CudaBackend<E> b(key);
    PhaseTimings t;
    const Proof<E> p = prove_verified<E>(pk, w, b, t);
    const std::vector<Fr> pub(w.begin() + 1, w.begin() + 5);
    EXPECT_TRUE(verify(pk.vk, p, std::span<const Fr>(pub)));
  }
}

// Each part's VRAM figure is its size; the layouts of the placements are the placements'
// figures; the layout chosen for a budget between the streamed and the resident needs fits
// it, keeps some part resident, and proves.
TYPED_TEST(StreamedKeyTest, LayoutFiguresAndTheLayoutForABudget) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  using Key = gpu::DeviceProvingKey<E>;
  using G1A = typename E::G1Affine;
  gadgets::circuits::MulChain<Fr> circuit{3000, 3};
  const auto cs = cs::record<Fr>(circuit);
  const auto w = cs::witness<Fr>(circuit).full();
  const ProvingKey<E> pk = setup<E>(cs, HConvention::kOddCoset, 37);
  const KeyLayout none = KeyLayout::all_streamed(512);
  const std::size_t base = Key::estimate_bytes(pk, none);
  auto alone = [&](KeyPart p) { return Key::estimate_bytes(pk, KeyLayout{KeyLayout::bit(p), 512}) - base; };
  EXPECT_EQ(alone(KeyPart::kH), pk.h_query.size() * sizeof(G1A));
  EXPECT_EQ(alone(KeyPart::kA), pk.a_query.size() * sizeof(G1A));
  EXPECT_EQ(alone(KeyPart::kB1), pk.b_g1_query.size() * sizeof(G1A));
  EXPECT_EQ(alone(KeyPart::kL), pk.l_query.size() * sizeof(G1A));
  EXPECT_EQ(alone(KeyPart::kB2), pk.b_g2_query.size() * sizeof(typename E::G2Affine));
  EXPECT_EQ(alone(KeyPart::kMatrices), gpu::DeviceCsr<Fr>::bytes(pk.a) + gpu::DeviceCsr<Fr>::bytes(pk.b) +
                                           gpu::DeviceCsr<Fr>::bytes(pk.c));
  {
    // Indexed: 6 bytes a term resident; streamed, only the value tables stay on the device.
    const ProvingKey<E> ipk = with_value_index(pk);
    using Csr = gpu::DeviceCsr<Fr>;
    std::size_t pass = 0, tables = 0, nnz = 0, rows = 0;
    for (const auto* m : {&ipk.a, &ipk.b, &ipk.c})
      pass += Csr::pass_bytes(*m), tables += Csr::table_bytes(*m), nnz += m->nnz(), rows += m->row_ptr.size();
    EXPECT_EQ(pass, nnz * 6 + rows * 8);
    EXPECT_GT(tables, 0u);
    EXPECT_EQ(Key::estimate_bytes(ipk, none), base + tables);
    EXPECT_EQ(Key::estimate_bytes(ipk, KeyLayout{KeyLayout::bit(KeyPart::kMatrices), 512}), base + pass + tables);
    // What the keys take on the device is what the estimates say.
    for (const KeyLayout& l : {none, KeyLayout{KeyLayout::bit(KeyPart::kMatrices), 512}}) {
      std::size_t free0 = 0, free1 = 0;
      gpu::set_device(0);
      gpu::device_memory(&free0, nullptr);
      const Key key(ipk, 0, l);
      gpu::device_memory(&free1, nullptr);
      EXPECT_EQ(key.bytes(), Key::estimate_bytes(ipk, l));
      EXPECT_LE(free0 > free1 ? free0 - free1 : 0, key.bytes() + (std::size_t{32} << 20)) << l.describe();
      test::expect_terms_eq<E>(gpu_terms<E>(key, ipk, std::span<const Fr>(w)),
                               test::cpu_terms<E>(pk, std::span<const Fr>(w)), "indexed");
    }
  }
  EXPECT_EQ(Key::estimate_bytes(pk, KeyLayout::all_resident()), Key::estimate_bytes(pk));
  EXPECT_EQ(Key::estimate_proof_scratch_bytes(pk, KeyLayout::all_resident()), Key::estimate_proof_scratch_bytes(pk));
  EXPECT_EQ(Key::estimate_proof_scratch_bytes(pk, none),
            Key::estimate_proof_scratch_bytes(pk, KeyPlacement::kStreamPoints, 512));
  EXPECT_THROW((void)Key(pk, 0, KeyLayout{KeyLayout::kAllMask + 1, 512}), std::invalid_argument);
  auto need = [&](const KeyLayout& l) { return Key::estimate_bytes(pk, l) + Key::estimate_proof_scratch_bytes(pk, l); };
  const std::size_t resident = need(KeyLayout::all_resident());
  EXPECT_EQ(Key::choose_layout(pk, resident, 256), KeyLayout::all_resident());
  const std::size_t chunk = Key::fitting_stream_chunk(pk, resident - 1, 256);
  const std::size_t streamed = need(KeyLayout::all_streamed(chunk));
  ASSERT_LT(streamed, resident);
  const std::size_t budget = streamed + (resident - streamed) / 2;
  const KeyLayout l = Key::choose_layout(pk, budget, 256);
  SCOPED_TRACE(l.describe());
  EXPECT_FALSE(l.is_all_resident());
  EXPECT_NE(l.resident_mask, 0u);
  EXPECT_LE(need(l), budget);
  const Key key(pk, 0, l);
  test::expect_terms_eq<E>(gpu_terms<E>(key, pk, std::span<const Fr>(w)), test::cpu_terms<E>(pk, std::span<const Fr>(w)),
                           "the layout for a budget");
}

}  // namespace
