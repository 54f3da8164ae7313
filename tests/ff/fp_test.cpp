// Property tests of the prime fields (the oracle comparison lives in fp_oracle_test.cpp).
#include <gtest/gtest.h>

#include <random>

#include "cuzk/ff/fields.hpp"

namespace {
using namespace cuzk::ff;

template <class F>
class FpTest : public ::testing::Test {};
using Fields = ::testing::Types<bls12_381::Fq, bls12_381::Fr, bn254::Fq, bn254::Fr>;
TYPED_TEST_SUITE(FpTest, Fields);

TYPED_TEST(FpTest, RingAxioms) {
  using F = TypeParam;
  std::mt19937_64 g(42);
  for (int i = 0; i < 200; ++i) {
    F a = F::random(g), b = F::random(g), c = F::random(g);
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ(a - a, F::zero());
    EXPECT_EQ(a + (-a), F::zero());
    EXPECT_EQ(a * F::one(), a);
    EXPECT_EQ(a.square(), a * a);
  }
}

TYPED_TEST(FpTest, InverseSqrtLegendre) {
  using F = TypeParam;
  std::mt19937_64 g(7);
  EXPECT_EQ(F::zero().inverse(), F::zero());
  for (int i = 0; i < 50; ++i) {
    F a = F::random(g);
    if (a.is_zero()) continue;
    EXPECT_EQ(a * a.inverse(), F::one());
    F sq = a.square();
    EXPECT_EQ(sq.legendre(), 1);
    auto r = sq.sqrt();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->square(), sq);
    F n = sq * F::nonresidue();
    EXPECT_EQ(n.legendre(), -1);
    EXPECT_FALSE(n.sqrt().has_value());
  }
}

TYPED_TEST(FpTest, BatchInverseMatchesSingle) {
  using F = TypeParam;
  std::mt19937_64 g(9);
  std::vector<F> xs(37);
  for (auto& x : xs) x = F::random(g);
  xs[5] = F::zero();
  std::vector<F> ys = xs;
  batch_inverse(std::span<F>(ys));
  for (std::size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(ys[i], xs[i].inverse());
}

TYPED_TEST(FpTest, RootsOfUnity) {
  using F = TypeParam;
  for (std::size_t k = 1; k <= F::kTwoAdicity; ++k) {
    F w = F::root_of_unity(k);
    F h = w;
    for (std::size_t i = 1; i < k; ++i) h = h.square();
    EXPECT_EQ(h, -F::one()) << "w_" << k << " is not primitive";
  }
  EXPECT_THROW(F::root_of_unity(F::kTwoAdicity + 1), std::out_of_range);
}

TYPED_TEST(FpTest, EncodingsRoundTripAndRejectNonCanonical) {
  using F = TypeParam;
  std::mt19937_64 g(3);
  for (int i = 0; i < 50; ++i) {
    F a = F::random(g);
    EXPECT_EQ(F::from_bytes_le(a.to_bytes_le()), a);
    EXPECT_EQ(F::from_bytes_be(a.to_bytes_be()), a);
    EXPECT_EQ(F::from_string(a.to_decimal()), a);
    EXPECT_EQ(F::from_string(a.to_hex()), a);
  }
  // p itself is not canonical
  std::array<std::uint8_t, F::kBytes> p{};
  for (std::size_t i = 0; i < F::kBytes; ++i) p[i] = static_cast<std::uint8_t>(F::kModulus[i / 8] >> (8 * (i % 8)));
  EXPECT_THROW(F::from_bytes_le(p), cuzk::DecodeError);
  std::vector<std::uint8_t> short_buf(F::kBytes - 1);
  EXPECT_THROW(F::from_bytes_le(short_buf), cuzk::DecodeError);
  EXPECT_THROW(F::from_string("12x"), std::invalid_argument);
}

}  // namespace
