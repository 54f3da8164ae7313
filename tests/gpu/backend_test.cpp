// CudaBackend end to end: proof terms equal the CPU backend's (affine, bit for bit), the
// same randomness gives the same proof, prove_verified accepts, for BLS12-381 and BN254 in
// both H conventions (bellperson kZDivided with stored C; snarkjs kOddCoset with and
// without C, as .zkey keys come), with a resident key reused across proofs, and by workers
// sharing one device context.
#include <gtest/gtest.h>

#include <random>
#include <thread>
#include <vector>

#include "backend_test_util.hpp"
#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/context.hpp"
#include "cuzk/groth16/cpu_backend.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "require_device.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::groth16;

template <class E>
void expect_same_terms(const ProvingKey<E>& pk, std::span<const typename E::Fr> w, Backend<E>& gpu_backend,
                       const char* what) {
  PhaseTimings t2;
  const ProofTerms<E> got = gpu_backend.compute(pk, w, t2);
  test::expect_terms_eq<E>(got, test::cpu_terms<E>(pk, w), what);
  for (const char* phase : {"transfer_witness", "eval_abc", "h_poly", "msm_h", "msm_a", "msm_b_g1", "msm_b_g2", "msm_l"})
    EXPECT_GT(t2.get(phase), 0.0) << phase;
}

template <class E>
class CudaBackendTest : public test::RandomSystemTest<E, 4321> {};

using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(CudaBackendTest, Engines);

TYPED_TEST(CudaBackendTest, TermsAndProofsMatchCpuInBothConventions) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const std::span<const Fr> w(this->sys_.w);
  for (HConvention conv : {HConvention::kOddCoset, HConvention::kZDivided}) {
    const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, conv, 21);
    const gpu::DeviceProvingKey<E> key(pk, 0);
    gpu::CudaBackend<E> gpu_backend(key);
    expect_same_terms<E>(pk, w, gpu_backend, conv == HConvention::kOddCoset ? "odd coset" : "z divided");
    // Same randomness, same proof; and prove_verified accepts the GPU's proof.
    std::mt19937_64 rng(5);
    const Fr r = Fr::random(rng), s = Fr::random(rng);
    CpuBackend<E> cpu;
    PhaseTimings t;
    EXPECT_EQ(prove_with_randomness<E>(pk, w, gpu_backend, r, s, t), prove_with_randomness<E>(pk, w, cpu, r, s, t));
    const Proof<E> p = prove_verified<E>(pk, w, gpu_backend, t);
    const std::vector<Fr> pub(this->sys_.w.begin() + 1, this->sys_.w.begin() + 5);
    EXPECT_TRUE(verify(pk.vk, p, std::span<const Fr>(pub)));
    // The per-proof upload path gives the same terms.
    gpu::CudaBackend<E> oneshot(0);
    expect_same_terms<E>(pk, w, oneshot, "one-shot upload");
  }
}

// Small resident proofs run their witness MSMs on side threads (concurrent_witness_msms); a key
// made with Tuning::sequential_msms runs them one after another, and its proofs need less
// scratch. Both give the CPU's terms and every phase's timing.
TYPED_TEST(CudaBackendTest, SequentialAndConcurrentWitnessMsmsMatchCpu) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kZDivided, 23);
  const std::span<const Fr> w(this->sys_.w);
  gpu::Tuning sequential;
  sequential.sequential_msms = true;
  const gpu::KeyLayout all = gpu::KeyLayout::all_resident();
  EXPECT_LT(gpu::DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk, all, sequential),
            gpu::DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk, all));
  for (const gpu::Tuning& t : {sequential, gpu::Tuning{}}) {
    const gpu::DeviceProvingKey<E> key(pk, 0, all, t);
    EXPECT_EQ(key.tuning(), t);
    gpu::CudaBackend<E> b(key);
    expect_same_terms<E>(pk, w, b, t.sequential_msms ? "sequential msms" : "concurrent msms");
  }
}

TYPED_TEST(CudaBackendTest, SnarkjsKeyWithoutC) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kOddCoset, 22);
  pk.c = r1cs::CsrMatrix<Fr>{};
  pk.c_stored = false;  // c = a * b on the domain, as the prover of a .zkey does
  const gpu::DeviceProvingKey<E> key(pk, 0);
  gpu::CudaBackend<E> b(key);
  expect_same_terms<E>(pk, std::span<const Fr>(this->sys_.w), b, "snarkjs key");
  PhaseTimings t;
  EXPECT_NO_THROW(prove_verified<E>(pk, std::span<const Fr>(this->sys_.w), b, t));
}

TYPED_TEST(CudaBackendTest, ResidentKeyServesManyProofsAndChecksShape) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  gadgets::circuits::MulChain<Fr> circuit{3000, 1};
  const auto cs = cs::record<Fr>(circuit);
  const ProvingKey<E> pk = setup<E>(cs, HConvention::kZDivided, 23);
  std::size_t free0 = 0, free1 = 0;
  gpu::set_device(0);
  gpu::device_memory(&free0, nullptr);
  const std::size_t est = gpu::DeviceProvingKey<E>::estimate_bytes(pk);
  EXPECT_GT(gpu::DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk), 0u);
  {
    const gpu::DeviceProvingKey<E> key(pk, 0);
    gpu::device_memory(&free1, nullptr);
    EXPECT_EQ(key.bytes(), est);
    // Other test processes may share the device (ctest -j): free memory can also grow.
    const std::size_t used = free0 > free1 ? free0 - free1 : 0;
    EXPECT_LE(used, est + (std::size_t{32} << 20)) << "resident key larger than its estimate";
    gpu::CudaBackend<E> b(key);
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      gadgets::circuits::MulChain<Fr> c{3000, seed};
      const auto w = cs::witness<Fr>(c).full();
      expect_same_terms<E>(pk, std::span<const Fr>(w), b, "mul chain");
      PhaseTimings t;
      EXPECT_NO_THROW(prove_verified<E>(pk, std::span<const Fr>(w), b, t));
    }
    // Another key shape is refused.
    const ProvingKey<E> other = setup<E>(this->sys_.r1cs, HConvention::kZDivided, 24);
    PhaseTimings t;
    EXPECT_THROW(b.compute(other, std::span<const Fr>(this->sys_.w), t), std::invalid_argument);
  }
}

TYPED_TEST(CudaBackendTest, ConcurrentWorkersShareOneResidentKey) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const ProvingKey<E> pk = setup<E>(this->sys_.r1cs, HConvention::kOddCoset, 25);
  CpuBackend<E> cpu;
  PhaseTimings t0;
  const ProofTerms<E> want = cpu.compute(pk, std::span<const Fr>(this->sys_.w), t0);
  const gpu::DeviceProvingKey<E> key(pk, 0);
  // The engine's way: one context for the device, a backend per proof. Sized for two proofs
  // at once, four workers queue for its executors' threads (and make four memory lanes).
  gpu::DeviceContext ctx(0, {}, 2);
  std::vector<int> ok(4, 0);
  std::vector<std::thread> workers;
  for (int k = 0; k < 4; ++k)
    workers.emplace_back([&, k] {
      for (int rep = 0; rep < 3; ++rep) {
        gpu::CudaBackend<E> b(key, ctx);
        PhaseTimings t;
        const ProofTerms<E> got = b.compute(pk, std::span<const Fr>(this->sys_.w), t);
        ok[k] += got.a.to_affine() == want.a.to_affine() && got.b2.to_affine() == want.b2.to_affine() &&
                 got.h.to_affine() == want.h.to_affine() && got.l.to_affine() == want.l.to_affine();
      }
    });
  for (auto& th : workers) th.join();
  for (int k = 0; k < 4; ++k) EXPECT_EQ(ok[k], 3) << "worker " << k;
  EXPECT_LE(ctx.lanes(), 4u);
}

TEST(CudaBackendErrors, BadDeviceThrowsCudaError) {
  std::mt19937_64 rng(1);
  auto sys = test::random_system<Bn254::Fr>(rng, 20, 1, 20, 3);
  const ProvingKey<Bn254> pk = setup<Bn254>(sys.r1cs, HConvention::kOddCoset, 1);
  EXPECT_THROW(gpu::DeviceProvingKey<Bn254>(pk, gpu::device_count() + 3), gpu::CudaError);
}

}  // namespace
