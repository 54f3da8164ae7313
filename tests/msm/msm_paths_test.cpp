// The 0/1 fast path, density bitmaps and msm_batch against the plain MSM and the naive
// reference.
#include <gtest/gtest.h>

#include "msm_test_util.hpp"

namespace cuzk::msm::test {
namespace {

template <class C>
class MsmPathsTest : public ::testing::Test {};
using Curves = ::testing::Types<ec::bls12_381::G1Curve, ec::bls12_381::G2Curve, ec::bn254::G1Curve, ec::bn254::G2Curve>;
TYPED_TEST_SUITE(MsmPathsTest, Curves, CurveNames);

template <class C>
constexpr bool kIsG2 = requires { typename C::Base::Base; };

template <class C>
std::size_t test_size() {
  return kIsG2<C> ? 300 : 2000;
}

TYPED_TEST(MsmPathsTest, Split01MatchesPlain) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(11);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, test_size<C>()}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto pts = random_points<C>(n, g);
    if (n > 3) pts[3] = Affine<C>::infinity();
    for (unsigned pct : {0u, 10u, 100u}) {
      auto s = boolean_mix<S>(n, g, pct);
      auto want = msm<C>(pts, std::span<const S>(s));
      if (n <= 5) {
        EXPECT_TRUE(same_point(want, naive_msm<C>(pts, s)));
      }
      EXPECT_TRUE(same_point(msm_split01<C>(pts, std::span<const S>(s)), want)) << pct << "% random";
      auto limbs = to_canonical<S>(s);
      EXPECT_TRUE(same_point(msm_split01<C>(pts, std::span<const typename S::Repr>(limbs)), want));
    }
  }
  // only ones, with repeated points and P, -P among them
  auto base = random_points<C>(2, g);
  std::vector<Affine<C>> pts = {base[0], base[0], -base[1], base[1], base[0], Affine<C>::infinity()};
  std::vector<S> ones(pts.size(), S::one());
  EXPECT_TRUE(same_point(msm_split01<C>(pts, std::span<const S>(ones)), Jacobian<C>::from_affine(base[0]) * S::from_u64(3)));
}

// A random bitmap over `positions`, with the last word carrying garbage above the end.
inline std::vector<std::uint64_t> random_bitmap(std::size_t positions, std::mt19937_64& g) {
  std::vector<std::uint64_t> bits((positions + 63) / 64);
  for (auto& w : bits) w = g() & g();  // ~25% set
  if (!bits.empty()) bits[0] |= 1;     // position 0 (the ONE wire) always present
  return bits;
}
inline bool bit(const std::vector<std::uint64_t>& b, std::size_t i) { return (b[i / 64] >> (i % 64)) & 1; }

TYPED_TEST(MsmPathsTest, DensityDensePoints) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(12);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{64}, std::size_t{65}, test_size<C>()}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto bits = random_bitmap(n, g);
    auto scalars = boolean_mix<S>(n, g);  // full assignment
    auto all = random_points<C>(n, g);
    std::vector<Affine<C>> dense;  // query points of the set bits only
    std::vector<S> sel;
    for (std::size_t i = 0; i < n; ++i)
      if (bit(bits, i)) dense.push_back(all[i]), sel.push_back(scalars[i]);
    auto want = msm<C>(dense, std::span<const S>(sel));
    if (n <= 65) {
      EXPECT_TRUE(same_point(want, naive_msm<C>(dense, sel)));
    }
    EXPECT_TRUE(same_point(msm_density<C>(dense, bits, std::span<const S>(scalars)), want));
    auto limbs = to_canonical<S>(scalars);
    EXPECT_TRUE(same_point(msm_density<C>(dense, bits, std::span<const typename S::Repr>(limbs)), want));
    // a wrong number of points is reported
    if (!dense.empty()) {
      std::span<const Affine<C>> short_pts(dense.data(), dense.size() - 1);
      EXPECT_THROW(msm_density<C>(short_pts, bits, std::span<const S>(scalars)), std::invalid_argument);
    }
  }
}

TYPED_TEST(MsmPathsTest, DensityDenseScalars) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(13);
  for (std::size_t n : {std::size_t{0}, std::size_t{3}, std::size_t{128}, test_size<C>()}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto bits = random_bitmap(n, g);
    auto pts = random_points<C>(n, g);
    std::vector<S> dense;
    std::vector<Affine<C>> sel_pts;
    for (std::size_t i = 0; i < n; ++i)
      if (bit(bits, i)) {
        dense.push_back(g() % 2 ? S::random(g) : S::one());
        sel_pts.push_back(pts[i]);
      }
    auto want = msm<C>(sel_pts, std::span<const S>(dense));
    EXPECT_TRUE(same_point(msm_density<C>(pts, bits, std::span<const S>(dense), DensityLayout::kDenseScalars), want));
    dense.push_back(S::one());
    EXPECT_THROW(msm_density<C>(pts, bits, std::span<const S>(dense), DensityLayout::kDenseScalars),
                 std::invalid_argument);
  }
  std::vector<Affine<C>> pts = random_points<C>(70, g);
  std::vector<std::uint64_t> one_word = {~0ull};
  std::vector<S> s(64, S::one());
  EXPECT_THROW(msm_density<C>(pts, one_word, std::span<const S>(s), DensityLayout::kDenseScalars), std::invalid_argument);
}

TYPED_TEST(MsmPathsTest, BatchMatchesSeparate) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(14);
  const std::size_t n = test_size<C>() / 2;
  auto a = random_points<C>(n, g), b = random_points<C>(n, g), c = random_points<C>(n, g);
  std::vector<std::span<const Affine<C>>> lists = {a, b, c};
  for (unsigned pct : {10u, 100u}) {
    auto s = boolean_mix<S>(n, g, pct);
    auto got = msm_batch<C>(lists, std::span<const S>(s));
    ASSERT_EQ(got.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(same_point(got[i], msm<C>(lists[i], std::span<const S>(s))));
    auto limbs = to_canonical<S>(s);
    auto got2 = msm_batch<C>(lists, std::span<const typename S::Repr>(limbs), {.split01 = false, .window_bits = 5});
    for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(same_point(got2[i], got[i]));
  }
  std::vector<Affine<C>> shorter(n - 1, a[0]);
  std::vector<std::span<const Affine<C>>> bad = {a, shorter};
  std::vector<S> s(n, S::one());
  EXPECT_THROW(msm_batch<C>(bad, std::span<const S>(s)), std::invalid_argument);
}

// One plan shared by G1 and G2 point lists (Groth16 B1 / B2).
TEST(MsmPlanShared, G1AndG2) {
  using G1C = ec::bn254::G1Curve;
  using G2C = ec::bn254::G2Curve;
  using S = ec::bn254::Fr;
  std::mt19937_64 g(15);
  const std::size_t n = 200;
  auto p1 = random_points<G1C>(n, g);
  auto p2 = random_points<G2C>(n, g);
  auto s = boolean_mix<S>(n, g, 20);
  auto plan = plan_msm<S>(s, {.split01 = true});
  EXPECT_TRUE(same_point(msm<G1C>(std::span<const Affine<G1C>>(p1), plan), naive_msm<G1C>(p1, s)));
  EXPECT_TRUE(same_point(msm<G2C>(std::span<const Affine<G2C>>(p2), plan), naive_msm<G2C>(p2, s)));
  // a plan for the other curve's scalar field is refused
  using BG1 = ec::bls12_381::G1Curve;
  auto pb = random_points<BG1>(n, g);
  EXPECT_THROW(msm<BG1>(std::span<const Affine<BG1>>(pb), plan), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::msm::test
