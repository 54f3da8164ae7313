// MontF64 (the Montgomery product through the FP64 pipe) on its host path, whose 128-bit
// integer products give the bit patterns the device's FMAs give: against GMP on extreme and
// random inputs (result below 2p, equal to a b R^-1 mod p), and against the integer product
// bit for bit after the final subtraction. Needs no GPU; the device path is compared with the
// host field in gpu_field_test (FieldOp::kMulF64).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/dev_params.cuh"
#include "mont_gmp_util.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::gpu::test;

template <class F>
class MontF64Test : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bls12_381::Fq, ff::bn254::Fr, ff::bn254::Fq>;
TYPED_TEST_SUITE(MontF64Test, Fields);

TYPED_TEST(MontF64Test, ProductOfExtremes) {
  using E = Env<TypeParam>;
  E env;
  constexpr int N = E::N;
  using M = gpu::MontF64<typename E::C>;
  using D = gpu::DevField<TypeParam>;
  std::mt19937_64 rng(101 + N);
  const mpz_class p = env.p;
  const mpz_class vals[] = {0, 1, 2, p - 1, p - 2, (p - 1) / 2, (p + 1) / 2, env.R % p, mpz_class(1) << 52,
                            (mpz_class(1) << 52) - 1};
  constexpr int kVals = 10;
  for (int i = 0; i < 80; ++i) {
    for (int j = 0; j < 80; ++j) {
      const mpz_class A = i < kVals ? vals[i] : env.below(rng, p), B = j < kVals ? vals[j] : env.below(rng, p);
      u32 a[N], b[N], r[N];
      from_mpz(a, A), from_mpz(b, B);
      M::mul(r, a, b);
      ASSERT_LT(to_mpz(r), 2 * p) << A << " " << B;
      ASSERT_EQ(to_mpz(r) % p, (A * B * env.Rinv) % p) << A << " " << B;
      u32 want[N], got[N];
      D::mont_mul(want, a, b);
      D::mont_mul_f64(got, a, b);
      ASSERT_EQ(std::memcmp(want, got, sizeof want), 0) << A << " " << B;
    }
  }
}

// The limb split and the reduction constant on their own: every number below 2^(32N) read
// back from its 52-bit limbs, and kNegInv = -p^-1 mod 2^52. (The column biases are checked by
// the products above: 0 * 0 leaves only them, and the result must be 0.)
TYPED_TEST(MontF64Test, LimbsRoundTrip) {
  using E = Env<TypeParam>;
  E env;
  constexpr int N = E::N;
  using M = gpu::MontF64<typename E::C>;
  std::mt19937_64 rng(131 + N);
  for (int i = 0; i < 500; ++i) {
    const mpz_class A = i == 0 ? env.R - 1 : env.below(rng, env.R);
    u32 a[N];
    from_mpz(a, A);
    double d[M::L];
    M::to_limbs(d, a);
    mpz_class back = 0;
    for (int k = M::L - 1; k >= 0; --k) {
      ASSERT_LT(d[k], 0x1p52);
      back = (back << 52) + mpz_class(static_cast<unsigned long>(d[k]));
    }
    ASSERT_EQ(back, A);
  }
  const mpz_class low = env.p % (mpz_class(1) << 52);
  ASSERT_EQ((low * mpz_class(static_cast<unsigned long>(M::kNegInv)) + 1) % (mpz_class(1) << 52), 0);
}

}  // namespace
