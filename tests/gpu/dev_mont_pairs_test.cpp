// MontPairs (the device Montgomery product) against GMP over the PTX instruction emulation,
// on extreme inputs (0, 1, p - 1, p - 2, (p - 1)/2, R mod p) and random ones: the result is
// below 2p and equals a b R^-1 mod p. Needs no GPU.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "cuzk/ff/fields.hpp"
#include "dev_mont_kara.cuh"
#include "cuzk/gpu/dev_params.cuh"
#include "mont_gmp_util.hpp"

#if !defined(CUZK_GPU_PTX_PATH)
#error "build with CUZK_GPU_EMULATE_PTX"
#endif

namespace {

using namespace cuzk;
using namespace cuzk::gpu::test;

template <class F>
class MontPairsTest : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bls12_381::Fq, ff::bn254::Fr, ff::bn254::Fq>;
TYPED_TEST_SUITE(MontPairsTest, Fields);

TYPED_TEST(MontPairsTest, ProductOfExtremes) {
  Env<TypeParam> env;
  constexpr int N = Env<TypeParam>::N;
  using P = gpu::MontPairs<typename Env<TypeParam>::C>;
  std::mt19937_64 rng(17 + N);
  const mpz_class vals[] = {0, 1, 2, env.p - 1, env.p - 2, (env.p - 1) / 2, env.R % env.p};
  for (int i = 0; i < 60; ++i) {
    for (int j = 0; j < 60; ++j) {
      const mpz_class A = i < 7 ? vals[i] : env.below(rng, env.p), B = j < 7 ? vals[j] : env.below(rng, env.p);
      u32 a[N], b[N], r[N];
      from_mpz(a, A), from_mpz(b, B);
      P::mul(r, a, b);
      ASSERT_LT(to_mpz(r), 2 * env.p);
      ASSERT_EQ(to_mpz(r) % env.p, (A * B * env.Rinv) % env.p) << A << " " << B;
    }
  }
}

// The dedicated square (MontPairs::sqr) on the same extremes and 3000 random values.
TYPED_TEST(MontPairsTest, SquareOfExtremes) {
  Env<TypeParam> env;
  constexpr int N = Env<TypeParam>::N;
  using P = gpu::MontPairs<typename Env<TypeParam>::C>;
  std::mt19937_64 rng(29 + N);
  const mpz_class vals[] = {0, 1, 2, env.p - 1, env.p - 2, (env.p - 1) / 2, (env.p + 1) / 2, env.R % env.p};
  for (int i = 0; i < 3000; ++i) {
    const mpz_class A = i < 8 ? vals[i] : env.below(rng, env.p);
    u32 a[N], r[N], m[N];
    from_mpz(a, A);
    P::sqr(r, a);
    P::mul(m, a, a);
    ASSERT_LT(to_mpz(r), 2 * env.p) << A;
    ASSERT_EQ(to_mpz(r) % env.p, (A * A * env.Rinv) % env.p) << A;
    ASSERT_EQ(to_mpz(r) % env.p, to_mpz(m) % env.p) << A;
  }
}

// The double-width product and the reduction on their own: mul_wide exact for any words
// (all ones included), redc below 2p and equal to T R^-1 mod p up to T = p R - 1.
TYPED_TEST(MontPairsTest, WideProductAndReduction) {
  Env<TypeParam> env;
  constexpr int N = Env<TypeParam>::N;
  using P = gpu::MontPairs<typename Env<TypeParam>::C>;
  std::mt19937_64 rng(41 + N);
  const mpz_class top = env.R - 1, pR = env.p * env.R;
  const mpz_class wide[] = {0, 1, top, env.p - 1, env.p, top - 1};
  const mpz_class reds[] = {0, 1, pR - 1, pR - env.p, env.p * env.p, env.R - 1, env.R * (env.p - 1)};
  for (int i = 0; i < 2000; ++i) {
    const mpz_class A = i < 6 ? wide[i] : env.below(rng, env.R), B = i < 6 ? wide[5 - i] : env.below(rng, env.R);
    u32 a[N], b[N], t[2 * N];
    from_mpz(a, A), from_mpz(b, B);
    P::mul_wide(t, a, b);
    ASSERT_EQ(to_mpz(t), A * B) << A << " " << B;
    const mpz_class T = i < 7 ? reds[i] : env.below(rng, pR);
    u32 tt[2 * N], r[N];
    from_mpz(tt, T);
    P::redc(r, tt);
    ASSERT_LT(to_mpz(r), 2 * env.p) << T;
    ASSERT_EQ(to_mpz(r) % env.p, (T * env.Rinv) % env.p) << T;
  }
}

// The Karatsuba wide product (MontKara): exact for any words (all ones, so both half sums carry, and
// halves that cancel included); mul_kara equals mul word for word on the product's extremes
// and random values.
TYPED_TEST(MontPairsTest, KaratsubaProductMatchesSchoolbook) {
  Env<TypeParam> env;
  constexpr int N = Env<TypeParam>::N;
  using P = gpu::MontPairs<typename Env<TypeParam>::C>;
  using K = gpu::MontKara<typename Env<TypeParam>::C>;
  std::mt19937_64 rng(79 + N);
  const mpz_class top = env.R - 1, half = (mpz_class(1) << (16 * N)) - 1;
  const mpz_class wide[] = {0, 1, top, top - 1, env.p - 1, env.p, half, top - half, half << (16 * N)};
  constexpr int kWide = sizeof(wide) / sizeof(wide[0]);
  for (int i = 0; i < kWide * kWide + 2000; ++i) {
    const bool ext = i < kWide * kWide;
    const mpz_class A = ext ? wide[i % kWide] : env.below(rng, env.R);
    const mpz_class B = ext ? wide[i / kWide] : env.below(rng, env.R);
    u32 a[N], b[N], t[2 * N];
    from_mpz(a, A), from_mpz(b, B);
    K::mul_wide_kara(t, a, b);
    ASSERT_EQ(to_mpz(t), A * B) << A << " " << B;
  }
  const mpz_class vals[] = {0, 1, 2, env.p - 1, env.p - 2, (env.p - 1) / 2, env.R % env.p};
  for (int i = 0; i < 49 + 3000; ++i) {
    const mpz_class A = i < 49 ? vals[i % 7] : env.below(rng, env.p);
    const mpz_class B = i < 49 ? vals[i / 7] : env.below(rng, env.p);
    u32 a[N], b[N], r[N], m[N];
    from_mpz(a, A), from_mpz(b, B);
    K::mul_kara(r, a, b);
    P::mul(m, a, b);
    for (int k = 0; k < N; ++k) ASSERT_EQ(r[k], m[k]) << A << " " << B << " word " << k;
  }
}

// The Fp2 product with deferred reductions (u^2 = -1): both halves below 2p and equal to
// (a0 b0 - a1 b1) R^-1 and (a0 b1 + a1 b0) R^-1 mod p, on extremes (a0 b0 < a1 b1 and the
// largest sums included) and random values.
TYPED_TEST(MontPairsTest, Fp2ProductOfExtremes) {
  Env<TypeParam> env;
  constexpr int N = Env<TypeParam>::N;
  using P = gpu::MontPairs<typename Env<TypeParam>::C>;
  std::mt19937_64 rng(53 + N);
  const mpz_class vals[] = {0, 1, env.p - 1, env.p - 2, (env.p - 1) / 2, env.R % env.p};
  const mpz_class p = env.p;
  for (int i = 0; i < 1296 + 1500; ++i) {
    mpz_class v[4];
    for (int k = 0, q = i; k < 4; ++k, q /= 6) v[k] = i < 1296 ? vals[q % 6] : env.below(rng, p);
    u32 a0[N], a1[N], b0[N], b1[N], c0[N], c1[N];
    from_mpz(a0, v[0]), from_mpz(a1, v[1]), from_mpz(b0, v[2]), from_mpz(b1, v[3]);
    P::fp2_mul(c0, c1, a0, a1, b0, b1);
    ASSERT_LT(to_mpz(c0), 2 * p);
    ASSERT_LT(to_mpz(c1), 2 * p);
    mpz_class e0 = ((v[0] * v[2] - v[1] * v[3]) * env.Rinv) % p;
    if (e0 < 0) e0 += p;
    ASSERT_EQ(to_mpz(c0) % p, e0) << v[0] << " " << v[1] << " " << v[2] << " " << v[3];
    ASSERT_EQ(to_mpz(c1) % p, ((v[0] * v[3] + v[1] * v[2]) * env.Rinv) % p);
  }
}

// Two products with one reduction, r = mul2(x, y, z, w): below bound_p * p and equal to
// (x y + z w) R^-1 mod p for x, z <= p and y, w < p, extremes included.
template <class F, class Mul2>
void check_two_products(Mul2 mul2, int bound_p, unsigned seed) {
  Env<F> env;
  constexpr int N = Env<F>::N;
  std::mt19937_64 rng(seed + N);
  const mpz_class p = env.p;
  const mpz_class vals[] = {0, 1, p - 1, p - 2, (p - 1) / 2, env.R % p};
  for (int i = 0; i < 1296 + 1500; ++i) {
    mpz_class v[4];
    for (int k = 0, q = i; k < 4; ++k, q /= 6) v[k] = i < 1296 ? vals[q % 6] : env.below(rng, p);
    if (i % 5 == 1) v[0] = p;  // x and z may equal p
    if (i % 7 == 2) v[2] = p;
    u32 x[N], y[N], z[N], w[N], r[N];
    from_mpz(x, v[0]), from_mpz(y, v[1]), from_mpz(z, v[2]), from_mpz(w, v[3]);
    mul2(r, x, y, z, w);
    ASSERT_LT(to_mpz(r), bound_p * p);
    ASSERT_EQ(to_mpz(r) % p, ((v[0] * v[1] + v[2] * v[3]) * env.Rinv) % p)
        << v[0] << " " << v[1] << " " << v[2] << " " << v[3];
  }
}
// MontPairs::mul2 (Y3 of the MSM's mixed additions): below 3p.
TYPED_TEST(MontPairsTest, TwoProductsOneReduction) {
  using P = gpu::MontPairs<typename Env<TypeParam>::C>;
  if constexpr (P::kMul2Fits) check_two_products<TypeParam>(P::mul2, 3, 67);
  else GTEST_SKIP() << "3p >= 2^(32N): mul2 is not defined for this modulus";
}
// MontKara::mul2_kara (two Karatsuba wide products, one redc): below 2p, for every modulus.
TYPED_TEST(MontPairsTest, TwoKaratsubaProductsOneReduction) {
  check_two_products<TypeParam>(gpu::MontKara<typename Env<TypeParam>::C>::mul2_kara, 2, 83);
}

}  // namespace
