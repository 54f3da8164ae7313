// Properties of the optimal ate pairing on random inputs, for both curves: non-degeneracy,
// order r, bilinearity, infinity handling, multi-Miller-loop consistency, pairing_check.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "engines.hpp"

namespace {
using namespace cuzk;

template <class E>
class PairingTest : public ::testing::Test {
 public:
  using G1C = typename E::G1Curve;
  using G2C = typename E::G2Curve;
  using G1A = ec::Affine<G1C>;
  using G2A = ec::Affine<G2C>;
  using G1J = ec::Jacobian<G1C>;
  using G2J = ec::Jacobian<G2C>;
  using Fr = typename G1C::Scalar;
  using Gt = typename E::Fq12;
  using Ops = ec::PairingOps<E>;
  static G1A g1(const Fr& k) { return (G1J::generator() * k).to_affine(); }
  static G2A g2(const Fr& k) { return (G2J::generator() * k).to_affine(); }
};
TYPED_TEST_SUITE(PairingTest, test::Engines);

TYPED_TEST(PairingTest, NonDegenerateOfOrderR) {
  using T = TestFixture;
  auto e = ec::pairing(T::G1C::generator(), T::G2C::generator());
  EXPECT_FALSE(e.is_one());
  EXPECT_TRUE(e.pow(T::Fr::kModulus).is_one());
  // in the cyclotomic subgroup: e^(p^4 - p^2 + 1) == 1 follows from order r; unitary:
  EXPECT_TRUE((e * e.conjugate()).is_one());
}

TYPED_TEST(PairingTest, Bilinearity) {
  using T = TestFixture;
  using Fr = typename T::Fr;
  std::mt19937_64 g(11);
  auto e = ec::pairing(T::G1C::generator(), T::G2C::generator());
  for (int i = 0; i < 3; ++i) {
    Fr a = Fr::random(g), b = Fr::random(g);
    EXPECT_EQ(ec::pairing(T::g1(a), T::g2(b)), e.pow((a * b).to_canonical()));
    EXPECT_EQ(ec::pairing(T::g1(a * b), T::g2(Fr::one())), ec::pairing(T::g1(a), T::g2(b)));
    // additivity in each argument
    auto P1 = T::g1(a), P2 = T::g1(b);
    auto Q = T::g2(Fr::random(g));
    auto P12 = (T::G1J::from_affine(P1) + T::G1J::from_affine(P2)).to_affine();
    EXPECT_EQ(ec::pairing(P12, Q), ec::pairing(P1, Q) * ec::pairing(P2, Q));
    auto Q1 = T::g2(a), Q2 = T::g2(b);
    auto Q12 = (T::G2J::from_affine(Q1) + T::G2J::from_affine(Q2)).to_affine();
    EXPECT_EQ(ec::pairing(P1, Q12), ec::pairing(P1, Q1) * ec::pairing(P1, Q2));
    // negation
    EXPECT_EQ(ec::pairing(-P1, Q), ec::pairing(P1, Q).conjugate());
    EXPECT_EQ(ec::pairing(P1, -Q), ec::pairing(P1, Q).inverse());
  }
}

TYPED_TEST(PairingTest, InfinityContributesOne) {
  using T = TestFixture;
  using Fr = typename T::Fr;
  std::mt19937_64 g(12);
  auto P = T::g1(Fr::random(g));
  auto Q = T::g2(Fr::random(g));
  EXPECT_TRUE(ec::pairing(T::G1A::infinity(), Q).is_one());
  EXPECT_TRUE(ec::pairing(P, T::G2A::infinity()).is_one());
  std::vector<typename T::Ops::Pair> pairs{{P, Q}, {T::G1A::infinity(), Q}, {P, T::G2A::infinity()}};
  EXPECT_EQ(T::Ops::final_exponentiation(ec::multi_miller_loop(pairs)), ec::pairing(P, Q));
  std::vector<typename T::Ops::Pair> none;
  EXPECT_TRUE(ec::multi_miller_loop(none).is_one());
  EXPECT_TRUE(ec::pairing_check(none));
}

TYPED_TEST(PairingTest, MultiMillerLoopIsProduct) {
  using T = TestFixture;
  using Fr = typename T::Fr;
  std::mt19937_64 g(13);
  std::array<typename T::Ops::Pair, 3> pairs;
  typename T::Gt prod = T::Gt::one();
  for (auto& pr : pairs) {
    pr = {T::g1(Fr::random(g)), T::g2(Fr::random(g))};
    prod *= ec::pairing(pr.first, pr.second);
  }
  EXPECT_EQ(T::Ops::final_exponentiation(ec::multi_miller_loop(pairs)), prod);
  EXPECT_EQ(T::Ops::final_exponentiation(ec::miller_loop(pairs[0].first, pairs[0].second)),
            ec::pairing(pairs[0].first, pairs[0].second));
}

TYPED_TEST(PairingTest, PairingCheck) {
  using T = TestFixture;
  using Fr = typename T::Fr;
  std::mt19937_64 g(14);
  for (int i = 0; i < 2; ++i) {
    Fr a = Fr::random(g), b = Fr::random(g);
    std::vector<typename T::Ops::Pair> ok{{T::g1(a), T::g2(b)}, {T::g1(-(a * b)), T::G2C::generator()}};
    EXPECT_TRUE(ec::pairing_check(ok));
    auto bad = ok;
    bad[1].first = T::g1(-(a * b) + Fr::one());
    EXPECT_FALSE(ec::pairing_check(bad));
    bad = ok;
    bad[0].second = T::g2(b + Fr::one());
    EXPECT_FALSE(ec::pairing_check(bad));
    // Groth16 shape: e(A,B) = e(alpha,beta) e(L,gamma) e(C,delta) as a 4-term check
    Fr al = Fr::random(g), be = Fr::random(g), ga = Fr::random(g), de = Fr::random(g), l = Fr::random(g),
       c = Fr::random(g), A = Fr::random(g);
    Fr B = (al * be + l * ga + c * de) * A.inverse();
    std::vector<typename T::Ops::Pair> groth{
        {-T::g1(A), T::g2(B)}, {T::g1(al), T::g2(be)}, {T::g1(l), T::g2(ga)}, {T::g1(c), T::g2(de)}};
    EXPECT_TRUE(ec::pairing_check(groth));
    groth[3].first = T::g1(c + Fr::one());
    EXPECT_FALSE(ec::pairing_check(groth));
  }
}

// The twist constant is b*xi (M-type) or b/xi (D-type), as the untwisting maps in
// pairing_miller.hpp assume.
TYPED_TEST(PairingTest, TwistMatchesCurves) {
  using T = TestFixture;
  using F2 = typename T::G2C::Base;
  F2 b(T::G1C::b());
  F2 xi = F2::nonresidue();
  if constexpr (TypeParam::kTwist == ec::Twist::M) EXPECT_EQ(T::G2C::b(), b * xi);
  else EXPECT_EQ(T::G2C::b(), b * xi.inverse());
}

// For the D-type (BN) twist, the transported Frobenius acts on G2 as multiplication by p.
TYPED_TEST(PairingTest, TwistFrobeniusIsMultiplicationByP) {
  using T = TestFixture;
  using Fr = typename T::Fr;
  if constexpr (TypeParam::kTwist == ec::Twist::D) {
    std::mt19937_64 g(15);
    auto Q = T::g2(Fr::random(g));
    auto [x1, y1] = ec::pairing_detail::twist_frobenius<TypeParam>(Q.x, Q.y, 1);
    auto [x2, y2] = ec::pairing_detail::twist_frobenius<TypeParam>(Q.x, Q.y, 2);
    auto pq = (T::G2J::from_affine(Q).mul(T::G1C::Base::kModulus)).to_affine();
    EXPECT_EQ((typename T::G2A{x1, y1}), pq);
    auto ppq = (T::G2J::from_affine(pq).mul(T::G1C::Base::kModulus)).to_affine();
    EXPECT_EQ((typename T::G2A{x2, y2}), ppq);
  } else {
    GTEST_SUCCEED() << "M-type twist: not used by the Miller loop";
  }
}

}  // namespace

namespace {
TYPED_TEST(PairingTest, PreparedMatchesDirect) {
  using T = TestFixture;
  using Fr = typename T::Fr;
  using Prep = typename T::Ops::G2Prepared;
  std::mt19937_64 g(16);
  std::vector<typename T::G1A> ps;
  std::vector<Prep> preps;
  std::vector<typename T::Ops::Pair> pairs;
  for (int i = 0; i < 3; ++i) {
    auto P = T::g1(Fr::random(g));
    auto Q = T::g2(Fr::random(g));
    ps.push_back(P);
    preps.emplace_back(Q);
    pairs.emplace_back(P, Q);
  }
  // an infinity on each side
  ps.push_back(T::G1A::infinity());
  preps.emplace_back(T::G2C::generator());
  ps.push_back(T::G1C::generator());
  preps.emplace_back(T::G2A::infinity());
  EXPECT_TRUE(preps.back().is_infinity());
  std::vector<const Prep*> qs;
  for (const auto& p : preps) qs.push_back(&p);
  EXPECT_EQ(T::Ops::multi_miller_loop_prepared(ps, qs), ec::multi_miller_loop(pairs));
  // pairing_check with prepared points
  Fr a = Fr::random(g), b = Fr::random(g);
  Prep bq(T::g2(b)), gen(T::G2C::generator());
  std::vector<typename T::G1A> cps{T::g1(a), T::g1(-(a * b))};
  std::vector<const Prep*> cqs{&bq, &gen};
  EXPECT_TRUE(T::Ops::pairing_check_prepared(cps, cqs));
  cps[0] = T::g1(a + Fr::one());
  EXPECT_FALSE(T::Ops::pairing_check_prepared(cps, cqs));
  cqs.pop_back();
  EXPECT_THROW(T::Ops::multi_miller_loop_prepared(cps, cqs), std::invalid_argument);
}
}  // namespace
