// Helpers of the GPU backend tests: proof terms compared in affine form, term by term;
// the CPU backend's terms; a typed fixture holding a random satisfiable R1CS.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>

#include "support/random_r1cs.hpp"

#include "cuzk/groth16/backend.hpp"
#include "cuzk/groth16/cpu_backend.hpp"

namespace cuzk::test {

template <class E>
void expect_terms_eq(const groth16::ProofTerms<E>& got, const groth16::ProofTerms<E>& want, const char* what) {
  EXPECT_EQ(got.a.to_affine(), want.a.to_affine()) << what << " A";
  EXPECT_EQ(got.b1.to_affine(), want.b1.to_affine()) << what << " B1";
  EXPECT_EQ(got.b2.to_affine(), want.b2.to_affine()) << what << " B2";
  EXPECT_EQ(got.l.to_affine(), want.l.to_affine()) << what << " L";
  EXPECT_EQ(got.h.to_affine(), want.h.to_affine()) << what << " H";
}

template <class E>
groth16::ProofTerms<E> cpu_terms(const groth16::ProvingKey<E>& pk, std::span<const typename E::Fr> w) {
  groth16::CpuBackend<E> cpu;
  groth16::PhaseTimings t;
  return cpu.compute(pk, w, t);
}

// 300 variables (4 public), 700 constraints of up to 5 terms, from rng(Seed).
template <class E, std::uint64_t Seed>
class RandomSystemTest : public ::testing::Test {
 protected:
  using Fr = typename E::Fr;
  void SetUp() override {
    std::mt19937_64 rng(Seed);
    sys_ = random_system<Fr>(rng, 300, 4, 700, 5);
  }
  RandomSystem<Fr> sys_;
};

}  // namespace cuzk::test
