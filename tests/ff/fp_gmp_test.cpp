// Prime-field arithmetic against GMP (a second, independent oracle): random and
// carry-adversarial operands, Montgomery conversions and encodings.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cuzk/ff/fields.hpp"

namespace {
using namespace cuzk::ff;

template <std::size_t N>
mpz_class to_mpz(const Limbs<N>& l) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), N, -1, sizeof(u64), 0, 0, l.data());
  return r;
}

template <std::size_t N>
Limbs<N> from_mpz(const mpz_class& x) {
  Limbs<N> l{};
  EXPECT_LE(mpz_sizeinbase(x.get_mpz_t(), 2), 64 * N);
  std::size_t count = 0;
  mpz_export(l.data(), &count, -1, sizeof(u64), 0, 0, x.get_mpz_t());
  return l;
}

template <class F>
mpz_class modulus() {
  return to_mpz(F::kModulus);
}

template <class F>
mpz_class canon(const F& x) {
  return to_mpz(x.to_canonical());
}

// Canonical values whose limbs are drawn from {0, 2^64-1, p_i, p_i - 1, random}:
// they exercise the carry/borrow paths a uniform sample almost never hits.
template <class F>
typename F::Repr adversarial(std::mt19937_64& g) {
  for (;;) {
    typename F::Repr c{};
    for (std::size_t i = 0; i < F::kLimbs; ++i) {
      switch (g() % 5) {
        case 0: c[i] = 0; break;
        case 1: c[i] = ~u64{0}; break;
        case 2: c[i] = F::kModulus[i]; break;
        case 3: c[i] = F::kModulus[i] - 1; break;
        default: c[i] = g(); break;
      }
    }
    if (big::cmp(c, F::kModulus) < 0) return c;
  }
}

template <class F>
std::vector<F> operands(std::mt19937_64& g, int n) {
  std::vector<F> v;
  for (u64 s : {u64{0}, u64{1}, u64{2}}) v.push_back(F::from_u64(s));
  v.push_back(-F::one());
  v.push_back(-F::one() - F::one());
  for (int i = 0; i < n; ++i) v.push_back(F::random(g));
  for (int i = 0; i < n; ++i) v.push_back(F::from_canonical(adversarial<F>(g)));
  // Elements whose Montgomery images (not canonical values) are adversarial.
  for (int i = 0; i < n; ++i) v.push_back(F::from_mont(adversarial<F>(g)));
  return v;
}

template <class F>
class FpGmpTest : public ::testing::Test {};
using Fields = ::testing::Types<bls12_381::Fq, bls12_381::Fr, bn254::Fq, bn254::Fr>;
TYPED_TEST_SUITE(FpGmpTest, Fields);

TYPED_TEST(FpGmpTest, Constants) {
  using F = TypeParam;
  const mpz_class p = modulus<F>();
  const mpz_class R = mpz_class(1) << (64 * F::kLimbs);
  EXPECT_EQ(to_mpz(F::kR), R % p);
  EXPECT_EQ(to_mpz(F::kR2), (R * R) % p);
  // kInv = -p^-1 mod 2^64
  const mpz_class w = mpz_class(1) << 64;
  EXPECT_EQ((mpz_class(F::kModulus[0]) * mpz_class(F::kInv) + 1) % w, 0);
  EXPECT_EQ(mpz_sizeinbase(p.get_mpz_t(), 2), F::kBits);
  EXPECT_NE(mpz_probab_prime_p(p.get_mpz_t(), 30), 0);
}

TYPED_TEST(FpGmpTest, MontgomeryConversions) {
  using F = TypeParam;
  std::mt19937_64 g(1);
  const mpz_class p = modulus<F>();
  const mpz_class R = mpz_class(1) << (64 * F::kLimbs);
  mpz_class Rinv;
  ASSERT_NE(mpz_invert(Rinv.get_mpz_t(), R.get_mpz_t(), p.get_mpz_t()), 0);
  for (int i = 0; i < 300; ++i) {
    const auto x = i % 2 ? adversarial<F>(g) : F::random(g).to_canonical();
    const mpz_class X = to_mpz(x);
    // Raw Montgomery limbs x represent x * R^-1.
    EXPECT_EQ(canon(F::from_mont(x)), (X * Rinv) % p);
    // A canonical x is stored as x * R.
    const F f = F::from_canonical(x);
    EXPECT_EQ(to_mpz(f.mont()), (X * R) % p);
    EXPECT_EQ(canon(f), X);
    EXPECT_EQ(to_mpz(F::from_canonical_reduce(x).to_canonical()), X);
  }
  // from_canonical_reduce on values >= p.
  for (int i = 0; i < 100; ++i) {
    typename F::Repr c{};
    for (auto& l : c) l = g();
    EXPECT_EQ(canon(F::from_canonical_reduce(c)), to_mpz(c) % p);
  }
}

TYPED_TEST(FpGmpTest, RingOperations) {
  using F = TypeParam;
  std::mt19937_64 g(2);
  const mpz_class p = modulus<F>();
  const auto xs = operands<F>(g, 60);
  for (const F& a : xs) {
    const mpz_class A = canon(a);
    EXPECT_EQ(canon(a.square()), (A * A) % p);
    EXPECT_EQ(canon(a.dbl()), (2 * A) % p);
    EXPECT_EQ(canon(-a), (p - A) % p);
    for (const F& b : xs) {
      const mpz_class B = canon(b);
      ASSERT_EQ(canon(a * b), (A * B) % p) << "a=" << a << " b=" << b;
      ASSERT_EQ(canon(a + b), (A + B) % p) << "a=" << a << " b=" << b;
      ASSERT_EQ(canon(a - b), (A - B + p) % p) << "a=" << a << " b=" << b;
    }
  }
}

TYPED_TEST(FpGmpTest, InversePow) {
  using F = TypeParam;
  std::mt19937_64 g(3);
  const mpz_class p = modulus<F>();
  const auto xs = operands<F>(g, 15);
  for (const F& a : xs) {
    const mpz_class A = canon(a);
    if (A == 0) {
      EXPECT_TRUE(a.inverse().is_zero());
      continue;
    }
    mpz_class inv;
    ASSERT_NE(mpz_invert(inv.get_mpz_t(), A.get_mpz_t(), p.get_mpz_t()), 0);
    EXPECT_EQ(canon(a.inverse()), inv) << "a=" << a;
    Limbs<F::kLimbs + 1> e{};
    for (auto& l : e) l = g();
    mpz_class r;
    const mpz_class E = to_mpz(e);
    mpz_powm(r.get_mpz_t(), A.get_mpz_t(), E.get_mpz_t(), p.get_mpz_t());
    EXPECT_EQ(canon(a.pow(e)), r) << "a=" << a;
    const u64 e1 = g();
    mpz_powm_ui(r.get_mpz_t(), A.get_mpz_t(), e1, p.get_mpz_t());
    EXPECT_EQ(canon(a.pow(e1)), r) << "a=" << a;
    EXPECT_EQ(a.legendre(), mpz_legendre(A.get_mpz_t(), p.get_mpz_t()));
  }
  std::vector<F> ys(xs.begin(), xs.end());
  batch_inverse(std::span<F>(ys));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const mpz_class A = canon(xs[i]);
    mpz_class inv = 0;
    if (A != 0) mpz_invert(inv.get_mpz_t(), A.get_mpz_t(), p.get_mpz_t());
    EXPECT_EQ(canon(ys[i]), inv);
  }
}

// The portable (constant-evaluated) code path, which the run-time fast paths shadow.
TYPED_TEST(FpGmpTest, ConstexprPathMatchesGmp) {
  using F = TypeParam;
  constexpr F a = -F::from_u64(0x123456789abcdefull) * F::from_u64(0xfedcba9876543210ull);
  constexpr F b = F::from_u64(3).pow(Limbs<2>{~u64{0}, 0xabcdefull}) - F::from_u64(7);
  constexpr F prod = a * b, sum = a + b, diff = b - a, sq = a.square();
  constexpr auto ac = a.to_canonical();
  constexpr F inv = b.inverse();
  const mpz_class p = modulus<F>();
  const mpz_class A = canon(a), B = canon(b);
  EXPECT_EQ(to_mpz(ac), A);
  const auto z = [](u64 v) { return to_mpz(Limbs<1>{v}); };
  EXPECT_EQ(A, (p - z(0x123456789abcdefull) * z(0xfedcba9876543210ull) % p) % p);
  mpz_class e = (z(0xabcdefull) << 64) + z(~u64{0}), three = 3, B3;
  mpz_powm(B3.get_mpz_t(), three.get_mpz_t(), e.get_mpz_t(), p.get_mpz_t());
  EXPECT_EQ(B, (B3 - 7 + p) % p);
  EXPECT_EQ(canon(prod), (A * B) % p);
  EXPECT_EQ(canon(sum), (A + B) % p);
  EXPECT_EQ(canon(diff), (B - A + p) % p);
  EXPECT_EQ(canon(sq), (A * A) % p);
  EXPECT_EQ(canon(inv * b), 1);
  // And the run-time path agrees bit for bit.
  const F ra = a, rb = b;
  EXPECT_EQ(ra * rb, prod);
  EXPECT_EQ(ra + rb, sum);
  EXPECT_EQ(rb - ra, diff);
  EXPECT_EQ(rb.inverse(), inv);
}

TYPED_TEST(FpGmpTest, Encodings) {
  using F = TypeParam;
  std::mt19937_64 g(4);
  for (const F& a : operands<F>(g, 30)) {
    const mpz_class A = canon(a);
    EXPECT_EQ(a.to_decimal(), A.get_str(10));
    EXPECT_EQ(a.to_hex(), "0x" + A.get_str(16));
    EXPECT_EQ(F::from_string(A.get_str(10)), a);
    EXPECT_EQ(F::from_string("0x" + A.get_str(16)), a);
    std::vector<std::uint8_t> le(F::kBytes, 0);
    std::size_t count = 0;
    mpz_export(le.data(), &count, -1, 1, 0, 0, A.get_mpz_t());
    const auto ours = a.to_bytes_le();
    EXPECT_EQ(std::vector<std::uint8_t>(ours.begin(), ours.end()), le);
    std::vector<std::uint8_t> be(le.rbegin(), le.rend());
    const auto ours_be = a.to_bytes_be();
    EXPECT_EQ(std::vector<std::uint8_t>(ours_be.begin(), ours_be.end()), be);
    EXPECT_EQ(F::from_bytes_le(le), a);
    EXPECT_EQ(F::from_bytes_be(be), a);
    EXPECT_EQ(from_mpz<F::kLimbs>(A), a.to_canonical());
  }
}

}  // namespace
