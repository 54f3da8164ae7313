// Batch-affine bucket accumulation (batch_affine.hpp): the accumulator alone against
// XYZZ reference buckets under heavy collisions, doublings and cancellations, and whole
// MSMs whose windows take the batch-affine path with degenerate digit distributions.
#include <gtest/gtest.h>

#include "cuzk/msm/batch_affine.hpp"
#include "msm_test_util.hpp"

namespace cuzk::msm::test {
namespace {

template <class C>
class BatchAffineTest : public ::testing::Test {};
using Curves = ::testing::Types<ec::bls12_381::G1Curve, ec::bls12_381::G2Curve, ec::bn254::G1Curve, ec::bn254::G2Curve>;
TYPED_TEST_SUITE(BatchAffineTest, Curves, CurveNames);

template <class C>
constexpr bool kIsG2 = requires { typename C::Base::Base; };

// Random additions into a few buckets of a larger array (collisions, queue overflow),
// from a few base points and their negatives (doublings P + P, cancellations P + -P).
TYPED_TEST(BatchAffineTest, AccumulatorMatchesXyzzBuckets) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(11);
  auto base = random_points<C>(4, g);
  const std::size_t nbuckets = 1024;
  for (std::size_t hot : {std::size_t{1}, std::size_t{3}, std::size_t{40}, std::size_t{1024}}) {
    SCOPED_TRACE("buckets hit: " + std::to_string(hot));
    detail::BatchAffineBuckets<C> acc(nbuckets);
    std::vector<ec::Xyzz<C>> want(nbuckets, ec::Xyzz<C>::infinity());
    for (int round = 0; round < 2; ++round) {  // the accumulator is reused after reduce()
      acc.begin(nbuckets);
      const std::size_t n = kIsG2<C> ? 700 : 3000;
      for (std::size_t i = 0; i < n; ++i) {
        const auto b = static_cast<std::uint32_t>(g() % hot);
        const auto* p = &base[g() % base.size()];
        const bool neg = g() % 2;
        acc.add(b, p, neg);
        want[b] = want[b].add_mixed(neg ? -*p : *p);
      }
      acc.finish();
      auto got = acc.reduce([](const ec::Xyzz<C>& p, std::size_t k) {
        return ec::Xyzz<C>::from_jacobian(p.to_jacobian().mul(static_cast<std::uint64_t>(k)));
      });
      Jacobian<C> ref = Jacobian<C>::infinity();
      for (std::size_t j = 0; j < nbuckets; ++j) {
        ref += want[j].to_jacobian() * S::from_u64(j + 1);
        want[j] = ec::Xyzz<C>::infinity();
      }
      EXPECT_TRUE(same_point(got.to_jacobian(), ref)) << "round " << round;
    }
  }
}

// Whole MSMs with window sizes that use batch-affine buckets, digit distributions that
// pile up in few buckets, repeated points, P / -P pairs and points at infinity.
TYPED_TEST(BatchAffineTest, DegenerateMsms) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(12);
  const std::size_t n = kIsG2<C> ? 600 : 2500;
  auto base = random_points<C>(5, g);
  std::vector<Affine<C>> pts(n);
  for (std::size_t i = 0; i < n; ++i) {
    pts[i] = base[g() % base.size()];
    if (g() % 2) pts[i] = -pts[i];
    if (g() % 50 == 0) pts[i] = Affine<C>::infinity();
  }
  const std::vector<S> few = {S::one(), S::from_u64(2), S::from_u64(3), -S::one(), -S::from_u64(2), S::from_u64(1000)};
  std::vector<S> s_few(n), s_same(n, S::from_u64(77)), s_rand = random_vec<S>(n, g);
  for (auto& x : s_few) x = few[g() % few.size()];
  for (const auto* s : {&s_few, &s_same, &s_rand}) {
    const auto want = naive_msm<C>(pts, *s);
    for (unsigned c : {12u, 13u}) {  // 2048 and 4096 buckets: batch-affine
      SCOPED_TRACE("c = " + std::to_string(c));
      EXPECT_TRUE(same_point(msm<C>(pts, std::span<const S>(*s), c), want));
      auto plan = plan_msm<S>(*s, {.split01 = false, .window_bits = c, .threads = 64});
      EXPECT_TRUE(same_point(msm<C>(std::span<const Affine<C>>(pts), plan), want)) << "64 slices";
    }
  }
}

// The 0/1 split sums the points with scalar 1 by batch-affine tree additions: many ones
// over repeated points, P / -P pairs and infinity (doublings and cancellations).
TYPED_TEST(BatchAffineTest, OnesSumTree) {
  using C = TypeParam;
  using S = typename C::Scalar;
  std::mt19937_64 g(13);
  auto base = random_points<C>(3, g);
  for (std::size_t n : {std::size_t{5}, std::size_t{33}, std::size_t{kIsG2<C> ? 900 : 9000}}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<Affine<C>> pts(n);
    std::vector<S> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      pts[i] = base[g() % base.size()];
      if (g() % 2) pts[i] = -pts[i];
      if (g() % 40 == 0) pts[i] = Affine<C>::infinity();
      const unsigned r = static_cast<unsigned>(g() % 100);
      s[i] = r < 85 ? S::one() : r < 95 ? S::zero() : S::random(g);
    }
    EXPECT_TRUE(same_point(msm_split01<C>(pts, std::span<const S>(s)), naive_msm<C>(pts, s)));
    std::vector<S> all_ones(n, S::one());
    Jacobian<C> sum = Jacobian<C>::infinity();
    for (const auto& p : pts) sum = sum.add_mixed(p);
    EXPECT_TRUE(same_point(msm_split01<C>(pts, std::span<const S>(all_ones)), sum));
  }
}

}  // namespace
}  // namespace cuzk::msm::test
