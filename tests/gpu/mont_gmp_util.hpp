// GMP helpers shared by the device product tests: words <-> mpz_class, and a field's
// modulus, R = 2^(32N) and R^-1 mod p from its DevParams.
#pragma once

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>

#include "cuzk/gpu/dev_params.cuh"

namespace cuzk::gpu::test {

using u32 = std::uint32_t;

template <std::size_t K>
mpz_class to_mpz(const u32 (&w)[K]) {
  mpz_class z;
  mpz_import(z.get_mpz_t(), K, -1, sizeof(u32), 0, 0, w);
  return z;
}
template <std::size_t K>
void from_mpz(u32 (&w)[K], const mpz_class& z) {
  for (auto& x : w) x = 0;
  std::size_t count = 0;
  ASSERT_LE(mpz_sizeinbase(z.get_mpz_t(), 2), 32 * K);
  mpz_export(w, &count, -1, sizeof(u32), 0, 0, z.get_mpz_t());
}

template <class F>
struct Env {
  using C = gpu::DevParams<F>;
  static constexpr int N = C::kN;
  mpz_class p, R, Rinv;
  Env() {
    u32 w[N];
    for (int i = 0; i < N; ++i) w[i] = C::p(i);
    p = to_mpz(w);
    R = mpz_class(1) << (32 * N);
    mpz_invert(Rinv.get_mpz_t(), R.get_mpz_t(), p.get_mpz_t());
  }
  mpz_class below(std::mt19937_64& rng, const mpz_class& bound) const {
    u32 w[2 * N];
    for (auto& x : w) x = static_cast<u32>(rng());
    return to_mpz(w) % bound;
  }
};

}  // namespace cuzk::gpu::test
