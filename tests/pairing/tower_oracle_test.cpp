// Fq2 / Fq6 / Fq12 arithmetic and the final exponentiation against @noble/curves
// (tests/oracle/gen_pairing.mjs; the same tower basis, so values compare directly).
#include <gtest/gtest.h>

#include "engines.hpp"
#include "tower_json.hpp"

namespace {
using namespace cuzk;

template <class E>
class TowerOracleTest : public ::testing::Test {
 public:
  using Cfg = typename E::Fq12::Config;
  static const nlohmann::json& vectors() {
    static const nlohmann::json j = test::load_oracle("pairing.json");
    return j.at(test::EngineName<E>::kKey);
  }
};
TYPED_TEST_SUITE(TowerOracleTest, test::Engines);

TYPED_TEST(TowerOracleTest, Fq2) {
  using Cfg = typename TestFixture::Cfg;
  const auto& vs = TestFixture::vectors().at("fq2");
  ASSERT_GT(vs.size(), 0u);
  for (const auto& v : vs) {
    auto a = test::parse_fq2<Cfg>(v.at("a")), b = test::parse_fq2<Cfg>(v.at("b"));
    EXPECT_EQ(a + b, test::parse_fq2<Cfg>(v.at("add")));
    EXPECT_EQ(a - b, test::parse_fq2<Cfg>(v.at("sub")));
    EXPECT_EQ(a * b, test::parse_fq2<Cfg>(v.at("mul")));
    EXPECT_EQ(a.square(), test::parse_fq2<Cfg>(v.at("sqr")));
    EXPECT_EQ(a.inverse(), test::parse_fq2<Cfg>(v.at("inv")));
    EXPECT_EQ(a.mul_by_nonresidue(), test::parse_fq2<Cfg>(v.at("mul_nr")));
    // square roots are defined up to sign; noble picks its own normalisation
    auto root = a.square().sqrt();
    ASSERT_TRUE(root.has_value());
    auto nr = test::parse_fq2<Cfg>(v.at("sqrt_of_sqr"));
    EXPECT_TRUE(*root == nr || *root == -nr);
    auto ns = test::parse_fq2<Cfg>(v.at("nonsquare"));
    EXPECT_EQ(ns.sqrt().has_value(), v.at("nonsquare_has_root").template get<bool>());
  }
}

TYPED_TEST(TowerOracleTest, Fq6) {
  using Cfg = typename TestFixture::Cfg;
  const auto& vs = TestFixture::vectors().at("fq6");
  ASSERT_GT(vs.size(), 0u);
  for (const auto& v : vs) {
    auto a = test::parse_fq6<Cfg>(v.at("a")), b = test::parse_fq6<Cfg>(v.at("b"));
    EXPECT_EQ(a * b, test::parse_fq6<Cfg>(v.at("mul")));
    EXPECT_EQ(a.square(), test::parse_fq6<Cfg>(v.at("sqr")));
    EXPECT_EQ(a.inverse(), test::parse_fq6<Cfg>(v.at("inv")));
    EXPECT_EQ(a.mul_by_nonresidue(), test::parse_fq6<Cfg>(v.at("mul_nr")));
    EXPECT_EQ(a.frobenius_map(1), test::parse_fq6<Cfg>(v.at("frob1")));
    EXPECT_EQ(a.frobenius_map(2), test::parse_fq6<Cfg>(v.at("frob2")));
    EXPECT_EQ(a.frobenius_map(3), test::parse_fq6<Cfg>(v.at("frob3")));
  }
}

TYPED_TEST(TowerOracleTest, Fq12AndFinalExponentiation) {
  using Cfg = typename TestFixture::Cfg;
  const auto& vs = TestFixture::vectors().at("fq12");
  ASSERT_GT(vs.size(), 0u);
  for (const auto& v : vs) {
    auto a = test::parse_fq12<Cfg>(v.at("a")), b = test::parse_fq12<Cfg>(v.at("b"));
    EXPECT_EQ(a * b, test::parse_fq12<Cfg>(v.at("mul")));
    EXPECT_EQ(a.square(), test::parse_fq12<Cfg>(v.at("sqr")));
    EXPECT_EQ(a.inverse(), test::parse_fq12<Cfg>(v.at("inv")));
    EXPECT_EQ(a.frobenius_map(1), test::parse_fq12<Cfg>(v.at("frob1")));
    EXPECT_EQ(a.frobenius_map(2), test::parse_fq12<Cfg>(v.at("frob2")));
    EXPECT_EQ(a.frobenius_map(3), test::parse_fq12<Cfg>(v.at("frob3")));
    EXPECT_EQ(ec::final_exponentiation<TypeParam>(a), test::parse_fq12<Cfg>(v.at("final_exp")));
  }
}

}  // namespace
