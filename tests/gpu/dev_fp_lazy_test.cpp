// Lazy2p (the NTT's arithmetic on values below 2p) against GMP, for all four fields, over
// the PTX instruction emulation (gpu_dev_fp_lazy_ptx_emu_test) and on the portable path: on operands at the ends of [0, 2p) (0, 1, p - 1, p, p + 1,
// 2p - 1, ...) and random ones, add, sub and mul give a result below 2p congruent to the exact
// one, and reduce maps it to the canonical value. Needs no GPU.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/dev_fp_lazy.cuh"
#include "cuzk/gpu/dev_params.cuh"
#include "mont_gmp_util.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::gpu::test;

template <class F>
class Lazy2pTest : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bls12_381::Fq, ff::bn254::Fr, ff::bn254::Fq>;
TYPED_TEST_SUITE(Lazy2pTest, Fields);

// Value i below 2p: the first kEnds are fixed ends of the range, the rest random.
constexpr int kEnds = 9;
template <class F>
mpz_class value(const Env<F>& env, std::mt19937_64& rng, int i) {
  const mpz_class& p = env.p;
  const mpz_class ends[kEnds] = {0, 1, p - 1, p, p + 1, 2 * p - 1, 2 * p - 2, (p - 1) / 2, env.R % p};
  return i < kEnds ? ends[i] : env.below(rng, 2 * p);
}

TYPED_TEST(Lazy2pTest, SumsAndDifferencesStayBelow2p) {
  Env<TypeParam> env;
  constexpr int N = Env<TypeParam>::N;
  using L = gpu::Lazy2p<typename Env<TypeParam>::C>;
  using D = typename L::F;
  std::mt19937_64 rng(211 + N);
  const mpz_class p = env.p;
  for (int i = 0; i < 70; ++i) {
    for (int j = 0; j < 70; ++j) {
      const mpz_class A = value(env, rng, i), B = value(env, rng, j);
      D a, b;
      from_mpz(a.l, A), from_mpz(b.l, B);
      const D s = L::add(a, b), d = L::sub(a, b);
      ASSERT_LT(to_mpz(s.l), 2 * p) << A << " + " << B;
      ASSERT_EQ(to_mpz(s.l) % p, (A + B) % p) << A << " + " << B;
      ASSERT_LT(to_mpz(d.l), 2 * p) << A << " - " << B;
      mpz_class want = (A - B) % p;
      if (want < 0) want += p;
      ASSERT_EQ(to_mpz(d.l) % p, want) << A << " - " << B;
      ASSERT_EQ(to_mpz(L::reduce(s).l), (A + B) % p);
      ASSERT_EQ(to_mpz(L::reduce(d).l), want);
    }
  }
}

// w < p (a twiddle), y below 2p and up to 2^(32N) - 1: w y R^-1 mod p, below 2p.
TYPED_TEST(Lazy2pTest, ProductWithACanonicalFactorStaysBelow2p) {
  Env<TypeParam> env;
  constexpr int N = Env<TypeParam>::N;
  using L = gpu::Lazy2p<typename Env<TypeParam>::C>;
  using D = typename L::F;
  std::mt19937_64 rng(223 + N);
  const mpz_class p = env.p;
  for (int i = 0; i < 80; ++i) {
    for (int j = 0; j < 80; ++j) {
      const mpz_class W = i < kEnds ? value(env, rng, i) % p : env.below(rng, p);
      const mpz_class Y = j == 79 ? env.R - 1 : value(env, rng, j);
      D w, y;
      from_mpz(w.l, W), from_mpz(y.l, Y);
      const D r = L::mul(w, y);
      ASSERT_LT(to_mpz(r.l), 2 * p) << W << " * " << Y;
      ASSERT_EQ(to_mpz(r.l) % p, (W * Y * env.Rinv) % p) << W << " * " << Y;
    }
  }
}

}  // namespace
