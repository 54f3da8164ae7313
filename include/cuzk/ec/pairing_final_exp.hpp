// Final exponentiation f -> f^(c * (p^12 - 1) / r), generic over a pairing engine.
//
// Easy part: f^((p^6 - 1)(p^2 + 1)), after which f is in the cyclotomic subgroup (inverse =
// conjugate, Granger-Scott squaring). Hard part, with exponentiations by the seed x only:
//   BLS12: c = 3, using 3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3
//          (Hayashida, Hayasaka, Teruya, ePrint 2020/875); 5 exponentiations by x.
//   BN:    c = 2x(6x^2 + 3x + 1), using the multiple of (p^4 - p^2 + 1)/r of Fuentes-Castaneda,
//          Knapp, Rodriguez-Henriquez (SAC 2011):
//            l0 = 12x^3 + 12x^2 + 6x + 1, l1 = 12x^3 + 6x^2 + 4x,
//            l2 = 12x^3 + 6x^2 + 6x,      l3 = 12x^3 + 6x^2 + 4x - 1;  3 exponentiations by x.
// Both c are coprime to r, so the result is a non-degenerate bilinear pairing; they are the
// powers @noble/curves, zkcrypto/bls12_381 and arkworks/gnark (BN254) use, so values agree with
// theirs. The test suite checks both identities against the definition with GMP.
#pragma once

#include "cuzk/ec/pairing_engines.hpp"

namespace cuzk::ec::pairing_detail {

// g^x for the signed seed x, g in the cyclotomic subgroup (where g^-1 = conj(g)): NAF of |x|
// with cyclotomic squarings.
template <class E>
typename E::Fq12 exp_by_x(const typename E::Fq12& g) {
  static constexpr Naf kNaf = naf(E::kX);
  const auto gi = g.conjugate();
  auto r = g;  // the top NAF digit is 1
  for (std::size_t i = kNaf.n - 1; i-- > 0;) {
    r = r.cyclotomic_square();
    if (kNaf.d[i] > 0) r *= g;
    else if (kNaf.d[i] < 0) r *= gi;
  }
  if constexpr (E::kXNegative) r = r.conjugate();
  return r;
}

template <class E>
typename E::Fq12 final_exponentiation(const typename E::Fq12& f) {
  using Fq12 = typename E::Fq12;
  // Easy part.
  Fq12 t = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  t = t.frobenius_map(2) * t;            // ^(p^2 + 1)

  if constexpr (E::kFamily == PairingFamily::BLS12) {
    Fq12 a = exp_by_x<E>(t) * t.conjugate();  // t^(x-1)
    a = exp_by_x<E>(a) * a.conjugate();       // t^((x-1)^2)
    Fq12 b = exp_by_x<E>(a) * a.frobenius_map(1);                      // a^(x+p)
    Fq12 c = exp_by_x<E>(exp_by_x<E>(b)) * b.frobenius_map(2) * b.conjugate();  // b^(x^2+p^2-1)
    return c * t.cyclotomic_square() * t;                               // * t^3
  } else {
    Fq12 fx = exp_by_x<E>(t);
    Fq12 f2x = fx.cyclotomic_square();
    Fq12 f6x = f2x.cyclotomic_square() * f2x;
    Fq12 f6x2 = exp_by_x<E>(f6x);
    Fq12 f12x3 = exp_by_x<E>(f6x2.cyclotomic_square());
    Fq12 l2 = f12x3 * f6x2 * f6x;      // t^(12x^3 + 6x^2 + 6x)
    Fq12 l1 = l2 * f2x.conjugate();    // t^(12x^3 + 6x^2 + 4x)
    Fq12 l0 = l2 * f6x2 * t;           // t^(12x^3 + 12x^2 + 6x + 1)
    Fq12 l3 = l1 * t.conjugate();      // t^(12x^3 + 6x^2 + 4x - 1)
    return l0 * l1.frobenius_map(1) * l2.frobenius_map(2) * l3.frobenius_map(3);
  }
}

}  // namespace cuzk::ec::pairing_detail
