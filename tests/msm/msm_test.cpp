// Pippenger MSM against the naive reference sum_i k_i * P_i, all four groups.
#include <gtest/gtest.h>

#include "msm_test_util.hpp"

namespace cuzk::msm::test {
namespace {

template <class C>
class MsmTest : public ::testing::Test {};
using Curves = ::testing::Types<ec::bls12_381::G1Curve, ec::bls12_381::G2Curve, ec::bn254::G1Curve, ec::bn254::G2Curve>;
TYPED_TEST_SUITE(MsmTest, Curves, CurveNames);

template <class C>
constexpr bool kIsG2 = requires { typename C::Base::Base; };  // coordinates in Fp2

template <class C>
std::vector<std::size_t> sizes() {
  if constexpr (kIsG2<C>) return {0, 1, 2, 3, 7, 100, 300};
  else return {0, 1, 2, 3, 7, 100, 1000, 4097};
}

TYPED_TEST(MsmTest, RandomMatchesNaive) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(1);
  auto pts = random_points<C>(sizes<C>().back(), g);
  for (std::size_t n : sizes<C>()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::span<const Affine<C>> p(pts.data(), n);
    auto s = random_vec<S>(n, g);
    auto want = naive_msm<C>(p, s);
    EXPECT_TRUE(same_point(msm<C>(p, std::span<const S>(s)), want));
    auto limbs = to_canonical<S>(s);
    EXPECT_TRUE(same_point(msm<C>(p, std::span<const typename S::Repr>(limbs)), want));
  }
}

TYPED_TEST(MsmTest, EdgeScalars) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(2);
  const std::size_t n = 50;
  auto pts = random_points<C>(n, g);
  auto check = [&](const std::vector<S>& s, const char* what) {
    SCOPED_TRACE(what);
    EXPECT_TRUE(same_point(msm<C>(pts, std::span<const S>(s)), naive_msm<C>(pts, s)));
  };
  std::vector<S> zeros(n, S::zero()), ones(n, S::one()), minus1(n, -S::one());
  EXPECT_TRUE(msm<C>(pts, std::span<const S>(zeros)).is_infinity());
  check(ones, "all ones");
  check(minus1, "all r - 1");
  // r - 1 is -1: the MSM is minus the sum of the points
  Jacobian<C> sum = Jacobian<C>::infinity();
  for (auto& p : pts) sum = sum.add_mixed(p);
  EXPECT_TRUE(same_point(msm<C>(pts, std::span<const S>(minus1)), -sum));
  std::vector<S> mixed(n);
  for (std::size_t i = 0; i < n; ++i) mixed[i] = i % 3 == 0 ? S::zero() : i % 3 == 1 ? S::one() : -S::one();
  check(mixed, "0 / 1 / -1 mix");
  std::vector<S> small(n);
  for (std::size_t i = 0; i < n; ++i) small[i] = S::from_u64(i);
  check(small, "0..n-1");
}

// Scalars built window by window from values at the signed-digit boundaries, so that
// digits equal to 2^(c-1), 2^(c-1) +- 1, 2^c - 1 (which carries) occur everywhere.
TYPED_TEST(MsmTest, DigitBoundaries) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(3);
  const std::size_t n = kIsG2<C> ? 24 : 64;
  auto pts = random_points<C>(n, g);
  for (unsigned c : {1u, 2u, 3u, 4u, 7u, 8u, 11u, 13u, 16u}) {
    SCOPED_TRACE("c = " + std::to_string(c));
    const std::uint64_t half = std::uint64_t{1} << (c - 1), full = std::uint64_t{1} << c;
    const std::uint64_t vals[] = {0, half - 1, half, half + 1, full - 1, 1};
    std::vector<S> s(n);
    for (auto& x : s) {
      typename S::Repr k{};
      for (std::size_t pos = 0; pos + c <= 64 * k.size(); pos += c) {
        std::uint64_t v = vals[g() % 6];
        for (unsigned b = 0; b < c; ++b)
          if ((v >> b) & 1) k[(pos + b) / 64] |= std::uint64_t{1} << ((pos + b) % 64);
      }
      // keep k < 2^(bits-1) < r so that no reduction disturbs the digits
      for (std::size_t b = S::kBits - 1; b < 64 * k.size(); ++b) k[b / 64] &= ~(std::uint64_t{1} << (b % 64));
      x = S::from_canonical(k);
    }
    s[0] = -S::one();  // r - 1
    EXPECT_TRUE(same_point(msm<C>(pts, std::span<const S>(s), c), naive_msm<C>(pts, s)));
  }
}

// Repeated points, P and -P in the same bucket, points at infinity.
TYPED_TEST(MsmTest, ExceptionalBucketCases) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(4);
  auto base = random_points<C>(4, g);
  const std::size_t n = 40;
  std::vector<Affine<C>> same(n, base[0]);
  std::vector<S> k(n, S::from_u64(5));
  EXPECT_TRUE(same_point(msm<C>(same, std::span<const S>(k)), Jacobian<C>::from_affine(base[0]) * S::from_u64(5 * n)));
  auto rnd = random_vec<S>(n, g);
  EXPECT_TRUE(same_point(msm<C>(same, std::span<const S>(rnd)), naive_msm<C>(same, rnd)));

  std::vector<Affine<C>> pm;
  for (std::size_t i = 0; i < n / 2; ++i) {
    pm.push_back(base[i % 4]);
    pm.push_back(-base[i % 4]);
  }
  EXPECT_TRUE(msm<C>(pm, std::span<const S>(k)).is_infinity());
  // P, -P, P: the bucket goes through infinity and back
  std::vector<Affine<C>> pmp = {base[1], -base[1], base[1], base[1], -base[2], base[2]};
  std::vector<S> k6(pmp.size(), S::from_u64(3));
  EXPECT_TRUE(same_point(msm<C>(pmp, std::span<const S>(k6)), Jacobian<C>::from_affine(base[1]) * S::from_u64(6)));

  std::vector<Affine<C>> inf = random_points<C>(n, g);
  for (std::size_t i = 0; i < n; i += 3) inf[i] = Affine<C>::infinity();
  EXPECT_TRUE(same_point(msm<C>(inf, std::span<const S>(rnd)), naive_msm<C>(inf, rnd)));
  std::vector<Affine<C>> all_inf(n, Affine<C>::infinity());
  EXPECT_TRUE(msm<C>(all_inf, std::span<const S>(rnd)).is_infinity());
}

// Every window size gives the same result, with one and with many point slices.
TYPED_TEST(MsmTest, EveryWindowSize) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(5);
  const std::size_t n = kIsG2<C> ? 40 : 150;
  auto pts = random_points<C>(n, g);
  auto s = random_vec<S>(n, g);
  s[1] = S::one();
  s[2] = S::zero();
  auto want = naive_msm<C>(pts, s);
  const unsigned cmax = kIsG2<C> ? 12 : 16;
  for (unsigned c = 1; c <= cmax; ++c) {
    SCOPED_TRACE("c = " + std::to_string(c));
    EXPECT_TRUE(same_point(msm<C>(pts, std::span<const S>(s), c), want));
    for (std::size_t threads : {std::size_t{1}, std::size_t{64}}) {
      auto plan = plan_msm<S>(s, {.split01 = c % 2 == 0, .window_bits = c, .threads = threads});
      EXPECT_TRUE(same_point(msm<C>(std::span<const Affine<C>>(pts), plan), want)) << "threads " << threads;
    }
  }
}

TYPED_TEST(MsmTest, BadInput) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(6);
  auto pts = random_points<C>(3, g);
  std::vector<S> s2(2, S::one());
  EXPECT_THROW(msm<C>(pts, std::span<const S>(s2)), std::invalid_argument);
  EXPECT_THROW(msm_split01<C>(pts, std::span<const S>(s2)), std::invalid_argument);
  std::vector<typename S::Repr> big(3, S::kModulus);  // r itself is not reduced
  EXPECT_THROW(msm<C>(pts, std::span<const typename S::Repr>(big)), std::invalid_argument);
  std::vector<S> s3(3, S::from_u64(7));
  EXPECT_THROW(msm<C>(pts, std::span<const S>(s3), kMaxWindow + 1), std::invalid_argument);
  auto plan = plan_msm<S>(s2);
  EXPECT_THROW(msm<C>(std::span<const Affine<C>>(pts), plan), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::msm::test
