// Quadratic extension Fp2 = Fp[u]/(u^2 + 1) (u^2 = -1; BLS12-381 and BN254 both have p = 3 mod 4).
//
// Cfg supplies:
//   using Base = Fp<...>;                        the prime field
//   static constexpr u64 kXi0, kXi1;             xi = kXi0 + kXi1*u, the sextic non-residue used
//                                                by Fp6 (1+u for BLS12-381, 9+u for BN254)
// Memory layout: c0 then c1 (snarkjs order), each a Base in Montgomery form.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>

#include "cuzk/ff/fp.hpp"

namespace cuzk::ff {

namespace detail {
// k*x for a small compile-time constant k, by double-and-add (no multiplication).
template <u64 K, class F>
constexpr F mul_small(const F& x) {
  if constexpr (K == 0) {
    return F::zero();
  } else if constexpr (K == 1) {
    return x;
  } else {
    F r = F::zero(), d = x;
    for (u64 k = K; k != 0; k >>= 1) {
      if (k & 1) r += d;
      d = d.dbl();
    }
    return r;
  }
}
}  // namespace detail

template <class Cfg>
struct Fp2 {
  using Base = typename Cfg::Base;
  using Config = Cfg;
  static constexpr std::size_t kDegree = 2;  // over Base

  Base c0, c1;  // c0 + c1*u

  constexpr Fp2() : c0(), c1() {}
  constexpr Fp2(Base a0, Base a1) : c0(a0), c1(a1) {}
  constexpr explicit Fp2(Base a0) : c0(a0), c1() {}

  static constexpr Fp2 zero() { return Fp2(); }
  static constexpr Fp2 one() { return Fp2(Base::one(), Base::zero()); }
  // The sextic non-residue xi as an element.
  static constexpr Fp2 nonresidue() { return Fp2(Base::from_u64(Cfg::kXi0), Base::from_u64(Cfg::kXi1)); }

  template <class Rng>
  static Fp2 random(Rng& rng) {
    Base a = Base::random(rng);
    Base b = Base::random(rng);
    return Fp2(a, b);
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  constexpr bool operator==(const Fp2& o) const { return c0 == o.c0 && c1 == o.c1; }

  constexpr Fp2 operator+(const Fp2& o) const { return Fp2(c0 + o.c0, c1 + o.c1); }
  constexpr Fp2 operator-(const Fp2& o) const { return Fp2(c0 - o.c0, c1 - o.c1); }
  constexpr Fp2 operator-() const { return Fp2(-c0, -c1); }
  constexpr Fp2 operator*(const Fp2& o) const {
    // Karatsuba: 3 base multiplications.
    Base t0 = c0 * o.c0;
    Base t1 = c1 * o.c1;
    Base t2 = (c0 + c1) * (o.c0 + o.c1);
    return Fp2(t0 - t1, t2 - t0 - t1);
  }
  constexpr Fp2& operator+=(const Fp2& o) { return *this = *this + o; }
  constexpr Fp2& operator-=(const Fp2& o) { return *this = *this - o; }
  constexpr Fp2& operator*=(const Fp2& o) { return *this = *this * o; }

  constexpr Fp2 dbl() const { return Fp2(c0.dbl(), c1.dbl()); }
  constexpr Fp2 square() const {
    // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u
    Base a = (c0 + c1) * (c0 - c1);
    Base b = c0 * c1;
    return Fp2(a, b.dbl());
  }
  constexpr Fp2 mul_by_base(const Base& s) const { return Fp2(c0 * s, c1 * s); }
  // Multiplication by xi = kXi0 + kXi1*u without general multiplications.
  constexpr Fp2 mul_by_nonresidue() const {
    // (a + b u)(x0 + x1 u) = (x0 a - x1 b) + (x1 a + x0 b) u
    Base a0 = detail::mul_small<Cfg::kXi0>(c0) - detail::mul_small<Cfg::kXi1>(c1);
    Base a1 = detail::mul_small<Cfg::kXi1>(c0) + detail::mul_small<Cfg::kXi0>(c1);
    return Fp2(a0, a1);
  }
  constexpr Fp2 conjugate() const { return Fp2(c0, -c1); }
  // The norm c0^2 + c1^2 = x * conj(x), an element of Base.
  constexpr Base norm() const { return c0.square() + c1.square(); }

  // Inverse; the inverse of zero is zero.
  constexpr Fp2 inverse() const {
    Base t = norm().inverse();
    return Fp2(c0 * t, -(c1 * t));
  }

  template <std::size_t M>
  constexpr Fp2 pow(const Limbs<M>& e) const {
    Fp2 r = one();
    for (std::size_t i = big::num_bits(e); i-- > 0;) {
      r = r.square();
      if (big::bit(e, i)) r *= *this;
    }
    return r;
  }
  constexpr Fp2 pow(u64 e) const { return pow(Limbs<1>{e}); }

  // x -> x^(p^power): the conjugation for odd powers.
  constexpr Fp2 frobenius_map(std::size_t power) const { return (power & 1) ? conjugate() : *this; }

  // Quadratic character via the norm: x is a square in Fp2 iff N(x) is a square in Fp.
  constexpr int legendre() const { return norm().legendre(); }

  // A square root if one exists (p = 3 mod 4; "Algorithm 9" of Adj & Rodriguez-Henriquez, 2012).
  // The result is checked by squaring before it is returned.
  std::optional<Fp2> sqrt() const;

  // zcash rule: compare c1 first; if c1 == 0, compare c0.
  constexpr bool is_lexicographically_largest() const {
    return c1.is_lexicographically_largest() || (c1.is_zero() && c0.is_lexicographically_largest());
  }
};

template <class Cfg>
std::optional<Fp2<Cfg>> Fp2<Cfg>::sqrt() const {
  using Repr = typename Base::Repr;
  constexpr Repr p = Base::kModulus;
  static_assert((p[0] & 3) == 3, "Fp2::sqrt assumes p = 3 mod 4");
  if (is_zero()) return *this;
  // e1 = (p - 3) / 4, e2 = (p - 1) / 2
  Repr e1 = p;
  e1[0] -= 3;
  e1 = big::shr1(big::shr1(e1));
  Repr e2 = p;
  e2[0] -= 1;
  e2 = big::shr1(e2);

  const Fp2 minus_one = -one();
  Fp2 a1 = pow(e1);
  Fp2 alpha = a1.square() * *this;        // a^((p-1)/2)
  Fp2 a0 = alpha.frobenius_map(1) * alpha;  // a^((p^2-1)/2)
  if (a0 == minus_one) return std::nullopt;
  Fp2 x0 = a1 * *this;  // a^((p+1)/4)
  Fp2 x;
  if (alpha == minus_one) {
    x = Fp2(-x0.c1, x0.c0);  // u * x0
  } else {
    Fp2 b = (alpha + one()).pow(e2);
    x = b * x0;
  }
  if (!(x.square() == *this)) return std::nullopt;
  return x;
}

template <class Cfg>
std::ostream& operator<<(std::ostream& os, const Fp2<Cfg>& x) {
  return os << "(" << x.c0 << " + " << x.c1 << "*u)";
}

}  // namespace cuzk::ff
