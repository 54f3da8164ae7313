// H polynomial tests, both conventions, against naive polynomial arithmetic.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "cuzk/poly/h_poly.hpp"
#include "naive.hpp"
#include "support/random_vec.hpp"

using namespace cuzk::poly;
using namespace cuzk::poly::test;
using cuzk::test::random_vec;

template <class F>
class HTest : public ::testing::Test {};
using Fields = ::testing::Types<Bls, Bn>;
TYPED_TEST_SUITE(HTest, Fields);

namespace {
// Random A, B of degree < n; C = (A*B) mod (X^n - 1) so that Z | A*B - C with quotient h.
template <class F>
struct Instance {
  std::vector<F> A, B, C, h;      // coefficients
  std::vector<F> a, b, c;         // evaluations at omega^i
};

template <class F>
Instance<F> make_instance(std::mt19937_64& rng, std::size_t k) {
  const std::size_t n = std::size_t{1} << k;
  Instance<F> in;
  in.A = random_vec<F>(n, rng);
  in.B = random_vec<F>(n, rng);
  auto AB = poly_mul(in.A, in.B);
  auto [q, r] = divmod_vanishing(AB, n);
  in.C = r;
  in.h = q;
  in.h.resize(n, F::zero());
  // sanity of the oracle: h*Z + C == A*B
  std::vector<F> Z(n + 1, F::zero());
  Z[0] = -F::one();
  Z[n] = F::one();
  std::vector<F> back = q.empty() ? std::vector<F>(n, F::zero()) : poly_mul(q, Z);
  back.resize(std::max(back.size(), n), F::zero());
  for (std::size_t i = 0; i < n; ++i) back[i] += in.C[i];
  back.resize(AB.size(), F::zero());
  EXPECT_EQ(back, AB);
  const F w = F::root_of_unity(k);
  for (std::size_t i = 0; i < n; ++i) {
    F x = w.pow(std::uint64_t(i));
    in.a.push_back(horner(in.A, x));
    in.b.push_back(horner(in.B, x));
    in.c.push_back(horner(in.C, x));
  }
  return in;
}
}  // namespace

TYPED_TEST(HTest, GeneratorIsNonResidueOfFullTwoAdicOrder) {
  using F = TypeParam;
  const F g = multiplicative_generator<F>();
  EXPECT_EQ(g.legendre(), -1);
  F p = g;  // g^(2^k)
  for (std::size_t k = 0; k <= F::kTwoAdicity; ++k, p = p.square()) EXPECT_FALSE(p.is_one()) << "g^(2^" << k << ") == 1";
}

TYPED_TEST(HTest, ClassicRecoversQuotient) {
  using F = TypeParam;
  std::mt19937_64 rng(10);
  for (std::size_t k = 0; k <= 6; ++k) {
    auto in = make_instance<F>(rng, k);
    EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(k);
    auto h = compute_h_classic<F>(d, in.a, in.b, in.c);
    ASSERT_EQ(h, in.h) << "n = " << d.size();
    EXPECT_TRUE(h.back().is_zero());
    // another coset shift gives the same quotient
    auto h2 = compute_h_classic<F>(d, in.a, in.b, in.c, F::random(rng));
    ASSERT_EQ(h2, in.h);
  }
}

TYPED_TEST(HTest, ClassicStagesAndPadding) {
  using F = TypeParam;
  std::mt19937_64 rng(11);
  // Prover shape: m < n rows, c_i = a_i b_i, rows past m are zero.
  const std::size_t m = 37;
  EvaluationDomain<F> d(m);
  ASSERT_EQ(d.size(), 64u);
  auto a = random_vec<F>(m, rng), b = random_vec<F>(m, rng);
  std::vector<F> c(m);
  for (std::size_t i = 0; i < m; ++i) c[i] = a[i] * b[i];
  auto h = compute_h_classic<F>(d, a, b, c);
  // Check h(tau) Z(tau) = A(tau)B(tau) - C(tau) with A(tau) = sum a_i L_i(tau) (naive Lagrange).
  const F tau = F::random(rng);
  std::vector<F> pts;
  for (std::size_t i = 0; i < d.size(); ++i) pts.push_back(F::root_of_unity(6).pow(std::uint64_t(i)));
  auto L = lagrange_at(pts, tau);
  F At = F::zero(), Bt = F::zero(), Ct = F::zero();
  for (std::size_t i = 0; i < m; ++i) At += a[i] * L[i], Bt += b[i] * L[i], Ct += c[i] * L[i];
  EXPECT_EQ(horner(h, tau) * (tau.pow(std::uint64_t(64)) - F::one()), At * Bt - Ct);
  // Stages compose to the same thing.
  const F g = multiplicative_generator<F>();
  auto va = pad_to_domain<F>(d, a), vb = pad_to_domain<F>(d, b), vc = pad_to_domain<F>(d, c);
  classic_to_coset<F>(d, va, g);
  classic_to_coset<F>(d, vb, g);
  classic_to_coset<F>(d, vc, g);
  classic_divide_on_coset<F>(d, va, vb, vc, g);
  coset_intt<F>(d, va, g);
  EXPECT_EQ(va, h);
  std::vector<F> too_long(65);
  EXPECT_THROW(compute_h_classic<F>(d, too_long, a, c), std::invalid_argument);
  EXPECT_THROW(classic_divide_on_coset<F>(d, va, vb, vc, F::root_of_unity(3)), std::invalid_argument);
}

// The six-transform H (no C) equals the classic one whenever c = a.b on the domain, for
// full and zero-padded inputs and any coset; for another c the two differ.
TYPED_TEST(HTest, ClassicFromAbEqualsClassicForSatisfyingC) {
  using F = TypeParam;
  std::mt19937_64 rng(13);
  for (std::size_t k = 0; k <= 7; ++k) {
    const std::size_t n = std::size_t{1} << k;
    EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(k);
    for (const std::size_t m : {n, n / 2 + 1, std::size_t{1}}) {
      auto a = random_vec<F>(m, rng), b = random_vec<F>(m, rng);
      std::vector<F> c(m);
      for (std::size_t i = 0; i < m; ++i) c[i] = a[i] * b[i];
      const F g = m == 1 ? F::random(rng) : multiplicative_generator<F>();
      const auto want = compute_h_classic<F>(d, a, b, c, g);
      ASSERT_EQ(compute_h_classic_ab<F>(d, a, b, g), want) << "n = " << n << ", m = " << m;
      if (n > 1) {
        c[0] += F::one();  // no longer a.b: the classic H changes, the a-b one cannot know
        EXPECT_NE(compute_h_classic<F>(d, a, b, c, g), want);
      }
    }
  }
  // The quotient itself, against naive polynomial arithmetic.
  auto in = make_instance<F>(rng, 5);
  std::vector<F> ab(in.a.size());
  for (std::size_t i = 0; i < ab.size(); ++i) ab[i] = in.a[i] * in.b[i];
  ASSERT_EQ(ab, in.c);  // C = A B mod Z takes the values a.b on the domain
  EXPECT_EQ(compute_h_classic_ab<F>(EvaluationDomain<F>::from_log_size(5), in.a, in.b), in.h);
  EvaluationDomain<F> d8 = EvaluationDomain<F>::from_log_size(3);
  std::vector<F> too_long(9), ok(8);
  EXPECT_THROW(compute_h_classic_ab<F>(d8, too_long, ok), std::invalid_argument);
  EXPECT_THROW(compute_h_classic_ab<F>(d8, ok, ok, F::root_of_unity(3)), std::invalid_argument);
}

TYPED_TEST(HTest, SnarkjsOddCosetValues) {
  using F = TypeParam;
  std::mt19937_64 rng(12);
  for (std::size_t k = 0; k <= 6; ++k) {
    const std::size_t n = std::size_t{1} << k;
    EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(k);
    // Arbitrary A, B, C (no divisibility needed for the pointwise identity).
    auto A = random_vec<F>(n, rng), B = random_vec<F>(n, rng), C = random_vec<F>(n, rng);
    const F w = F::root_of_unity(k);
    std::vector<F> a, b, c;
    for (std::size_t i = 0; i < n; ++i) {
      F x = w.pow(std::uint64_t(i));
      a.push_back(horner(A, x)), b.push_back(horner(B, x)), c.push_back(horner(C, x));
    }
    auto q = compute_h_snarkjs<F>(d, a, b, c);
    auto P = poly_sub(poly_mul(A, B), C);
    const F w2 = F::root_of_unity(k + 1);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(q[i], horner(P, w2.pow(std::uint64_t(2 * i + 1)))) << "n=" << n << " i=" << i;
    // Stage by stage.
    auto va = a;
    snarkjs_to_odd_coset<F>(d, va);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(va[i], horner(A, w2.pow(std::uint64_t(2 * i + 1))));
  }
}

TYPED_TEST(HTest, SnarkjsLagrangeSumIsHZ) {
  using F = TypeParam;
  std::mt19937_64 rng(13);
  for (std::size_t k = 0; k <= 5; ++k) {
    const std::size_t n = std::size_t{1} << k;
    auto in = make_instance<F>(rng, k);
    EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(k);
    auto q = compute_h_snarkjs<F>(d, in.a, in.b, in.c);
    const F tau = F::random(rng);
    const F w2 = F::root_of_unity(k + 1);
    std::vector<F> pts2;
    for (std::size_t j = 0; j < 2 * n; ++j) pts2.push_back(w2.pow(std::uint64_t(j)));
    auto L = lagrange_at(pts2, tau);
    F sum = F::zero();
    for (std::size_t i = 0; i < n; ++i) sum += q[i] * L[2 * i + 1];
    EXPECT_EQ(sum, horner(in.h, tau) * (tau.pow(std::uint64_t(n)) - F::one())) << "n = " << n;
  }
}

// (A domain of 2^kTwoAdicity points, where odd_coset_shift throws, is too big to build in a test.)
TYPED_TEST(HTest, SnarkjsRejectsLongInput) {
  using F = TypeParam;
  EvaluationDomain<F> d(4);
  std::vector<F> ok(4), bad(5);
  EXPECT_THROW(compute_h_snarkjs<F>(d, bad, ok, ok), std::invalid_argument);
  EXPECT_NO_THROW(compute_h_snarkjs<F>(d, ok, ok, ok));
}
