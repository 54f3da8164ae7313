// Quadratic extension Fp12 = Fp6[w]/(w^2 - v). Element c0 + c1*w; memory layout c0, c1.
// As a vector over Fp2 the six coefficients are, in order,
//   slot 0: c0.c0 (1), 1: c0.c1 (v = w^2), 2: c0.c2 (v^2 = w^4), 3: c1.c0 (w), 4: c1.c1 (w^3), 5: c1.c2 (w^5)
// which is the basis @noble/curves, zkcrypto bls12_381 and arkworks use.
#pragma once

#include <cstddef>
#include <ostream>

#include "cuzk/ff/fp6.hpp"

namespace cuzk::ff {

template <class Cfg>
struct Fp12 {
  using F2 = Fp2<Cfg>;
  using F6 = Fp6<Cfg>;
  using Base = typename Cfg::Base;
  using Config = Cfg;

  F6 c0, c1;

  constexpr Fp12() : c0(), c1() {}
  constexpr Fp12(F6 a0, F6 a1) : c0(a0), c1(a1) {}
  constexpr explicit Fp12(F6 a0) : c0(a0), c1() {}

  static constexpr Fp12 zero() { return Fp12(); }
  static constexpr Fp12 one() { return Fp12(F6::one()); }
  template <class Rng>
  static Fp12 random(Rng& rng) {
    F6 a = F6::random(rng);
    F6 b = F6::random(rng);
    return Fp12(a, b);
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  constexpr bool operator==(const Fp12& o) const { return c0 == o.c0 && c1 == o.c1; }

  constexpr Fp12 operator+(const Fp12& o) const { return Fp12(c0 + o.c0, c1 + o.c1); }
  constexpr Fp12 operator-(const Fp12& o) const { return Fp12(c0 - o.c0, c1 - o.c1); }
  constexpr Fp12 operator-() const { return Fp12(-c0, -c1); }
  constexpr Fp12 operator*(const Fp12& o) const {
    F6 t0 = c0 * o.c0, t1 = c1 * o.c1;
    return Fp12(t0 + t1.mul_by_nonresidue(), (c0 + c1) * (o.c0 + o.c1) - t0 - t1);
  }
  constexpr Fp12& operator+=(const Fp12& o) { return *this = *this + o; }
  constexpr Fp12& operator-=(const Fp12& o) { return *this = *this - o; }
  constexpr Fp12& operator*=(const Fp12& o) { return *this = *this * o; }
  constexpr Fp12 dbl() const { return Fp12(c0.dbl(), c1.dbl()); }

  constexpr Fp12 square() const {
    // Complex squaring: 2 Fp6 multiplications.
    F6 ab = c0 * c1;
    F6 r0 = (c0 + c1) * (c0 + c1.mul_by_nonresidue()) - ab - ab.mul_by_nonresidue();
    return Fp12(r0, ab.dbl());
  }

  // x^(p^6): negation of the w part. On the cyclotomic subgroup (after the easy part of the
  // final exponentiation) this is the inverse.
  constexpr Fp12 conjugate() const { return Fp12(c0, -c1); }

  // Inverse; the inverse of zero is zero.
  constexpr Fp12 inverse() const {
    F6 t = (c0.square() - c1.square().mul_by_nonresidue()).inverse();
    return Fp12(c0 * t, -(c1 * t));
  }

  // x * (o0 + o1*v + o4*v*w)   (slots 0, 1, 4: M-type twist lines)
  constexpr Fp12 mul_by_014(const F2& o0, const F2& o1, const F2& o4) const {
    F6 t0 = c0.mul_by_01(o0, o1);
    F6 t1 = c1.mul_by_1(o4);
    F6 s = (c0 + c1).mul_by_01(o0, o1 + o4);
    return Fp12(t0 + t1.mul_by_nonresidue(), s - t0 - t1);
  }
  // x * (o0 + o3*w + o4*v*w)   (slots 0, 3, 4: D-type twist lines)
  constexpr Fp12 mul_by_034(const F2& o0, const F2& o3, const F2& o4) const {
    F6 t0 = c0.mul_by_fp2(o0);
    F6 t1 = c1.mul_by_01(o3, o4);
    F6 s = (c0 + c1).mul_by_01(o0 + o3, o4);
    return Fp12(t0 + t1.mul_by_nonresidue(), s - t0 - t1);
  }

  template <std::size_t M>
  constexpr Fp12 pow(const Limbs<M>& e) const {
    Fp12 r = one();
    for (std::size_t i = big::num_bits(e); i-- > 0;) {
      r = r.square();
      if (big::bit(e, i)) r *= *this;
    }
    return r;
  }
  constexpr Fp12 pow(u64 e) const { return pow(Limbs<1>{e}); }

  // x -> x^(p^power)
  Fp12 frobenius_map(std::size_t power) const {
    const auto& t = detail::TowerFrobenius<Cfg>::get();
    std::size_t k = power % 12;
    F6 a = c0.frobenius_map(k);
    F6 b = c1.frobenius_map(k);
    const F2& h = t.w[k];
    return Fp12(a, F6(b.c0 * h, b.c1 * h, b.c2 * h));
  }

  // Granger-Scott squaring, valid only for elements of the cyclotomic subgroup
  // (x^(p^4-p^2+1) = 1: anything after the easy part of the final exponentiation).
  constexpr Fp12 cyclotomic_square() const {
    // Fp12 viewed as Fp4^3 with Fp4 = Fp2[s]/(s^2 - xi), s = w^3.
    auto sq4 = [](const F2& a, const F2& b, F2& first, F2& second) {
      F2 a2 = a.square(), b2 = b.square();
      first = b2.mul_by_nonresidue() + a2;
      second = (a + b).square() - a2 - b2;
    };
    F2 t3, t4, t5, t6, t7, t8;
    sq4(c0.c0, c1.c1, t3, t4);
    sq4(c1.c0, c0.c2, t5, t6);
    sq4(c0.c1, c1.c2, t7, t8);
    F2 t9 = t8.mul_by_nonresidue();
    F6 r0((t3 - c0.c0).dbl() + t3, (t5 - c0.c1).dbl() + t5, (t7 - c0.c2).dbl() + t7);
    F6 r1((t9 + c1.c0).dbl() + t9, (t4 + c1.c1).dbl() + t4, (t6 + c1.c2).dbl() + t6);
    return Fp12(r0, r1);
  }
  // x^e by cyclotomic squarings (x must be in the cyclotomic subgroup).
  constexpr Fp12 cyclotomic_pow(u64 e) const {
    if (e == 0) return one();
    Fp12 r = *this;
    for (int i = 62 - __builtin_clzll(e); i >= 0; --i) {
      r = r.cyclotomic_square();
      if ((e >> i) & 1) r *= *this;
    }
    return r;
  }
};

template <class Cfg>
std::ostream& operator<<(std::ostream& os, const Fp12<Cfg>& x) {
  return os << "{" << x.c0 << ", " << x.c1 << "}";
}

}  // namespace cuzk::ff
