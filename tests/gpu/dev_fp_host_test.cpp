// The 32-bit DevFp arithmetic against the host Fp<P>, byte for byte, for all four fields.
// Needs no GPU. Built twice: plain (the portable 64-bit host path) and with
// CUZK_GPU_EMULATE_PTX (the device path's PTX carry-chain sequence, each instruction
// emulated on the CPU).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/dev_params.cuh"

#if defined(CUZK_GPU_EMULATE_PTX) && !defined(CUZK_GPU_PTX_PATH)
#error "CUZK_GPU_EMULATE_PTX did not select the PTX path"
#endif

namespace {

using namespace cuzk;

template <class F>
gpu::DevField<F> to_dev(const F& x) {
  gpu::DevField<F> d;
  static_assert(sizeof(d) == sizeof(x));
  std::memcpy(&d, &x, sizeof(x));
  return d;
}
template <class F>
bool same(const gpu::DevField<F>& d, const F& x) {
  return std::memcmp(&d, &x, sizeof(x)) == 0;
}

template <class F>
std::vector<F> sample(std::mt19937_64& rng, std::size_t n) {
  std::vector<F> v = {F::zero(), F::one(), -F::one(), F::from_u64(2), -F::from_u64(2)};
  while (v.size() < n) v.push_back(F::random(rng));
  return v;
}

template <class F>
class DevFpHost : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bls12_381::Fq, ff::bn254::Fr, ff::bn254::Fq>;
TYPED_TEST_SUITE(DevFpHost, Fields);

TYPED_TEST(DevFpHost, ConstantsMatchHost) {
  using F = TypeParam;
  const auto one = gpu::DevField<F>::one();
  EXPECT_TRUE(same<F>(one, F::one()));
  using C = gpu::DevParams<F>;
  // -p^-1 mod 2^32: p * inv == -1 mod 2^32.
  EXPECT_EQ(static_cast<std::uint32_t>(C::p(0) * C::inv()), 0xffffffffu);
}

TYPED_TEST(DevFpHost, OpsMatchHost) {
  using F = TypeParam;
  std::mt19937_64 rng(0x5eed + sizeof(F));
  const auto a = sample<F>(rng, 3000), b = sample<F>(rng, 3000);
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j : {i, (i * 7 + 3) % a.size(), i % 5}) {
      const auto da = to_dev(a[i]), db = to_dev(b[j]);
      ASSERT_TRUE(same<F>(da * db, a[i] * b[j])) << "mul " << a[i] << " " << b[j];
      ASSERT_TRUE(same<F>(da + db, a[i] + b[j])) << "add " << a[i] << " " << b[j];
      ASSERT_TRUE(same<F>(da - db, a[i] - b[j])) << "sub " << a[i] << " " << b[j];
      ASSERT_TRUE(same<F>(db - da, b[j] - a[i])) << "sub " << b[j] << " " << a[i];
    }
    const auto da = to_dev(a[i]);
    ASSERT_TRUE(same<F>(da.square(), a[i].square())) << "sqr " << a[i];
    ASSERT_TRUE(same<F>(-da, -a[i])) << "neg " << a[i];
    ASSERT_TRUE(same<F>(da.dbl(), a[i].dbl())) << "dbl " << a[i];
  }
}

// Every Montgomery product variant (the one mont_mul uses and the ones gpu_mul_bench
// times) gives the host's bytes, including on the largest inputs (p - 1, p - 2).
TYPED_TEST(DevFpHost, ProductVariantsMatchHost) {
  using F = TypeParam;
  using D = gpu::DevField<F>;
  std::mt19937_64 rng(0xfeed + sizeof(F));
  const auto a = sample<F>(rng, 2000), b = sample<F>(rng, 2000);
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j : {i, (i * 11 + 5) % b.size(), i % 5}) {
      const auto da = to_dev(a[i]), db = to_dev(b[j]);
      const F want = a[i] * b[j];
      D r;
      D::mont_mul_portable(r.l, da.l, db.l);
      ASSERT_TRUE(same<F>(r, want)) << "portable " << a[i] << " " << b[j];
#if defined(CUZK_GPU_PTX_PATH)
      gpu::MontPairs<typename D::Params>::mul(r.l, da.l, db.l);
      D::reduce_once(r.l);
      ASSERT_TRUE(same<F>(r, want)) << "pairs " << a[i] << " " << b[j];
#endif
    }
  }
}

// a b + c d with one reduction (DevFp::mont_mul2, the two-lane G2 product's half), reduced,
// where it is defined (3p < 2^(32N) on the PTX path).
TYPED_TEST(DevFpHost, TwoProductSumMatchesHost) {
  using F = TypeParam;
  using D = gpu::DevField<F>;
#if defined(CUZK_GPU_PTX_PATH)
  if constexpr (!gpu::MontPairs<typename D::Params>::kMul2Fits) {
    GTEST_SKIP() << "3p >= 2^(32N)";
  } else
#endif
  {
    std::mt19937_64 rng(0xbeef + sizeof(F));
    const auto a = sample<F>(rng, 1000), b = sample<F>(rng, 1000);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::size_t j = (i * 7 + 3) % a.size(), k = (i * 13 + 1) % a.size();
      D r;
      D::mont_mul2(r.l, to_dev(a[i]).l, to_dev(b[i]).l, to_dev(a[j]).l, to_dev(b[k]).l);
      ASSERT_TRUE(same<F>(r, a[i] * b[i] + a[j] * b[k])) << a[i] << " " << b[i] << " " << a[j] << " " << b[k];
    }
  }
}

}  // namespace
