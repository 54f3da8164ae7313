// Cubic extension Fp6 = Fp2[v]/(v^3 - xi), xi = Cfg::kXi0 + Cfg::kXi1*u (see fp2.hpp).
// Element c0 + c1*v + c2*v^2; memory layout c0, c1, c2.
//
// Frobenius coefficients are derived from the modulus at first use (function-local static,
// computed once): with w^6 = xi (w generates Fp12 over Fp6, w^2 = v),
//   h[k] = xi^((p^k - 1)/6) so that w^(p^k) = h[k]*w, v^(p^k) = h[k]^2*v, (v^2)^(p^k) = h[k]^4*v^2.
// They are computed by h[1] = xi^((p-1)/6), h[k+1] = h[1] * conj(h[k]); tests check x^p directly.
#pragma once

#include <array>
#include <cstddef>
#include <ostream>

#include "cuzk/ff/fp2.hpp"

namespace cuzk::ff {

namespace detail {
// Exact division of a little-endian integer by a small divisor (throws if not exact).
template <std::size_t N>
constexpr Limbs<N> div_exact_small(const Limbs<N>& a, u64 d) {
  Limbs<N> q{};
  u128 rem = 0;
  for (std::size_t i = N; i-- > 0;) {
    u128 cur = (rem << 64) | a[i];
    q[i] = static_cast<u64>(cur / d);
    rem = cur % d;
  }
  if (rem != 0) throw std::logic_error("div_exact_small: not divisible");
  return q;
}

// The Frobenius coefficients h[k] = xi^((p^k-1)/6), k = 0..11, and their squares/fourth powers.
template <class Cfg>
struct TowerFrobenius {
  using F2 = Fp2<Cfg>;
  std::array<F2, 12> w;   // w^(p^k) = w[k] * w
  std::array<F2, 12> v;   // v^(p^k) = v[k] * v        (= w[k]^2)
  std::array<F2, 12> v2;  // (v^2)^(p^k) = v2[k] * v^2 (= w[k]^4)

  static const TowerFrobenius& get() {
    static const TowerFrobenius t = make();
    return t;
  }

 private:
  static TowerFrobenius make() {
    using Base = typename Cfg::Base;
    auto pm1 = Base::kModulus;
    pm1[0] -= 1;  // p is odd
    TowerFrobenius t;
    F2 h1 = F2::nonresidue().pow(div_exact_small(pm1, 6));
    t.w[0] = F2::one();
    for (std::size_t k = 1; k < 12; ++k) t.w[k] = h1 * t.w[k - 1].conjugate();
    for (std::size_t k = 0; k < 12; ++k) {
      t.v[k] = t.w[k].square();
      t.v2[k] = t.v[k].square();
    }
    return t;
  }
};
}  // namespace detail

template <class Cfg>
struct Fp6 {
  using F2 = Fp2<Cfg>;
  using Base = typename Cfg::Base;
  using Config = Cfg;

  F2 c0, c1, c2;

  constexpr Fp6() : c0(), c1(), c2() {}
  constexpr Fp6(F2 a0, F2 a1, F2 a2) : c0(a0), c1(a1), c2(a2) {}
  constexpr explicit Fp6(F2 a0) : c0(a0), c1(), c2() {}

  static constexpr Fp6 zero() { return Fp6(); }
  static constexpr Fp6 one() { return Fp6(F2::one()); }
  template <class Rng>
  static Fp6 random(Rng& rng) {
    F2 a = F2::random(rng);
    F2 b = F2::random(rng);
    F2 c = F2::random(rng);
    return Fp6(a, b, c);
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  constexpr bool operator==(const Fp6& o) const { return c0 == o.c0 && c1 == o.c1 && c2 == o.c2; }

  constexpr Fp6 operator+(const Fp6& o) const { return Fp6(c0 + o.c0, c1 + o.c1, c2 + o.c2); }
  constexpr Fp6 operator-(const Fp6& o) const { return Fp6(c0 - o.c0, c1 - o.c1, c2 - o.c2); }
  constexpr Fp6 operator-() const { return Fp6(-c0, -c1, -c2); }
  constexpr Fp6 operator*(const Fp6& o) const {
    // Karatsuba over Fp2: 6 Fp2 multiplications.
    F2 t0 = c0 * o.c0, t1 = c1 * o.c1, t2 = c2 * o.c2;
    F2 r0 = t0 + ((c1 + c2) * (o.c1 + o.c2) - t1 - t2).mul_by_nonresidue();
    F2 r1 = (c0 + c1) * (o.c0 + o.c1) - t0 - t1 + t2.mul_by_nonresidue();
    F2 r2 = (c0 + c2) * (o.c0 + o.c2) - t0 - t2 + t1;
    return Fp6(r0, r1, r2);
  }
  constexpr Fp6& operator+=(const Fp6& o) { return *this = *this + o; }
  constexpr Fp6& operator-=(const Fp6& o) { return *this = *this - o; }
  constexpr Fp6& operator*=(const Fp6& o) { return *this = *this * o; }
  constexpr Fp6 dbl() const { return Fp6(c0.dbl(), c1.dbl(), c2.dbl()); }

  constexpr Fp6 square() const {
    // Chung-Hasan SQR2.
    F2 s0 = c0.square();
    F2 s1 = (c0 * c1).dbl();
    F2 s2 = (c0 - c1 + c2).square();
    F2 s3 = (c1 * c2).dbl();
    F2 s4 = c2.square();
    return Fp6(s0 + s3.mul_by_nonresidue(), s1 + s4.mul_by_nonresidue(), s1 + s2 + s3 - s0 - s4);
  }

  // x * v
  constexpr Fp6 mul_by_nonresidue() const { return Fp6(c2.mul_by_nonresidue(), c0, c1); }
  constexpr Fp6 mul_by_fp2(const F2& s) const { return Fp6(c0 * s, c1 * s, c2 * s); }
  // x * (b1*v)
  constexpr Fp6 mul_by_1(const F2& b1) const { return Fp6((c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1); }
  // x * (b0 + b1*v)
  constexpr Fp6 mul_by_01(const F2& b0, const F2& b1) const {
    F2 t0 = c0 * b0, t1 = c1 * b1;
    F2 r0 = ((c1 + c2) * b1 - t1).mul_by_nonresidue() + t0;
    F2 r1 = (c0 + c1) * (b0 + b1) - t0 - t1;
    F2 r2 = (c0 + c2) * b0 - t0 + t1;
    return Fp6(r0, r1, r2);
  }

  // Inverse; the inverse of zero is zero.
  constexpr Fp6 inverse() const {
    F2 A = c0.square() - (c1 * c2).mul_by_nonresidue();
    F2 B = c2.square().mul_by_nonresidue() - c0 * c1;
    F2 C = c1.square() - c0 * c2;
    F2 F = c0 * A + (c2 * B + c1 * C).mul_by_nonresidue();
    F2 t = F.inverse();
    return Fp6(A * t, B * t, C * t);
  }

  template <std::size_t M>
  constexpr Fp6 pow(const Limbs<M>& e) const {
    Fp6 r = one();
    for (std::size_t i = big::num_bits(e); i-- > 0;) {
      r = r.square();
      if (big::bit(e, i)) r *= *this;
    }
    return r;
  }

  // x -> x^(p^power)
  Fp6 frobenius_map(std::size_t power) const {
    const auto& t = detail::TowerFrobenius<Cfg>::get();
    std::size_t k = power % 6;
    return Fp6(c0.frobenius_map(k), c1.frobenius_map(k) * t.v[k], c2.frobenius_map(k) * t.v2[k]);
  }
};

template <class Cfg>
std::ostream& operator<<(std::ostream& os, const Fp6<Cfg>& x) {
  return os << "[" << x.c0 << ", " << x.c1 << ", " << x.c2 << "]";
}

}  // namespace cuzk::ff
