// Roots of unity vs ffjavascript (snarkjs): Fr.w[k] from tests/oracle/gen_roots.mjs.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cuzk/poly/domain.hpp"
#include "naive.hpp"
#include "support/oracle.hpp"

using namespace cuzk::poly;
using namespace cuzk::poly::test;

namespace {
template <class F> struct CurveName;
template <> struct CurveName<Bls> { static constexpr const char* kName = "bls12_381"; };
template <> struct CurveName<Bn> { static constexpr const char* kName = "bn254"; };
}  // namespace

template <class F>
class RootsTest : public ::testing::Test {};
using Fields = ::testing::Types<Bls, Bn>;
TYPED_TEST_SUITE(RootsTest, Fields);

TYPED_TEST(RootsTest, MatchFfjavascript) {
  using F = TypeParam;
  const nlohmann::json all = cuzk::test::load_oracle("roots_of_unity.json");
  const nlohmann::json& j = all.at(CurveName<F>::kName);
  const std::size_t s = j.at("s").get<std::size_t>();
  ASSERT_EQ(s, F::kTwoAdicity);
  EXPECT_EQ(j.at("nqr").get<std::string>(), F::nonresidue().to_decimal());
  const nlohmann::json& w = j.at("w");
  ASSERT_EQ(w.size(), s + 1);
  for (std::size_t k = 0; k <= 10; ++k) {
    EXPECT_EQ(F::root_of_unity(k).to_decimal(), w[k].get<std::string>()) << "k = " << k;
    EXPECT_EQ(EvaluationDomain<F>::from_log_size(k).omega().to_decimal(), w[k].get<std::string>()) << "k = " << k;
  }
  EXPECT_EQ(F::root_of_unity(s).to_decimal(), w[s].get<std::string>());
  EXPECT_EQ(F::root_of_unity(s - 1).to_decimal(), w[s - 1].get<std::string>());
}
