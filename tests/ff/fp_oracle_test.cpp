// Prime-field arithmetic against @noble/curves vectors (tests/oracle/gen_fields.mjs).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "support/oracle.hpp"

namespace {
using namespace cuzk::ff;
using cuzk::test::parse_field;
using nlohmann::json;

template <class F>
struct Named;
template <>
struct Named<bls12_381::Fq> { static constexpr const char* kKey = "bls12_381_fq"; };
template <>
struct Named<bls12_381::Fr> { static constexpr const char* kKey = "bls12_381_fr"; };
template <>
struct Named<bn254::Fq> { static constexpr const char* kKey = "bn254_fq"; };
template <>
struct Named<bn254::Fr> { static constexpr const char* kKey = "bn254_fr"; };

const json& all_fields() {
  static const json j = cuzk::test::load_oracle("fields.json");
  return j.at("fields");
}

template <class F>
const json& field_oracle() {
  const json& f = all_fields().at(Named<F>::kKey);
  if (f.at("vectors").size() < 200) throw std::runtime_error("fields.json: too few vectors");
  return f;
}

template <class F>
class FpOracleTest : public ::testing::Test {};
using Fields = ::testing::Types<bls12_381::Fq, bls12_381::Fr, bn254::Fq, bn254::Fr>;
TYPED_TEST_SUITE(FpOracleTest, Fields);

TYPED_TEST(FpOracleTest, Parameters) {
  using F = TypeParam;
  const json& o = field_oracle<F>();
  // The modulus as printed by noble must equal ours limb by limb.
  auto p = big::parse<F::kLimbs>(o.at("modulus").get<std::string>());
  EXPECT_EQ(p, F::kModulus);
  EXPECT_EQ(o.at("bits").get<std::size_t>(), F::kBits);
  EXPECT_EQ(o.at("bytes").get<std::size_t>(), F::kBytes);
  EXPECT_EQ(o.at("two_adicity").get<std::size_t>(), F::kTwoAdicity);
  EXPECT_EQ(o.at("nonresidue").get<std::uint64_t>(), F::nonresidue().to_canonical()[0]);
  const json& roots = o.at("roots_of_unity");
  ASSERT_EQ(roots.size(), F::kTwoAdicity + 1);
  for (std::size_t k = 0; k <= F::kTwoAdicity; ++k)
    EXPECT_EQ(F::root_of_unity(k), parse_field<F>(roots[k])) << "root of unity of order 2^" << k;
}

TYPED_TEST(FpOracleTest, Arithmetic) {
  using F = TypeParam;
  for (const json& v : field_oracle<F>().at("vectors")) {
    const F a = parse_field<F>(v.at("a")), b = parse_field<F>(v.at("b"));
    SCOPED_TRACE("a=" + v.at("a").get<std::string>() + " b=" + v.at("b").get<std::string>());
    EXPECT_EQ(a + b, parse_field<F>(v.at("add")));
    EXPECT_EQ(a - b, parse_field<F>(v.at("sub")));
    EXPECT_EQ(-a, parse_field<F>(v.at("neg")));
    EXPECT_EQ(a * b, parse_field<F>(v.at("mul")));
    EXPECT_EQ(a.square(), parse_field<F>(v.at("sqr")));
    EXPECT_EQ(a.dbl(), parse_field<F>(v.at("dbl")));
    EXPECT_EQ(a.inverse(), parse_field<F>(v.at("inv")));
    // Compound assignment must agree with the binary operators (aliasing included).
    F c = a;
    c *= c;
    EXPECT_EQ(c, parse_field<F>(v.at("sqr")));
    c = a;
    c += b;
    EXPECT_EQ(c, parse_field<F>(v.at("add")));
    c = a;
    c -= b;
    EXPECT_EQ(c, parse_field<F>(v.at("sub")));
  }
}

TYPED_TEST(FpOracleTest, Pow) {
  using F = TypeParam;
  for (const json& v : field_oracle<F>().at("vectors")) {
    const F a = parse_field<F>(v.at("a"));
    const std::string es = v.at("e").get<std::string>();
    SCOPED_TRACE("a=" + v.at("a").get<std::string>() + " e=" + es);
    // Exponents can be up to twice the field width: parse into a wide limb array.
    const auto e = big::parse<2 * F::kLimbs>(es);
    EXPECT_EQ(a.pow(e), parse_field<F>(v.at("pow")));
    bool one_limb = true;
    for (std::size_t i = 1; i < e.size(); ++i) one_limb = one_limb && e[i] == 0;
    if (one_limb) {
      EXPECT_EQ(a.pow(e[0]), parse_field<F>(v.at("pow")));
    }
  }
}

TYPED_TEST(FpOracleTest, LegendreAndSqrt) {
  using F = TypeParam;
  int squares = 0, nonsquares = 0;
  for (const json& v : field_oracle<F>().at("vectors")) {
    const F a = parse_field<F>(v.at("a"));
    SCOPED_TRACE("a=" + v.at("a").get<std::string>());
    const int leg = v.at("legendre").get<int>();
    EXPECT_EQ(a.legendre(), leg);
    const auto r = a.sqrt();
    if (v.at("sqrt").is_null()) {
      EXPECT_FALSE(r.has_value());
      ++nonsquares;
    } else {
      ASSERT_TRUE(r.has_value());
      const F s = parse_field<F>(v.at("sqrt"));
      EXPECT_TRUE(*r == s || *r == -s) << "sqrt " << *r << " is neither +-" << s;
      ++squares;
    }
  }
  EXPECT_GT(squares, 50);
  EXPECT_GT(nonsquares, 50);
}

TYPED_TEST(FpOracleTest, Encodings) {
  using F = TypeParam;
  for (const json& v : field_oracle<F>().at("vectors")) {
    const F a = parse_field<F>(v.at("a"));
    SCOPED_TRACE("a=" + v.at("a").get<std::string>());
    EXPECT_EQ(a.to_hex(), v.at("a").get<std::string>());
    EXPECT_EQ(a.to_decimal(), v.at("a_dec").get<std::string>());
    EXPECT_EQ(parse_field<F>(v.at("a_dec")), a);
    const auto le = cuzk::test::parse_hex_bytes(v.at("bytes_le").get<std::string>());
    const auto be = cuzk::test::parse_hex_bytes(v.at("bytes_be").get<std::string>());
    ASSERT_EQ(le.size(), F::kBytes);
    const auto our_le = a.to_bytes_le();
    const auto our_be = a.to_bytes_be();
    EXPECT_EQ(std::vector<std::uint8_t>(our_le.begin(), our_le.end()), le);
    EXPECT_EQ(std::vector<std::uint8_t>(our_be.begin(), our_be.end()), be);
    EXPECT_EQ(F::from_bytes_le(le), a);
    EXPECT_EQ(F::from_bytes_be(be), a);
  }
}

TYPED_TEST(FpOracleTest, RejectsNonCanonical) {
  using F = TypeParam;
  const json& o = field_oracle<F>();
  const std::string p = o.at("modulus").get<std::string>();
  EXPECT_THROW(F::from_string(p), cuzk::DecodeError);
  std::vector<std::uint8_t> le(F::kBytes, 0xff);
  EXPECT_THROW(F::from_bytes_le(le), cuzk::DecodeError);
  le.pop_back();
  EXPECT_THROW(F::from_bytes_le(le), cuzk::DecodeError);
}

}  // namespace
