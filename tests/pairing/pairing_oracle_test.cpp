// The pairing against @noble/curves (tests/oracle/gen_pairing.mjs): e(aG1, bG2) as Fq12
// coefficients, and pairing_check outcomes on noble-generated point sets.
#include <gtest/gtest.h>

#include <vector>

#include "engines.hpp"
#include "tower_json.hpp"

namespace {
using namespace cuzk;

template <class E>
class PairingOracleTest : public ::testing::Test {
 public:
  using Cfg = typename E::Fq12::Config;
  using G1C = typename E::G1Curve;
  using G2C = typename E::G2Curve;
  static const nlohmann::json& vectors() {
    static const nlohmann::json j = test::load_oracle("pairing.json");
    return j.at(test::EngineName<E>::kKey);
  }
};
TYPED_TEST_SUITE(PairingOracleTest, test::Engines);

TYPED_TEST(PairingOracleTest, PairingValues) {
  using Cfg = typename TestFixture::Cfg;
  using G1C = typename TestFixture::G1C;
  using G2C = typename TestFixture::G2C;
  using Fr = typename G1C::Scalar;
  const auto& vs = TestFixture::vectors().at("pairings");
  ASSERT_GT(vs.size(), 0u);
  for (const auto& v : vs) {
    auto p = test::parse_g1<G1C>(v.at("p"));
    auto q = test::parse_g2<G2C>(v.at("q"));
    ASSERT_TRUE(p.is_on_curve());
    ASSERT_TRUE(q.is_on_curve());
    // the points are a*G1 and b*G2 (checks that the oracle's generators are ours)
    auto a = test::parse_field<Fr>(v.at("a")), b = test::parse_field<Fr>(v.at("b"));
    EXPECT_EQ((ec::Jacobian<G1C>::generator() * a).to_affine(), p);
    EXPECT_EQ((ec::Jacobian<G2C>::generator() * b).to_affine(), q);
    EXPECT_EQ(ec::pairing(p, q), test::parse_fq12<Cfg>(v.at("e")));
  }
}

TYPED_TEST(PairingOracleTest, PairingCheckOutcomes) {
  using G1C = typename TestFixture::G1C;
  using G2C = typename TestFixture::G2C;
  const auto& cs = TestFixture::vectors().at("checks");
  ASSERT_GT(cs.size(), 0u);
  int trues = 0, falses = 0;
  for (const auto& c : cs) {
    std::vector<std::pair<ec::Affine<G1C>, ec::Affine<G2C>>> pairs;
    for (const auto& pr : c.at("pairs")) pairs.emplace_back(test::parse_g1<G1C>(pr.at("p")), test::parse_g2<G2C>(pr.at("q")));
    bool expect = c.at("expect").template get<bool>();
    EXPECT_EQ(ec::pairing_check(pairs), expect);
    (expect ? trues : falses)++;
  }
  EXPECT_GT(trues, 0);
  EXPECT_GT(falses, 0);
}

}  // namespace
