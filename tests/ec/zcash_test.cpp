// zcash encodings of BLS12-381 G1/G2: round trips and every decode error path, on valid
// encodings mutated here (noble's own vectors are checked in oracle_test.cpp).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/serialize_zcash.hpp"
#include "ec_test_util.hpp"

namespace {
using namespace cuzk::ec;
using namespace cuzk::ec::test;
using Bytes = std::vector<std::uint8_t>;

template <class C>
class ZcashTest : public ::testing::Test {};
using BlsCurves = ::testing::Types<bls12_381::G1Curve, bls12_381::G2Curve>;
TYPED_TEST_SUITE(ZcashTest, BlsCurves, CurveNames);

// Runs decode and expects a DecodeError whose message contains `needle`.
template <class C>
void expect_error(const Bytes& b, const std::string& needle, const char* what) {
  try {
    zcash::decode<C>(b);
    ADD_FAILURE() << what << ": decoded without error";
  } catch (const cuzk::DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << what << ": message \"" << e.what() << "\" lacks \"" << needle << "\"";
  }
}

// The modulus p as 48 big-endian bytes.
Bytes modulus_be() {
  Bytes b(48);
  const auto& m = bls12_381::Fq::kModulus;
  for (std::size_t i = 0; i < 48; ++i) b[47 - i] = static_cast<std::uint8_t>(m[i / 8] >> (8 * (i % 8)));
  return b;
}

TYPED_TEST(ZcashTest, RoundTripAndSortFlag) {
  using C = TypeParam;
  constexpr std::size_t n = zcash::kCompressedSize<C>;
  static_assert(zcash::kUncompressedSize<C> == 2 * n);
  std::mt19937_64 g(11);
  for (int i = 0; i < 4; ++i) {
    const Affine<C> p = random_point<C>(g).to_affine();
    for (const Affine<C>& q : {p, -p}) {
      const Bytes c = zcash::encode(q, true), u = zcash::encode(q, false);
      ASSERT_EQ(c.size(), n);
      ASSERT_EQ(u.size(), 2 * n);
      EXPECT_EQ(c[0] & 0xe0, q.y.is_lexicographically_largest() ? 0xa0 : 0x80);
      EXPECT_EQ(u[0] & 0xe0, 0);
      EXPECT_TRUE(std::equal(c.begin() + 1, c.end(), u.begin() + 1));  // same x bytes
      EXPECT_EQ(zcash::decode<C>(c), q);
      EXPECT_EQ(zcash::decode<C>(u), q);
    }
    EXPECT_NE(zcash::encode(p, true), zcash::encode(-p, true));
  }
  const Bytes ci = zcash::encode(Affine<C>::infinity(), true);
  EXPECT_EQ(ci[0], 0xc0);
  EXPECT_TRUE(std::all_of(ci.begin() + 1, ci.end(), [](auto b) { return b == 0; }));
  EXPECT_EQ(zcash::encode(Affine<C>::infinity(), false)[0], 0x40);
  EXPECT_TRUE(zcash::decode<C>(ci).is_infinity());
  Bytes small(n - 1);
  EXPECT_THROW(zcash::encode(C::generator(), std::span<std::uint8_t>(small), true), std::invalid_argument);
}

TYPED_TEST(ZcashTest, WrongLength) {
  using C = TypeParam;
  constexpr std::size_t n = zcash::kCompressedSize<C>;
  const Bytes c = zcash::encode(C::generator(), true), u = zcash::encode(C::generator(), false);
  expect_error<C>(Bytes{}, "wrong length", "empty");
  expect_error<C>(Bytes(c.begin(), c.end() - 1), "wrong length", "compressed minus one byte");
  Bytes longer = c;
  longer.push_back(0);
  expect_error<C>(longer, "wrong length", "compressed plus one byte");
  Bytes u_longer = u;
  u_longer.push_back(0);
  expect_error<C>(u_longer, "wrong length", "uncompressed plus one byte");
  // Length and compression flag disagree.
  Bytes u_flagged = u;
  u_flagged[0] |= 0x80;
  expect_error<C>(u_flagged, "compression flag set", "2n bytes with the compression flag");
  Bytes c_unflagged = c;
  c_unflagged[0] &= 0x1f;
  expect_error<C>(c_unflagged, "compression flag not set", "n bytes without the compression flag");
  (void)n;
}

TYPED_TEST(ZcashTest, BadFlagCombinations) {
  using C = TypeParam;
  const Bytes c = zcash::encode(C::generator(), true), u = zcash::encode(C::generator(), false);
  Bytes b = u;
  b[0] |= 0x20;  // sort on uncompressed
  expect_error<C>(b, "sort flag set on an uncompressed", "0x20");
  b = zcash::encode(Affine<C>::infinity(), false);
  b[0] |= 0x20;  // 0x60
  expect_error<C>(b, "sort flag set on the point at infinity", "0x60");
  b = zcash::encode(Affine<C>::infinity(), true);
  b[0] |= 0x20;  // 0xe0
  expect_error<C>(b, "sort flag set on the point at infinity", "0xe0");
}

TYPED_TEST(ZcashTest, InfinityWithNonZeroBits) {
  using C = TypeParam;
  for (bool compressed : {true, false}) {
    const Bytes inf = zcash::encode(Affine<C>::infinity(), compressed);
    Bytes b = inf;
    b.back() = 1;
    expect_error<C>(b, "infinity flag set but the remaining bits", "non-zero last byte");
    b = inf;
    b[0] |= 0x01;  // low bits of the flag byte
    expect_error<C>(b, "infinity flag set but the remaining bits", "non-zero flag-byte bits");
    // Infinity flag on a real point's bytes.
    b = zcash::encode(C::generator(), compressed);
    b[0] = static_cast<std::uint8_t>((b[0] & 0x1f) | (compressed ? 0xc0 : 0x40));
    expect_error<C>(b, "infinity flag set but the remaining bits", "infinity flag on a point");
  }
}

TYPED_TEST(ZcashTest, NonCanonicalCoordinates) {
  using C = TypeParam;
  constexpr bool kG2 = zcash::kCompressedSize<C> == 96;
  const Bytes p = modulus_be();
  // x = p (compressed and uncompressed); for G2 each half separately.
  for (std::size_t part = 0; part < (kG2 ? 2u : 1u); ++part) {
    Bytes c = zcash::encode(C::generator(), true);
    std::copy(p.begin(), p.end(), c.begin() + 48 * part);
    c[0] |= 0x80;
    const std::string which = !kG2 ? "non-canonical x coordinate" : (part == 0 ? "non-canonical x.c1" : "non-canonical x.c0");
    expect_error<C>(c, which, "compressed x >= p");
    Bytes u = zcash::encode(C::generator(), false);
    std::copy(p.begin(), p.end(), u.begin() + 48 * part);
    expect_error<C>(u, which, "uncompressed x >= p");
  }
  // y = p + something, uncompressed.
  Bytes u = zcash::encode(C::generator(), false);
  const std::size_t n = zcash::kCompressedSize<C>;
  std::fill(u.begin() + static_cast<long>(n), u.end(), std::uint8_t{0xff});
  u[n] = 0x1f;
  expect_error<C>(u, "non-canonical y", "uncompressed y >= p");
  // x with all bits set below the flags.
  Bytes c(n, 0xff);
  c[0] = 0x9f;
  expect_error<C>(c, "non-canonical", "0x9fff..");
}

TYPED_TEST(ZcashTest, NotOnCurve) {
  using C = TypeParam;
  using Base = typename C::Base;
  std::mt19937_64 g(12);
  // A compressed x with no y.
  Base x;
  do {
    x = Base::random(g);
  } while ((x.square() * x + C::b()).sqrt());
  Affine<C> fake{x, Base::one()};
  Bytes c = zcash::encode(fake, true);
  c[0] &= 0xdf;  // any sort flag
  expect_error<C>(c, "no square root", "compressed x off the curve");
  // Uncompressed point with a wrong y.
  Affine<C> off{C::generator().x, C::generator().y + Base::one()};
  expect_error<C>(zcash::encode(off, false), "not on the curve", "uncompressed off-curve");
  expect_error<C>(Bytes(zcash::kUncompressedSize<C>, 0), "not on the curve", "uncompressed all zero");
  // The unchecked decoder takes an off-curve uncompressed point as it is (trusted input).
  EXPECT_EQ(zcash::decode_unchecked<C>(zcash::encode(off, false)), off);
  EXPECT_THROW(zcash::decode_unchecked<C>(c), cuzk::DecodeError);  // still needs a square root
  EXPECT_THROW(zcash::decode_unchecked<C>(Bytes(zcash::kUncompressedSize<C>, 0)), cuzk::DecodeError);
}

TYPED_TEST(ZcashTest, NotInSubgroup) {
  using C = TypeParam;
  std::mt19937_64 g(13);
  const Affine<C> q = random_curve_point<C>(g);  // not cofactor-cleared
  ASSERT_FALSE(q.is_in_subgroup());
  for (bool compressed : {true, false}) {
    const Bytes b = zcash::encode(q, compressed);
    expect_error<C>(b, "not in the prime-order subgroup", compressed ? "compressed" : "uncompressed");
    EXPECT_EQ(zcash::decode_unchecked<C>(b), q);
  }
  const Affine<C> cleared = clear_cofactor(Jacobian<C>::from_affine(q)).to_affine();
  EXPECT_EQ(zcash::decode<C>(zcash::encode(cleared, true)), cleared);
}

}  // namespace
