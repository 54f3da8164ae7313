// Fast subgroup membership tests by endomorphisms (included from curves.hpp).
//
//   BLS12-381 G1: sigma(x, y) = (beta x, y), beta a cube root of unity in Fq;
//                 P in G1  <=>  sigma(P) == -[z^2] P             (Scott 2021, eprint 2021/1130)
//   BLS12-381 G2: psi = untwist o Frobenius o twist;  P in G2  <=>  psi(P) == [z] P, z = -0xd201000000010000
//   BN254     G2: P in G2  <=>  psi(P) == [6 x^2] P, x = 4965661367192848881 (p = 6x^2 mod r)
// psi(x, y) = (conj(x) * cx, conj(y) * cy) with cx = xi^((p-1)/3), cy = xi^((p-1)/2) for a
// D-type twist (BN254) and their inverses for an M-type twist (BLS12-381).
// Each fast test is checked against in_subgroup_slow (r * P == 0) in tests/ec.
#pragma once

#include "cuzk/ec/curves.hpp"

namespace cuzk::ec {

namespace detail {
// a / d for a small divisor d (exact division expected by the callers).
template <std::size_t N>
constexpr Limbs<N> div_small(const Limbs<N>& a, u64 d) {
  Limbs<N> q{};
  ff::u128 rem = 0;
  for (std::size_t i = N; i-- > 0;) {
    ff::u128 cur = (rem << 64) | a[i];
    q[i] = static_cast<u64>(cur / d);
    rem = cur % d;
  }
  return q;
}
template <class F>
typename F::Repr modulus_minus_one() {
  typename F::Repr e = F::kModulus;
  e[0] -= 1;  // p is odd
  return e;
}

// psi constants (cx, cy) for a twist with non-residue xi.
template <class Fq2>
struct PsiConstants {
  Fq2 cx, cy;
  PsiConstants(bool m_type) {
    using Fq = typename Fq2::Base;
    const auto pm1 = modulus_minus_one<Fq>();
    const Fq2 xi = Fq2::nonresidue();
    cx = xi.pow(div_small(pm1, 3));
    cy = xi.pow(div_small(pm1, 2));
    if (m_type) {
      cx = cx.inverse();
      cy = cy.inverse();
    }
  }
};

template <class C>
Jacobian<C> psi(const Jacobian<C>& p, const PsiConstants<typename C::Base>& k) {
  return Jacobian<C>{p.X.conjugate() * k.cx, p.Y.conjugate() * k.cy, p.Z.conjugate()};
}

inline constexpr u64 kBlsZAbs = 0xd201000000010000ull;  // BLS12-381: z = -kBlsZAbs
}  // namespace detail

namespace bls12_381 {
// The cube root of unity beta whose endomorphism acts on G1 as -z^2 (the other one acts
// as its conjugate eigenvalue); chosen once by testing on the generator.
inline const Fq& g1_beta() {
  static const Fq beta = [] {
    const auto e = detail::div_small(detail::modulus_minus_one<Fq>(), 3);
    Fq w;
    for (u64 g = 2;; ++g) {
      w = Fq::from_u64(g).pow(e);
      if (!w.is_one()) break;
    }
    const G1 gen = G1::generator();
    const G1 target = -gen.mul(detail::kBlsZAbs).mul(detail::kBlsZAbs);
    const G1 sigma{gen.X * w, gen.Y, gen.Z};
    return sigma == target ? w : w.square();
  }();
  return beta;
}
inline bool G1Curve::in_subgroup(const G1& p) {
  if (!p.is_on_curve()) return false;
  const G1 sigma{p.X * g1_beta(), p.Y, p.Z};
  return sigma == -p.mul(detail::kBlsZAbs).mul(detail::kBlsZAbs);
}
inline const detail::PsiConstants<Fq2>& g2_psi_constants() {
  static const detail::PsiConstants<Fq2> k(/*m_type=*/true);
  return k;
}
inline G2 psi(const G2& p) { return detail::psi(p, g2_psi_constants()); }
inline bool G2Curve::in_subgroup(const G2& p) {
  if (!p.is_on_curve()) return false;
  return psi(p) == -p.mul(detail::kBlsZAbs);
}
}  // namespace bls12_381

namespace bn254 {
inline const detail::PsiConstants<Fq2>& g2_psi_constants() {
  static const detail::PsiConstants<Fq2> k(/*m_type=*/false);
  return k;
}
inline G2 psi(const G2& p) { return detail::psi(p, g2_psi_constants()); }
inline bool G2Curve::in_subgroup(const G2& p) {
  if (!p.is_on_curve()) return false;
  constexpr ff::u128 x = 4965661367192848881ull;
  constexpr ff::u128 six_x2 = 6 * x * x;  // < 2^128
  constexpr Limbs<2> k{static_cast<u64>(six_x2), static_cast<u64>(six_x2 >> 64)};
  return psi(p) == p.mul(k);
}
}  // namespace bn254

}  // namespace cuzk::ec
