// Property tests of the group law, the three representations, scalar multiplication and
// subgroup checks, for all four groups (the noble comparison lives in oracle_test.cpp).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ec_test_util.hpp"

namespace {
using namespace cuzk::ec;
using namespace cuzk::ec::test;
using cuzk::ff::Limbs;

template <class C>
class PointTest : public ::testing::Test {};
TYPED_TEST_SUITE(PointTest, AllCurves, CurveNames);

TYPED_TEST(PointTest, GeneratorIsValid) {
  using C = TypeParam;
  const auto g = Jacobian<C>::generator();
  EXPECT_TRUE(g.is_on_curve());
  EXPECT_TRUE(C::generator().is_on_curve());
  EXPECT_FALSE(g.is_infinity());
  EXPECT_TRUE(in_subgroup_slow(g));
  EXPECT_TRUE(g.is_in_subgroup());
  EXPECT_TRUE(Affine<C>::infinity().is_on_curve());
  EXPECT_TRUE(Affine<C>::infinity().is_infinity());
  EXPECT_FALSE(C::generator().is_infinity());
}

TYPED_TEST(PointTest, GroupLaws) {
  using C = TypeParam;
  using J = Jacobian<C>;
  std::mt19937_64 g(1);
  const J O = J::infinity();
  for (int i = 0; i < 6; ++i) {
    J a = random_point<C>(g), b = random_point<C>(g), c = random_point<C>(g);
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ(a + O, a);
    EXPECT_EQ(O + a, a);
    EXPECT_TRUE((a + (-a)).is_infinity());
    EXPECT_TRUE((a - a).is_infinity());
    EXPECT_EQ(a + a, a.dbl());
    EXPECT_EQ((a + b) - b, a);
    EXPECT_TRUE((a + b).is_on_curve());
    EXPECT_TRUE(a.dbl().is_on_curve());
    EXPECT_NE(a, b);
    EXPECT_NE(a, O);
    EXPECT_NE(O, a);
  }
  EXPECT_TRUE(O.dbl().is_infinity());
  EXPECT_TRUE((O + O).is_infinity());
  EXPECT_EQ(O, -O);
  EXPECT_TRUE(J{}.is_infinity());  // default-constructed points are infinity
  EXPECT_TRUE(Affine<C>{}.is_infinity());
  EXPECT_TRUE(Xyzz<C>{}.is_infinity());
}

TYPED_TEST(PointTest, ProjectiveEqualityIgnoresScaling) {
  using C = TypeParam;
  using J = Jacobian<C>;
  using Base = typename C::Base;
  std::mt19937_64 g(2);
  J a = random_point<C>(g);
  Base l = Base::random(g);
  J scaled{a.X * l.square(), a.Y * l.square() * l, a.Z * l};
  EXPECT_EQ(a, scaled);
  EXPECT_EQ(a.to_affine(), scaled.to_affine());
  J wrong{a.X * l.square(), -(a.Y * l.square() * l), a.Z * l};
  EXPECT_NE(a, wrong);
}

TYPED_TEST(PointTest, MixedAddMatchesAdd) {
  using C = TypeParam;
  using J = Jacobian<C>;
  using A = Affine<C>;
  std::mt19937_64 g(3);
  for (int i = 0; i < 6; ++i) {
    J a = random_point<C>(g);
    A b = random_point<C>(g).to_affine();
    EXPECT_EQ(a.add_mixed(b), a + J::from_affine(b));
    EXPECT_EQ(a.sub_mixed(b), a - J::from_affine(b));
  }
  // Edge cases: P + P, P + (-P), infinity on either side.
  J a = random_point<C>(g);
  A aa = a.to_affine();
  EXPECT_EQ(a.add_mixed(aa), a.dbl());
  EXPECT_TRUE(a.add_mixed(-aa).is_infinity());
  EXPECT_EQ(a.add_mixed(A::infinity()), a);
  EXPECT_EQ(J::infinity().add_mixed(aa), a);
  EXPECT_TRUE(J::infinity().add_mixed(A::infinity()).is_infinity());
}

TYPED_TEST(PointTest, XyzzAgreesWithJacobian) {
  using C = TypeParam;
  using J = Jacobian<C>;
  using X = Xyzz<C>;
  using A = Affine<C>;
  std::mt19937_64 g(4);
  for (int i = 0; i < 5; ++i) {
    J a = random_point<C>(g), b = random_point<C>(g);
    A bb = b.to_affine();
    X xa = X::from_jacobian(a), xb = X::from_affine(bb);
    EXPECT_EQ((xa + xb).to_jacobian(), a + b);
    EXPECT_EQ(xa.add_mixed(bb).to_jacobian(), a + b);
    EXPECT_EQ(xa.sub_mixed(bb).to_affine(), (a - b).to_affine());
    EXPECT_EQ(xa.dbl().to_affine(), a.dbl().to_affine());
    EXPECT_EQ(X::dbl_affine(bb).to_jacobian(), b.dbl());
    EXPECT_EQ(xa + xb, X::from_jacobian(a + b));
    EXPECT_EQ(X::from_jacobian(a).to_affine(), a.to_affine());
  }
  J a = random_point<C>(g);
  A aa = a.to_affine();
  X xa = X::from_jacobian(a);
  EXPECT_EQ(xa.add_mixed(aa).to_jacobian(), a.dbl());  // P + P through the mixed path
  EXPECT_EQ((xa + xa).to_jacobian(), a.dbl());
  EXPECT_TRUE(xa.add_mixed(-aa).is_infinity());
  EXPECT_TRUE((xa + (-xa)).is_infinity());
  EXPECT_EQ(X::infinity().add_mixed(aa), xa);
  EXPECT_EQ(xa.add_mixed(A::infinity()), xa);
  EXPECT_EQ(X::infinity() + xa, xa);
  EXPECT_TRUE(X::infinity().dbl().is_infinity());
  EXPECT_TRUE(X::dbl_affine(A::infinity()).is_infinity());
  EXPECT_EQ(X::infinity().to_affine(), A::infinity());
  EXPECT_TRUE(X::infinity().to_jacobian().is_infinity());
}

TYPED_TEST(PointTest, ScalarMulLinearityAndOrder) {
  using C = TypeParam;
  using J = Jacobian<C>;
  using S = typename C::Scalar;
  std::mt19937_64 g(5);
  J P = random_point<C>(g);
  for (int i = 0; i < 4; ++i) {
    S a = S::random(g), b = S::random(g);
    EXPECT_EQ(P * (a + b), P * a + P * b);
    EXPECT_EQ(P * (a * b), (P * a) * b);
    EXPECT_EQ(P * a, P.mul_double_and_add(a.to_canonical()));
  }
  EXPECT_TRUE((P * S::zero()).is_infinity());
  EXPECT_EQ(P * S::one(), P);
  EXPECT_EQ(P * S::from_u64(2), P.dbl());
  EXPECT_EQ(P * (-S::one()), -P);
  EXPECT_TRUE(P.mul(S::kModulus).is_infinity());
  EXPECT_TRUE(J::infinity().mul(Limbs<1>{12345}).is_infinity());
  // Small scalars against repeated addition; wide scalars against double-and-add.
  J acc = J::infinity();
  for (unsigned k = 0; k < 40; ++k) {
    EXPECT_EQ(P.mul(k), acc) << k;
    acc += P;
  }
  Limbs<8> wide;
  for (auto& w : wide) w = g();
  EXPECT_EQ(P.mul(wide), P.mul_double_and_add(wide));
  wide.fill(~0ull);
  EXPECT_EQ(P.mul(wide), P.mul_double_and_add(wide));
}

TYPED_TEST(PointTest, BatchToAffine) {
  using C = TypeParam;
  using J = Jacobian<C>;
  std::mt19937_64 g(6);
  std::vector<J> ps;
  for (int i = 0; i < 9; ++i) ps.push_back(random_point<C>(g));
  ps[3] = J::infinity();
  ps.push_back(J::infinity());
  std::vector<Affine<C>> out(ps.size());
  batch_to_affine(std::span<const J>(ps), std::span<Affine<C>>(out));
  std::vector<Xyzz<C>> xs;
  for (const auto& p : ps) xs.push_back(Xyzz<C>::from_jacobian(p));
  std::vector<Affine<C>> out2(ps.size());
  batch_to_affine(std::span<const Xyzz<C>>(xs), std::span<Affine<C>>(out2));
  for (std::size_t i = 0; i < ps.size(); ++i) {
    EXPECT_EQ(out[i], ps[i].to_affine()) << i;
    EXPECT_EQ(out2[i], ps[i].to_affine()) << i;
  }
  EXPECT_THROW(batch_to_affine(std::span<const J>(ps), std::span<Affine<C>>(out).subspan(1)), std::invalid_argument);
}

TYPED_TEST(PointTest, SubgroupChecks) {
  using C = TypeParam;
  using J = Jacobian<C>;
  std::mt19937_64 g(7);
  int outside = 0;
  for (int i = 0; i < 4; ++i) {
    Affine<C> q = random_curve_point<C>(g);
    ASSERT_TRUE(q.is_on_curve());
    J p = J::from_affine(q);
    const bool slow = in_subgroup_slow(p);
    EXPECT_EQ(p.is_in_subgroup(), slow);  // the fast test agrees with r * P == 0
    if (!slow) ++outside;
    if constexpr (kHasCofactor<C>) {
      J cleared = clear_cofactor(p);
      EXPECT_TRUE(in_subgroup_slow(cleared));
      EXPECT_TRUE(cleared.is_in_subgroup());
      // Cleared point plus a non-subgroup point stays outside.
      if (!slow) {
        EXPECT_FALSE((cleared + p).is_in_subgroup());
      }
    } else {
      EXPECT_TRUE(slow);  // cofactor 1: the whole curve is the subgroup
    }
    J s = random_point<C>(g);
    EXPECT_TRUE(s.is_in_subgroup());
    EXPECT_EQ(in_subgroup_slow(s), true);
  }
  if constexpr (kHasCofactor<C>) {
    EXPECT_EQ(outside, 4);  // a random curve point is outside w.h.p.
  }
  // Off-curve points are never "in the subgroup".
  Affine<C> bad{C::generator().x, C::generator().y + C::Base::one()};
  EXPECT_FALSE(bad.is_on_curve());
  EXPECT_FALSE(bad.is_in_subgroup());
  EXPECT_FALSE(in_subgroup_slow(J::from_affine(bad)));
  EXPECT_TRUE(J::infinity().is_in_subgroup());
}

// The endomorphisms behind the fast subgroup tests act on the subgroup as the expected scalars.
TEST(Endomorphism, Bls12381Psi) {
  using namespace bls12_381;
  const G2 g = G2::generator();
  EXPECT_EQ(psi(g), -g.mul(detail::kBlsZAbs));  // psi = [z], z = -0xd201000000010000
  EXPECT_TRUE(psi(g).is_on_curve());
  const G1 sigma{g1_beta() * G1::generator().X, G1::generator().Y, G1::generator().Z};
  EXPECT_EQ(sigma, -G1::generator().mul(detail::kBlsZAbs).mul(detail::kBlsZAbs));
  EXPECT_TRUE((g1_beta().square() * g1_beta()).is_one());
  EXPECT_FALSE(g1_beta().is_one());
}

TEST(Endomorphism, Bn254Psi) {
  using namespace bn254;
  const G2 g = G2::generator();
  // psi acts as multiplication by p (mod r) on G2.
  EXPECT_EQ(psi(g), g.mul(Fq::kModulus));
  EXPECT_TRUE(psi(g).is_on_curve());
}

}  // namespace
