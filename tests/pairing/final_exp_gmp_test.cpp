// The final exponentiation against its definition f -> f^(c (p^12 - 1) / r), with the
// exponent computed independently by GMP from p, r and the seed x:
//   BLS12-381: c = 3;  BN254: c = 2x(6x^2 + 3x + 1)  (see pairing_final_exp.hpp).
#include <gtest/gtest.h>
#include <gmpxx.h>

#include <random>

#include "engines.hpp"

namespace {
using namespace cuzk;

template <std::size_t N>
mpz_class to_mpz(const ff::Limbs<N>& l) {
  mpz_class z;
  mpz_import(z.get_mpz_t(), N, -1, sizeof(ff::u64), 0, 0, l.data());
  return z;
}
template <std::size_t N>
ff::Limbs<N> from_mpz(const mpz_class& z) {
  if (mpz_sizeinbase(z.get_mpz_t(), 2) > 64 * N) throw std::runtime_error("exponent too large");
  ff::Limbs<N> l{};
  std::size_t count = 0;
  mpz_export(l.data(), &count, -1, sizeof(ff::u64), 0, 0, z.get_mpz_t());
  return l;
}

template <class E>
class FinalExpGmpTest : public ::testing::Test {};
TYPED_TEST_SUITE(FinalExpGmpTest, test::Engines);

TYPED_TEST(FinalExpGmpTest, MatchesDefinition) {
  using E = TypeParam;
  using Fq12 = typename E::Fq12;
  const mpz_class p = to_mpz(E::G1Curve::Base::kModulus);
  const mpz_class r = to_mpz(E::G1Curve::Scalar::kModulus);
  mpz_class x(std::to_string(E::kX));
  if (E::kXNegative) x = -x;
  mpz_class p12;
  mpz_pow_ui(p12.get_mpz_t(), p.get_mpz_t(), 12);
  ASSERT_EQ(mpz_class((p12 - 1) % r), 0);
  mpz_class c = E::kFamily == ec::PairingFamily::BLS12 ? mpz_class(3) : mpz_class(2 * x * (6 * x * x + 3 * x + 1));
  ASSERT_GT(c, 0);
  ASSERT_NE(mpz_class(c % r), 0);  // c coprime to the prime r: non-degenerate
  const auto exp = from_mpz<80>(c * ((p12 - 1) / r));
  std::mt19937_64 g(21);
  for (int i = 0; i < 2; ++i) {
    Fq12 f = Fq12::random(g);
    EXPECT_EQ(ec::final_exponentiation<E>(f), f.pow(exp));
  }
  // and on an actual Miller-loop output
  Fq12 m = ec::miller_loop(E::G1Curve::generator(), E::G2Curve::generator());
  EXPECT_EQ(ec::final_exponentiation<E>(m), m.pow(exp));
}

}  // namespace
