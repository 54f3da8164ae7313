// Property tests of the extension towers Fq2, Fq6, Fq12 of BLS12-381 and BN254
// (the comparison with @noble/curves lives in tests/pairing/tower_oracle_test.cpp).
// Frobenius maps are checked against the definition x -> x^p (generic exponentiation).
#include <gtest/gtest.h>

#include <random>

#include "cuzk/ff/towers.hpp"

namespace {
using namespace cuzk::ff;

template <class Cfg>
class TowerTest : public ::testing::Test {
 public:
  using Base = typename Cfg::Base;
  using F2 = Fp2<Cfg>;
  using F6 = Fp6<Cfg>;
  using F12 = Fp12<Cfg>;
};
using Configs = ::testing::Types<params::Bls12_381Tower, params::Bn254Tower>;
TYPED_TEST_SUITE(TowerTest, Configs);

template <class F, class Rng>
void check_field_axioms(Rng& g, int n) {
  for (int i = 0; i < n; ++i) {
    F a = F::random(g), b = F::random(g), c = F::random(g);
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ(a - b, a + (-b));
    EXPECT_TRUE((a - a).is_zero());
    EXPECT_EQ(a * F::one(), a);
    EXPECT_TRUE((a * F::zero()).is_zero());
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a.dbl(), a + a);
    if (!a.is_zero()) {
      EXPECT_TRUE((a * a.inverse()).is_one());
      EXPECT_EQ((a * b) * a.inverse(), b);
    }
  }
  EXPECT_TRUE(F::zero().inverse().is_zero());
  EXPECT_TRUE(F::one().is_one());
}

// x^p by generic square-and-multiply (the definition the Frobenius maps must match).
template <class F>
F pow_p(const F& x) {
  return x.pow(F::Base::kModulus);
}

TYPED_TEST(TowerTest, Fq2FieldAxioms) {
  std::mt19937_64 g(1);
  check_field_axioms<typename TestFixture::F2>(g, 100);
}
TYPED_TEST(TowerTest, Fq6FieldAxioms) {
  std::mt19937_64 g(2);
  check_field_axioms<typename TestFixture::F6>(g, 40);
}
TYPED_TEST(TowerTest, Fq12FieldAxioms) {
  std::mt19937_64 g(3);
  check_field_axioms<typename TestFixture::F12>(g, 20);
}

TYPED_TEST(TowerTest, Fq2Structure) {
  using F2 = typename TestFixture::F2;
  using Base = typename TestFixture::Base;
  std::mt19937_64 g(4);
  F2 u(Base::zero(), Base::one());
  EXPECT_EQ(u.square(), -F2::one());  // u^2 = -1
  F2 xi = F2::nonresidue();
  EXPECT_EQ(xi, F2(Base::from_u64(TypeParam::kXi0), Base::from_u64(TypeParam::kXi1)));
  // xi must be neither a square nor a cube in Fq2 (so v^3 - xi and w^6 - xi are irreducible):
  // xi^((p^2-1)/2) = N(xi)^((p-1)/2) and xi^((p^2-1)/3) = (xi^((p-1)/3))^(p+1).
  auto pm1 = Base::kModulus;
  pm1[0] -= 1;
  EXPECT_EQ(xi.legendre(), -1);
  EXPECT_FALSE(xi.sqrt().has_value());
  F2 c = xi.pow(detail::div_exact_small(pm1, 3));
  EXPECT_FALSE((c.frobenius_map(1) * c).is_one());
  for (int i = 0; i < 50; ++i) {
    F2 a = F2::random(g), b = F2::random(g);
    EXPECT_EQ(a.mul_by_nonresidue(), a * xi);
    EXPECT_EQ(a.mul_by_base(b.c0), a * F2(b.c0));
    EXPECT_EQ(a.conjugate(), F2(a.c0, -a.c1));
    EXPECT_EQ(a.frobenius_map(1), pow_p(a));
    EXPECT_EQ(a.frobenius_map(2), a);
    EXPECT_EQ(F2(a.norm()), a * a.conjugate());
    EXPECT_EQ(a.pow(u64{5}), a * a * a * a * a);
    F2 sq = a.square();
    auto r = sq.sqrt();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->square(), sq);
    EXPECT_EQ(sq.legendre(), a.is_zero() ? 0 : 1);
    F2 ns = sq * xi;
    EXPECT_EQ(ns.legendre(), -1);
    EXPECT_FALSE(ns.sqrt().has_value());
    // lexicographic order (zcash): exactly one of a, -a is "largest" for a != 0
    if (!a.is_zero()) {
      EXPECT_NE(a.is_lexicographically_largest(), (-a).is_lexicographically_largest());
    }
  }
  // elements of the base field and pure-imaginary ones have roots
  for (int i = 0; i < 20; ++i) {
    F2 a(Base::random(g), Base::zero());
    auto r = a.sqrt();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->square(), a);
    F2 b(Base::zero(), Base::random(g));
    auto s = b.sqrt();
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->square(), b);
  }
  EXPECT_EQ(*F2::zero().sqrt(), F2::zero());
  EXPECT_FALSE(F2::zero().is_lexicographically_largest());
}

TYPED_TEST(TowerTest, Fq6StructureAndSparse) {
  using F2 = typename TestFixture::F2;
  using F6 = typename TestFixture::F6;
  std::mt19937_64 g(5);
  F6 v(F2::zero(), F2::one(), F2::zero());
  EXPECT_EQ(v * v * v, F6(F2::nonresidue()));  // v^3 = xi
  for (int i = 0; i < 20; ++i) {
    F6 a = F6::random(g);
    F2 b0 = F2::random(g), b1 = F2::random(g);
    EXPECT_EQ(a.mul_by_nonresidue(), a * v);
    EXPECT_EQ(a.mul_by_fp2(b0), a * F6(b0));
    EXPECT_EQ(a.mul_by_1(b1), a * F6(F2::zero(), b1, F2::zero()));
    EXPECT_EQ(a.mul_by_01(b0, b1), a * F6(b0, b1, F2::zero()));
  }
}

TYPED_TEST(TowerTest, Fq6FrobeniusIsPowerP) {
  using F6 = typename TestFixture::F6;
  std::mt19937_64 g(6);
  for (int i = 0; i < 5; ++i) {
    F6 a = F6::random(g);
    F6 ap = pow_p(a);
    EXPECT_EQ(a.frobenius_map(1), ap);
    F6 it = a;
    for (std::size_t k = 1; k <= 6; ++k) {
      it = it.frobenius_map(1);
      EXPECT_EQ(a.frobenius_map(k), it) << "k=" << k;
    }
    EXPECT_EQ(it, a);  // x^(p^6) = x
  }
}

TYPED_TEST(TowerTest, Fq12StructureAndSparse) {
  using F2 = typename TestFixture::F2;
  using F6 = typename TestFixture::F6;
  using F12 = typename TestFixture::F12;
  std::mt19937_64 g(7);
  F12 w(F6::zero(), F6::one());
  F6 v(F2::zero(), F2::one(), F2::zero());
  EXPECT_EQ(w.square(), F12(v));  // w^2 = v
  for (int i = 0; i < 20; ++i) {
    F12 a = F12::random(g);
    F2 o0 = F2::random(g), o1 = F2::random(g), o3 = F2::random(g), o4 = F2::random(g);
    F12 s014(F6(o0, o1, F2::zero()), F6(F2::zero(), o4, F2::zero()));
    F12 s034(F6(o0, F2::zero(), F2::zero()), F6(o3, o4, F2::zero()));
    EXPECT_EQ(a.mul_by_014(o0, o1, o4), a * s014);
    EXPECT_EQ(a.mul_by_034(o0, o3, o4), a * s034);
    EXPECT_EQ(a.conjugate(), a.frobenius_map(6));
  }
}

TYPED_TEST(TowerTest, Fq12FrobeniusIsPowerP) {
  using F12 = typename TestFixture::F12;
  std::mt19937_64 g(8);
  for (int i = 0; i < 3; ++i) {
    F12 a = F12::random(g);
    EXPECT_EQ(a.frobenius_map(1), pow_p(a));
    F12 it = a;
    for (std::size_t k = 1; k <= 12; ++k) {
      it = it.frobenius_map(1);
      EXPECT_EQ(a.frobenius_map(k), it) << "k=" << k;
    }
    EXPECT_EQ(it, a);  // x^(p^12) = x
  }
}

TYPED_TEST(TowerTest, CyclotomicSquareAndPow) {
  using F12 = typename TestFixture::F12;
  std::mt19937_64 g(9);
  for (int i = 0; i < 10; ++i) {
    F12 f = F12::random(g);
    // map into the cyclotomic subgroup: f^((p^6-1)(p^2+1))
    F12 t = f.conjugate() * f.inverse();
    t = t.frobenius_map(2) * t;
    EXPECT_TRUE((t * t.conjugate()).is_one());  // unitary: inverse == conjugate
    EXPECT_EQ(t.cyclotomic_square(), t.square());
    u64 e = g();
    EXPECT_EQ(t.cyclotomic_pow(e), t.pow(e));
    EXPECT_TRUE(t.cyclotomic_pow(0).is_one());
    EXPECT_EQ(t.cyclotomic_pow(1), t);
  }
}

}  // namespace
