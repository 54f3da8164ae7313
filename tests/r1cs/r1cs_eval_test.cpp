// R1CS<F> evaluation and check mode against naive dense computations on random sparse systems.
#include <gtest/gtest.h>

#include <random>
#include <tuple>

#include "cuzk/ff/fields.hpp"
#include "cuzk/r1cs/eval.hpp"
#include "support/random_r1cs.hpp"

namespace {

using namespace cuzk::r1cs;
using cuzk::test::dense_first_unsatisfied;
using cuzk::test::dense_mul;
using cuzk::test::random_system;

template <class F>
class R1csEval : public ::testing::Test {};
using Fields = ::testing::Types<cuzk::ff::bn254::Fr, cuzk::ff::bls12_381::Fr>;
TYPED_TEST_SUITE(R1csEval, Fields);

TYPED_TEST(R1csEval, MatchesDenseAndSatisfied) {
  using F = TypeParam;
  std::mt19937_64 rng(1);
  // Sizes straddle the TBB grain (1024 rows) so several blocks run in parallel.
  const std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> sizes{
      {1, 3, 2}, {5, 0, 3}, {40, 100, 4}, {100, 2100, 6}};
  for (auto [nv, nc, mt] : sizes) {
    auto s = random_system<F>(rng, nv, nv > 1 ? 1 : 0, nc, mt);
    ASSERT_NO_THROW(s.r1cs.validate());
    const auto e = evaluate(s.r1cs, std::span<const F>(s.w));
    EXPECT_EQ(e.a, dense_mul(s.A, s.w)) << nv << "x" << nc;
    EXPECT_EQ(e.b, dense_mul(s.B, s.w));
    EXPECT_EQ(e.c, dense_mul(s.C, s.w));
    std::vector<F> out(s.r1cs.num_constraints);
    spmv(s.r1cs.B, std::span<const F>(s.w), std::span<F>(out));
    EXPECT_EQ(out, e.b);
    EXPECT_FALSE(check(s.r1cs, std::span<const F>(s.w)).has_value());
  }
}

TYPED_TEST(R1csEval, CheckFindsExactFirstUnsatisfiedAfterFlip) {
  using F = TypeParam;
  std::mt19937_64 rng(2);
  auto s = random_system<F>(rng, 120, 3, 2100, 3, /*with_names=*/true);
  int flips_that_fail = 0;
  for (int trial = 0; trial < 30; ++trial) {
    auto w = s.w;
    const std::size_t k = 1 + rng() % (w.size() - 1);
    w[k] += F::one();
    const std::int64_t want = dense_first_unsatisfied(s, w);
    const auto got = check(s.r1cs, std::span<const F>(w));
    if (want < 0) {
      EXPECT_FALSE(got.has_value());
      continue;
    }
    ++flips_that_fail;
    ASSERT_TRUE(got.has_value()) << "flip of wire " << k;
    EXPECT_EQ(got->index, static_cast<std::uint64_t>(want));
    EXPECT_EQ(got->name, "c" + std::to_string(want));
    EXPECT_NE(got->a * got->b, got->c);
  }
  EXPECT_GT(flips_that_fail, 20);  // most wires are used by some constraint
}

TYPED_TEST(R1csEval, NamesAreEmptyWithoutNames) {
  using F = TypeParam;
  std::mt19937_64 rng(3);
  auto s = random_system<F>(rng, 10, 1, 20, 3);
  auto w = s.w;
  // Break row 0 by changing a wire it uses, via the C fix-up wire (present in every row).
  w[s.r1cs.C.row(0).cols.back()] += F::one();
  auto got = check(s.r1cs, std::span<const F>(w));
  if (dense_first_unsatisfied(s, w) >= 0) {
    ASSERT_TRUE(got.has_value());
    EXPECT_TRUE(got->name.empty());
  }
}

TYPED_TEST(R1csEval, WitnessErrors) {
  using F = TypeParam;
  std::mt19937_64 rng(4);
  auto s = random_system<F>(rng, 10, 1, 20, 3);
  std::vector<F> shorter(s.w.begin(), s.w.end() - 1);
  EXPECT_THROW(evaluate(s.r1cs, std::span<const F>(shorter)), std::invalid_argument);
  EXPECT_THROW(check(s.r1cs, std::span<const F>(shorter)), std::invalid_argument);
  auto longer = s.w;
  longer.push_back(F::one());
  EXPECT_THROW(check(s.r1cs, std::span<const F>(longer)), std::invalid_argument);
  auto bad0 = s.w;
  bad0[0] = F::from_u64(2);
  try {
    check(s.r1cs, std::span<const F>(bad0));
    FAIL() << "w[0] != 1 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("w[0]"), std::string::npos);
  }
}

TYPED_TEST(R1csEval, AddConstraintAndValidate) {
  using F = TypeParam;
  auto r = make_empty_r1cs<F>(4, 1);
  // x1 * x2 = x3, x3 * 1 = x1 + 5
  std::vector<Term<F>> a{{1, F::one()}}, b{{2, F::one()}}, c{{3, F::one()}};
  add_constraint<F>(r, a, b, c);
  std::vector<Term<F>> a2{{3, F::one()}}, b2{{0, F::one()}}, c2{{1, F::one()}, {0, F::from_u64(5)}};
  add_constraint<F>(r, a2, b2, c2, "second");
  EXPECT_EQ(r.num_constraints, 2u);
  EXPECT_EQ(r.constraint_names, (std::vector<std::string>{"", "second"}));
  EXPECT_NO_THROW(r.validate());
  // x1 = 3 => x3 = 8 => x2 = 8/3
  const F x1 = F::from_u64(3), x3 = F::from_u64(8), x2 = x3 * x1.inverse();
  std::vector<F> w{F::one(), x1, x2, x3};
  EXPECT_FALSE(check(r, std::span<const F>(w)).has_value());
  w[2] += F::one();
  auto u = check(r, std::span<const F>(w));
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->index, 0u);
  std::vector<Term<F>> oob{{4, F::one()}};
  EXPECT_THROW(add_constraint<F>(r, oob, b, c), std::invalid_argument);
  auto broken = r;
  broken.A.cols[0] = 9;
  EXPECT_THROW(broken.validate(), std::invalid_argument);
  broken = r;
  broken.num_public = 4;
  EXPECT_THROW(broken.validate(), std::invalid_argument);
  broken = r;
  broken.B.row_ptr[1] = 5;
  EXPECT_THROW(broken.validate(), std::invalid_argument);
}

}  // namespace
