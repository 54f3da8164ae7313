// NTT tests: against a naive DFT / Horner evaluation, round trips, cosets, domains.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/ntt.hpp"
#include "naive.hpp"
#include "support/random_vec.hpp"

using namespace cuzk::poly;
using namespace cuzk::poly::test;
using cuzk::test::random_vec;

template <class F>
class NttTest : public ::testing::Test {};
using Fields = ::testing::Types<Bls, Bn>;
TYPED_TEST_SUITE(NttTest, Fields);

TYPED_TEST(NttTest, DomainRounding) {
  using F = TypeParam;
  EXPECT_EQ(EvaluationDomain<F>(0).size(), 1u);
  EXPECT_EQ(EvaluationDomain<F>(1).size(), 1u);
  EXPECT_EQ(EvaluationDomain<F>(2).size(), 2u);
  EXPECT_EQ(EvaluationDomain<F>(3).size(), 4u);
  EXPECT_EQ(EvaluationDomain<F>(1000).size(), 1024u);
  EXPECT_EQ(EvaluationDomain<F>(1000).log_size(), 10u);
  EXPECT_EQ(EvaluationDomain<F>(1024).size(), 1024u);
  EXPECT_EQ(EvaluationDomain<F>(1025).size(), 2048u);
  EXPECT_EQ(EvaluationDomain<F>::from_log_size(5).size(), 32u);
  const std::size_t s = F::kTwoAdicity;
  EXPECT_THROW(EvaluationDomain<F>(std::size_t{1} << (s + 1)), std::invalid_argument);
  EXPECT_THROW(EvaluationDomain<F>((std::size_t{1} << s) + 1), std::invalid_argument);
  EXPECT_THROW(EvaluationDomain<F>::from_log_size(s + 1), std::invalid_argument);
  EXPECT_THROW(EvaluationDomain<F>(~std::size_t{0}), std::invalid_argument);
}

TYPED_TEST(NttTest, DomainConstants) {
  using F = TypeParam;
  for (std::size_t k = 0; k <= 10; ++k) {
    EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(k);
    const std::size_t n = d.size();
    EXPECT_EQ(d.omega(), F::root_of_unity(k));
    EXPECT_EQ(d.omega().pow(std::uint64_t(n)), F::one());
    if (n > 1) {
      EXPECT_EQ(d.omega().pow(std::uint64_t(n / 2)), -F::one());  // primitive
    }
    EXPECT_EQ(d.omega() * d.omega_inv(), F::one());
    EXPECT_EQ(d.n_inv() * F::from_u64(n), F::one());
    for (std::size_t i = 0; i < 2 * n; i += 3) EXPECT_EQ(d.element(i), d.omega().pow(std::uint64_t(i)));
    F x = F::from_u64(12345);
    EXPECT_EQ(d.vanishing_at(x), x.pow(std::uint64_t(n)) - F::one());
  }
}

// Naive DFT with omega^(ij) from F::pow (not the twiddle tables).
template <class F>
std::vector<F> naive_dft(const std::vector<F>& x, const F& omega) {
  const std::size_t n = x.size();
  std::vector<F> y(n, F::zero());
  for (std::size_t i = 0; i < n; ++i) y[i] = horner(x, omega.pow(std::uint64_t(i)));
  return y;
}

TYPED_TEST(NttTest, ForwardAndInverseMatchNaiveDft) {
  using F = TypeParam;
  std::mt19937_64 rng(1);
  for (std::size_t k = 0; k <= 8; ++k) {
    EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(k);
    auto x = random_vec<F>(d.size(), rng);
    auto expect = naive_dft(x, F::root_of_unity(k));
    auto y = x;
    ntt<F>(d, y);
    ASSERT_EQ(y, expect) << "ntt, n = " << d.size();
    intt<F>(d, y);
    ASSERT_EQ(y, x) << "intt, n = " << d.size();
    // intt(naive evaluations) are the coefficients; also via the inverse root directly.
    auto inv = naive_dft(x, F::root_of_unity(k).inverse());
    for (auto& v : inv) v *= F::from_u64(d.size()).inverse();
    auto z = x;
    intt<F>(d, z);
    ASSERT_EQ(z, inv) << "intt vs naive inverse DFT, n = " << d.size();
  }
}

// Past the blocked stages (radix-4 passes from 2^11, a radix-2 tail at 2^17): compare
// sampled outputs with Horner, and round-trip.
TYPED_TEST(NttTest, LargeSizesSampledAndRoundTrip) {
  using F = TypeParam;
  std::mt19937_64 rng(2);
  // Block sizes vary with k (ntt_block_log); k = 17 exercises the radix-2 tail stage.
  for (std::size_t k = 9; k <= 17; ++k) {
    EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(k);
    auto x = random_vec<F>(d.size(), rng);
    auto y = x;
    ntt<F>(d, y);
    const F w = F::root_of_unity(k);
    for (int t = 0; t < 6; ++t) {
      std::size_t i = t == 0 ? 0 : (t == 1 ? d.size() - 1 : rng() % d.size());
      ASSERT_EQ(y[i], horner(x, w.pow(std::uint64_t(i)))) << "n = " << d.size() << " i = " << i;
    }
    if (k <= 14) {
      intt<F>(d, y);
      ASSERT_EQ(y, x) << "round trip, n = " << d.size();
    }
  }
}

TYPED_TEST(NttTest, CosetMatchesNaive) {
  using F = TypeParam;
  std::mt19937_64 rng(3);
  for (std::size_t k : {0u, 1u, 2u, 3u, 5u, 7u, 13u}) {
    EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(k);
    auto x = random_vec<F>(d.size(), rng);
    const F g = F::random(rng);
    auto y = x;
    coset_ntt<F>(d, y, g);
    const F w = F::root_of_unity(k);
    const std::size_t checks = d.size() <= 128 ? d.size() : 8;
    for (std::size_t t = 0; t < checks; ++t) {
      std::size_t i = d.size() <= 128 ? t : rng() % d.size();
      ASSERT_EQ(y[i], horner(x, g * w.pow(std::uint64_t(i)))) << "n = " << d.size() << " i = " << i;
    }
    coset_intt<F>(d, y, g);
    ASSERT_EQ(y, x) << "coset round trip, n = " << d.size();
    // intt_distribute = coefficients of P(gX).
    auto evals = x;
    ntt<F>(d, evals);
    intt_distribute<F>(d, evals, g);
    for (std::size_t i = 0; i < d.size(); ++i) ASSERT_EQ(evals[i], x[i] * g.pow(std::uint64_t(i)));
  }
}

TYPED_TEST(NttTest, DistributeAndBitReverse) {
  using F = TypeParam;
  std::mt19937_64 rng(4);
  auto x = random_vec<F>(10000, rng);
  const F g = F::random(rng), c = F::random(rng);
  auto y = x;
  distribute_powers<F>(y, g, c);
  F p = c;
  for (std::size_t i = 0; i < x.size(); ++i, p *= g) ASSERT_EQ(y[i], x[i] * p);
  auto z = random_vec<F>(16, rng);
  auto zr = z;
  bit_reverse_permute<F>(zr);
  for (std::size_t i = 0; i < 16; ++i) {
    std::size_t r = ((i & 1) << 3) | ((i & 2) << 1) | ((i & 4) >> 1) | ((i & 8) >> 3);
    EXPECT_EQ(zr[i], z[r]);
  }
  std::vector<F> bad(7);
  EXPECT_THROW(bit_reverse_permute<F>(bad), std::invalid_argument);
}

TYPED_TEST(NttTest, SizeMismatchThrows) {
  using F = TypeParam;
  EvaluationDomain<F> d(8);
  std::vector<F> v(4);
  EXPECT_THROW(ntt<F>(d, v), std::invalid_argument);
  EXPECT_THROW(intt<F>(d, v), std::invalid_argument);
  EXPECT_THROW(coset_ntt<F>(d, v, F::from_u64(3)), std::invalid_argument);
  EXPECT_THROW(coset_intt<F>(d, v, F::from_u64(3)), std::invalid_argument);
  std::vector<F> w(8);
  EXPECT_THROW(coset_ntt<F>(d, w, F::zero()), std::invalid_argument);
}
