// The one proving path of groth16::Backend (backend.hpp): compute() of k witnesses gives the
// terms of each proved alone, one timings per proof; a single proof is that batch of one; an
// empty batch and spans of different lengths are refused. prove_batch checks every witness's
// shape once (the backends do not) and its proofs verify; no witnesses give no proofs.
#include <gtest/gtest.h>

#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/groth16/cpu_backend.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "support/random_r1cs.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::groth16;

// Whether t lists the phase (a small proof's phases may take 0 ms).
bool timed(const PhaseTimings& t, const std::string& phase) {
  for (const auto& [name, ms] : t.phases)
    if (name == phase) return true;
  return false;
}

template <class E>
class BackendBatchTest : public ::testing::Test {
 protected:
  using Fr = typename E::Fr;
  void SetUp() override {
    std::mt19937_64 rng(77);
    sys_ = test::random_system<Fr>(rng, 30, 2, 45, 4);
  }
  test::RandomSystem<Fr> sys_;
};

using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(BackendBatchTest, Engines);

TYPED_TEST(BackendBatchTest, BatchTermsEqualSingleProofsInBothConventions) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  for (HConvention conv : {HConvention::kOddCoset, HConvention::kZDivided}) {
    SCOPED_TRACE(conv == HConvention::kOddCoset ? "odd coset" : "z divided");
    const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, conv, 5);
    std::vector<Fr> other = this->sys_.w;  // another assignment of the same shape
    other.back() += Fr::one();
    other[1] += Fr::from_u64(3);
    const std::vector<std::span<const Fr>> ws{this->sys_.w, other, this->sys_.w};
    CpuBackend<E> cpu;
    std::vector<PhaseTimings> ts(ws.size());
    std::vector<ProofTerms<E>> out(ws.size());
    cpu.compute(pk, ws, ts, out);
    for (std::size_t i = 0; i < ws.size(); ++i) {
      SCOPED_TRACE("proof " + std::to_string(i));
      PhaseTimings t;
      const ProofTerms<E> want = cpu.compute(pk, ws[i], t);
      EXPECT_EQ(out[i].a.to_affine(), want.a.to_affine());
      EXPECT_EQ(out[i].b1.to_affine(), want.b1.to_affine());
      EXPECT_EQ(out[i].b2.to_affine(), want.b2.to_affine());
      EXPECT_EQ(out[i].l.to_affine(), want.l.to_affine());
      EXPECT_EQ(out[i].h.to_affine(), want.h.to_affine());
      for (const char* phase : {"eval_abc", "h_poly", "msm_h", "msm_a", "msm_b_g1", "msm_b_g2", "msm_l"})
        EXPECT_TRUE(timed(ts[i], phase)) << phase;
    }
    EXPECT_FALSE(out[0].a.to_affine() == out[1].a.to_affine());  // the witnesses' own terms
  }
}

TYPED_TEST(BackendBatchTest, EmptyBatchAndMismatchedSpansAreRefused) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kOddCoset, 6);
  CpuBackend<E> cpu;
  const std::vector<std::span<const Fr>> ws{this->sys_.w, this->sys_.w};
  std::vector<PhaseTimings> ts(2);
  std::vector<ProofTerms<E>> out(1);
  EXPECT_THROW(cpu.compute(pk, ws, ts, out), std::invalid_argument);
  EXPECT_THROW(cpu.compute(pk, std::span<const std::span<const Fr>>{}, std::span<PhaseTimings>{},
                           std::span<ProofTerms<E>>{}),
               std::invalid_argument);
  ts.resize(1);
  out.resize(2);
  EXPECT_THROW(cpu.compute(pk, ws, ts, out), std::invalid_argument);
}

TYPED_TEST(BackendBatchTest, ProveBatchChecksEveryWitnessAndItsProofsVerify) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kZDivided, 7);
  CpuBackend<E> cpu;
  std::vector<PhaseTimings> ts(2);
  const std::vector<std::span<const Fr>> ws{this->sys_.w, this->sys_.w};
  const std::vector<Proof<E>> proofs = prove_batch<E>(pk, ws, cpu, ts);
  ASSERT_EQ(proofs.size(), 2u);
  const std::span<const Fr> pub = std::span<const Fr>(this->sys_.w).subspan(1, pk.num_public());
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(verify(pk.vk, proofs[i], pub)) << i;
    EXPECT_TRUE(timed(ts[i], "msm_h") && timed(ts[i], "assemble")) << i;
  }
  EXPECT_FALSE(proofs[0] == proofs[1]);  // each with its own r, s

  const std::vector<Fr> short_w(this->sys_.w.begin(), this->sys_.w.end() - 1);
  std::vector<Fr> bad_one = this->sys_.w;  // w[0] != 1
  bad_one[0] = Fr::from_u64(2);
  for (const std::vector<Fr>& bad : {short_w, bad_one}) {
    const std::vector<std::span<const Fr>> mixed{this->sys_.w, bad};
    EXPECT_THROW(prove_batch<E>(pk, mixed, cpu, ts), std::invalid_argument);
  }
  EXPECT_TRUE(prove_batch<E>(pk, std::span<const std::span<const Fr>>{}, cpu, std::span<PhaseTimings>{}).empty());
}

}  // namespace
