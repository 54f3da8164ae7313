// Groth16 end to end on the CPU backend: setup -> prove -> verify, in both H conventions
// and both curves; tampered proofs and public inputs are rejected.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/groth16/cpu_backend.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/r1cs/eval.hpp"
#include "support/random_r1cs.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::groth16;

template <class E>
class ProveVerifyTest : public ::testing::Test {
 protected:
  using Fr = typename E::Fr;
  static constexpr std::uint32_t kVars = 40, kPublic = 3, kConstraints = 61;  // 61 + 4 rows: n = 128 with padding

  void SetUp() override {
    std::mt19937_64 rng(1234);
    sys_ = test::random_system<Fr>(rng, kVars, kPublic, kConstraints, 4);
  }
  std::vector<Fr> public_inputs() const {
    return std::vector<Fr>(sys_.w.begin() + 1, sys_.w.begin() + 1 + kPublic);
  }
  Proof<E> prove_now(const ProvingKey<E>& pk, const std::vector<Fr>& w) {
    CpuBackend<E> cpu;
    PhaseTimings t;
    return prove(pk, std::span<const Fr>(w), cpu, t);
  }
  test::RandomSystem<Fr> sys_;
};

using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(ProveVerifyTest, Engines);

TYPED_TEST(ProveVerifyTest, ProofVerifiesInBothConventions) {
  using E = TypeParam;
  for (HConvention conv : {HConvention::kOddCoset, HConvention::kZDivided}) {
    const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, conv, 7);
    EXPECT_EQ(pk.domain_size, 128u);
    const Proof<E> proof = this->prove_now(pk, this->sys_.w);
    const auto pub = this->public_inputs();
    EXPECT_TRUE(verify(pk.vk, proof, std::span<const typename E::Fr>(pub)));
    // Zero knowledge: two proofs of the same statement differ, both verify.
    const Proof<E> proof2 = this->prove_now(pk, this->sys_.w);
    EXPECT_FALSE(proof == proof2);
    EXPECT_TRUE(verify(pk.vk, proof2, std::span<const typename E::Fr>(pub)));
  }
}

TYPED_TEST(ProveVerifyTest, TamperedProofOrInputIsRejected) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kOddCoset, 8);
  const Proof<E> proof = this->prove_now(pk, this->sys_.w);
  auto pub = this->public_inputs();
  ASSERT_TRUE(verify(pk.vk, proof, std::span<const Fr>(pub)));

  auto bad_pub = pub;
  bad_pub[1] += Fr::one();
  EXPECT_FALSE(verify(pk.vk, proof, std::span<const Fr>(bad_pub)));

  Proof<E> p = proof;
  p.a = -p.a;
  EXPECT_FALSE(verify(pk.vk, p, std::span<const Fr>(pub)));
  p = proof;
  p.c = (E::G1::from_affine(p.c) + E::G1::generator()).to_affine();
  EXPECT_FALSE(verify(pk.vk, p, std::span<const Fr>(pub)));
  p = proof;
  p.b = E::G2::from_affine(p.b).dbl().to_affine();
  EXPECT_FALSE(verify(pk.vk, p, std::span<const Fr>(pub)));

  // A proof for another key (other toxic waste) does not verify under this one.
  const ProvingKey<E> other = setup<E>(this->sys_.r1cs, HConvention::kOddCoset, 9);
  EXPECT_FALSE(verify(other.vk, proof, std::span<const Fr>(pub)));

  std::vector<Fr> short_pub(pub.begin(), pub.end() - 1);
  EXPECT_THROW(verify(pk.vk, proof, std::span<const Fr>(short_pub)), std::invalid_argument);
}

TYPED_TEST(ProveVerifyTest, SnarkjsStyleKeyWithoutCMatrix) {
  using E = TypeParam;
  ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kOddCoset, 10);
  pk.c_stored = false;  // prover takes c = a*b on the domain, as snarkjs and rapidsnark do
  pk.c = {};
  const Proof<E> proof = this->prove_now(pk, this->sys_.w);
  const auto pub = this->public_inputs();
  EXPECT_TRUE(verify(pk.vk, proof, std::span<const typename E::Fr>(pub)));
}

TYPED_TEST(ProveVerifyTest, UnsatisfiedWitnessGivesNoValidProof) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kZDivided, 11);
  // Change a private wire that some constraint uses.
  auto w = this->sys_.w;
  for (std::uint32_t j = this->kVars - 1; j > this->kPublic; --j) {
    w = this->sys_.w;
    w[j] += Fr::one();
    if (r1cs::check(this->sys_.r1cs, std::span<const Fr>(w)).has_value()) break;
  }
  ASSERT_TRUE(r1cs::check(this->sys_.r1cs, std::span<const Fr>(w)).has_value());
  const auto pub = this->public_inputs();
  const Proof<E> proof = this->prove_now(pk, w);
  EXPECT_FALSE(verify(pk.vk, proof, std::span<const Fr>(pub)));
  CpuBackend<E> cpu;
  PhaseTimings t;
  EXPECT_THROW(prove_verified(pk, std::span<const Fr>(w), cpu, t), std::runtime_error);
}

TYPED_TEST(ProveVerifyTest, BadWitnessShapeIsAClearError) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kOddCoset, 12);
  auto w = this->sys_.w;
  w.pop_back();
  EXPECT_THROW(this->prove_now(pk, w), std::invalid_argument);
  w = this->sys_.w;
  w[0] = Fr::from_u64(2);
  EXPECT_THROW(this->prove_now(pk, w), std::invalid_argument);
}

TYPED_TEST(ProveVerifyTest, SameRandomnessSameProofAndTimings) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kOddCoset, 13);
  CpuBackend<E> cpu;
  PhaseTimings t1, t2;
  const Fr r = Fr::from_u64(5), s = Fr::from_u64(6);
  const auto w = std::span<const Fr>(this->sys_.w);
  EXPECT_EQ(prove_with_randomness(pk, w, cpu, r, s, t1), prove_with_randomness(pk, w, cpu, r, s, t2));
  for (const char* phase : {"eval_abc", "h_poly", "msm_h", "msm_a", "msm_b_g1", "msm_b_g2", "msm_l", "assemble"})
    EXPECT_GT(t1.get(phase) + 1e-9, 0.0) << phase;
  EXPECT_EQ(t1.phases.size(), 8u);
}

}  // namespace
