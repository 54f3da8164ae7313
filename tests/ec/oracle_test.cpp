// The ec layer against @noble/curves (tests/oracle/gen_curves.mjs -> curves.json).
#include <gtest/gtest.h>

#include "cuzk/ec/serialize_zcash.hpp"
#include "ec_test_util.hpp"

namespace {
using namespace cuzk::ec;
using namespace cuzk::ec::test;
using cuzk::test::load_oracle;
using cuzk::test::parse_hex_bytes;

const nlohmann::json& oracle() {
  static const nlohmann::json j = load_oracle("curves.json");
  return j;
}

template <class C>
class OracleTest : public ::testing::Test {};
TYPED_TEST_SUITE(OracleTest, AllCurves, CurveNames);

TYPED_TEST(OracleTest, ConstantsMatchNoble) {
  using C = TypeParam;
  const nlohmann::json& j = oracle().at(C::kName);
  EXPECT_EQ(C::b(), parse_base<typename C::Base>(j.at("b")));
  EXPECT_EQ(C::generator(), parse_point<C>(j.at("generator")));
  EXPECT_EQ(C::Scalar::kModulus, cuzk::ff::big::parse<4>(j.at("r").get<std::string>()));
  auto h = cuzk::ff::big::parse<8>(j.at("h").get<std::string>());
  cuzk::ff::Limbs<8> ours{};
  for (std::size_t i = 0; i < C::kCofactor.size(); ++i) ours[i] = C::kCofactor[i];
  EXPECT_EQ(ours, h);
}

TYPED_TEST(OracleTest, ScalarMultiplication) {
  using C = TypeParam;
  const auto g = Jacobian<C>::generator();
  const nlohmann::json& cases = oracle().at(C::kName).at("mul");
  ASSERT_GE(cases.size(), 20u);
  for (const nlohmann::json& c : cases) {
    const auto k = parse_limbs(c.at("k"));
    const auto want = parse_point<C>(c.at("p"));
    EXPECT_EQ(g.mul(k).to_affine(), want) << c.at("k");
    // Scalars below r also through operator*(Scalar).
    if (cuzk::ff::big::num_bits(k) <= 256) {
      cuzk::ff::Limbs<4> k4{k[0], k[1], k[2], k[3]};
      if (cuzk::ff::big::cmp(k4, C::Scalar::kModulus) < 0) {
        EXPECT_EQ((g * C::Scalar::from_canonical(k4)).to_affine(), want) << c.at("k");
      }
    }
  }
}

TYPED_TEST(OracleTest, AddDoubleNegate) {
  using C = TypeParam;
  using J = Jacobian<C>;
  const nlohmann::json& cases = oracle().at(C::kName).at("ops");
  ASSERT_GE(cases.size(), 4u);
  for (const nlohmann::json& c : cases) {
    const auto p = parse_point<C>(c.at("p")), q = parse_point<C>(c.at("q"));
    const J pj = J::from_affine(p), qj = J::from_affine(q);
    EXPECT_EQ(J::generator().mul(parse_limbs(c.at("a"))).to_affine(), p);
    EXPECT_EQ((pj + qj).to_affine(), parse_point<C>(c.at("sum")));
    EXPECT_EQ(pj.add_mixed(q).to_affine(), parse_point<C>(c.at("sum")));
    EXPECT_EQ(Xyzz<C>::from_affine(p).add_mixed(q).to_affine(), parse_point<C>(c.at("sum")));
    EXPECT_EQ((pj - qj).to_affine(), parse_point<C>(c.at("diff")));
    EXPECT_EQ(pj.dbl().to_affine(), parse_point<C>(c.at("dbl")));
    EXPECT_EQ(Xyzz<C>::dbl_affine(p).to_affine(), parse_point<C>(c.at("dbl")));
    EXPECT_EQ(-p, parse_point<C>(c.at("neg")));
  }
}

TYPED_TEST(OracleTest, TorsionVerdictsAndCofactorClearing) {
  using C = TypeParam;
  const nlohmann::json& cases = oracle().at(C::kName).at("torsion");
  ASSERT_GE(cases.size(), 4u);
  for (const nlohmann::json& c : cases) {
    const auto p = parse_point<C>(c.at("p"));
    ASSERT_TRUE(p.is_on_curve());
    const bool noble = c.at("torsion_free").get<bool>();
    EXPECT_EQ(p.is_in_subgroup(), noble);
    EXPECT_EQ(in_subgroup_slow(Jacobian<C>::from_affine(p)), noble);
    EXPECT_EQ(clear_cofactor(Jacobian<C>::from_affine(p)).to_affine(), parse_point<C>(c.at("cleared")));
  }
}

template <class C>
void check_zcash(const nlohmann::json& j) {
  const auto& valid = j.at("valid");
  ASSERT_GE(valid.size(), 5u);
  for (const auto& v : valid) {
    const Affine<C> p = v.at("inf").get<bool>() ? Affine<C>::infinity()
                                                 : Affine<C>{parse_base<typename C::Base>(v.at("x")),
                                                             parse_base<typename C::Base>(v.at("y"))};
    const auto comp = parse_hex_bytes(v.at("compressed").get<std::string>());
    const auto unc = parse_hex_bytes(v.at("uncompressed").get<std::string>());
    EXPECT_EQ(zcash::encode(p, true), comp);
    EXPECT_EQ(zcash::encode(p, false), unc);
    EXPECT_EQ(zcash::decode<C>(comp), p);
    EXPECT_EQ(zcash::decode<C>(unc), p);
    EXPECT_EQ(zcash::decode_unchecked<C>(comp), p);
    EXPECT_EQ(zcash::decode_unchecked<C>(unc), p);
  }
  for (const auto& v : j.at("invalid")) {
    ASSERT_TRUE(v.at("noble_rejects").get<bool>()) << v.at("why");
    const auto b = parse_hex_bytes(v.at("bytes").get<std::string>());
    EXPECT_THROW(zcash::decode<C>(b), cuzk::DecodeError) << v.at("why");
  }
}

TEST(OracleZcash, Bls12381G1) { check_zcash<bls12_381::G1Curve>(oracle().at("zcash").at("g1")); }
TEST(OracleZcash, Bls12381G2) { check_zcash<bls12_381::G2Curve>(oracle().at("zcash").at("g2")); }

}  // namespace
