// Points of short Weierstrass curves y^2 = x^3 + b (a = 0), generic over curve traits.
//
// A curve traits type C (see curves.hpp) supplies
//   using Base   = ...;            the coordinate field (Fp or Fp2)
//   using Scalar = ...;            the prime-order subgroup's scalar field Fr (its modulus is r)
//   static Base b();               the curve constant
//   static Affine<C> generator();  a generator of the order-r subgroup
// and, optionally, `static bool in_subgroup(const Jacobian<C>&)` (a fast membership test,
// see subgroup.hpp) and `kCofactor` (Limbs of the cofactor, used by clear_cofactor).
//
// Representations:
//   Affine    (x, y); the point at infinity is (0, 0), which is never on the curve since
//             b != 0 (snarkjs/ffiasm convention). Memory layout: x then y, nothing else.
//   Jacobian  (X, Y, Z) = (X/Z^2, Y/Z^3); infinity has Z = 0.
//   Xyzz      (X, Y, ZZ, ZZZ) = (X/ZZ, Y/ZZZ) with ZZ^3 = ZZZ^2; infinity has ZZ = ZZZ = 0.
//
// Formulas are from the Explicit-Formulas Database (hyperelliptic.org/EFD, "g1p"
// shortw-jacobian-0 and shortw-xyzz), with the exceptional cases (P = Q, P = -Q,
// infinity) handled explicitly. None of this is constant-time: it is for proving with
// public data and for verification, not for secret-key operations.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <stdexcept>
#include <vector>

#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/fp.hpp"

namespace cuzk::ec {

using ff::Limbs;
using ff::u64;

template <class C>
struct Affine;
template <class C>
struct Jacobian;
template <class C>
struct Xyzz;

template <class C>
concept CurveTraits = requires {
  typename C::Base;
  typename C::Scalar;
  { C::b() } -> std::convertible_to<typename C::Base>;
  { C::generator() } -> std::convertible_to<Affine<C>>;
};

// ---------------------------------------------------------------------------------
template <class C>
struct Affine {
  using Curve = C;
  using Base = typename C::Base;
  Base x, y;

  static constexpr Affine infinity() { return Affine{Base::zero(), Base::zero()}; }
  constexpr bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  // True for points satisfying y^2 = x^3 + b, and for infinity (a valid group element).
  bool is_on_curve() const { return is_infinity() || y.square() == x.square() * x + C::b(); }
  // Membership of the order-r subgroup (false for points off the curve).
  bool is_in_subgroup() const;
  constexpr Affine operator-() const { return is_infinity() ? *this : Affine{x, -y}; }
  constexpr bool operator==(const Affine& o) const { return x == o.x && y == o.y; }
  Jacobian<C> to_jacobian() const { return Jacobian<C>::from_affine(*this); }
  static Affine generator() { return C::generator(); }
};

// ---------------------------------------------------------------------------------
template <class C>
struct Jacobian {
  using Curve = C;
  using Base = typename C::Base;
  using Scalar = typename C::Scalar;
  Base X, Y, Z;

  static constexpr Jacobian infinity() { return Jacobian{Base::one(), Base::one(), Base::zero()}; }
  static constexpr Jacobian from_affine(const Affine<C>& a) {
    return a.is_infinity() ? infinity() : Jacobian{a.x, a.y, Base::one()};
  }
  static Jacobian generator() { return from_affine(C::generator()); }
  constexpr bool is_infinity() const { return Z.is_zero(); }

  Affine<C> to_affine() const {
    if (is_infinity()) return Affine<C>::infinity();
    Base zi = Z.inverse();
    Base zi2 = zi.square();
    return Affine<C>{X * zi2, Y * zi2 * zi};
  }
  bool is_on_curve() const {
    if (is_infinity()) return true;
    Base z2 = Z.square();
    Base z6 = z2.square() * z2;
    return Y.square() == X.square() * X + C::b() * z6;
  }
  bool is_in_subgroup() const;

  // dbl-2009-l
  Jacobian dbl() const {
    if (is_infinity()) return *this;
    Base A = X.square();
    Base B = Y.square();
    Base Cc = B.square();
    Base D = ((X + B).square() - A - Cc).dbl();
    Base E = A.dbl() + A;
    Base F = E.square();
    Base X3 = F - D.dbl();
    Base C8 = Cc.dbl().dbl().dbl();
    Base Y3 = E * (D - X3) - C8;
    Base Z3 = (Y * Z).dbl();
    return Jacobian{X3, Y3, Z3};
  }

  // add-2007-bl
  Jacobian operator+(const Jacobian& o) const {
    if (is_infinity()) return o;
    if (o.is_infinity()) return *this;
    Base Z1Z1 = Z.square();
    Base Z2Z2 = o.Z.square();
    Base U1 = X * Z2Z2;
    Base U2 = o.X * Z1Z1;
    Base S1 = Y * o.Z * Z2Z2;
    Base S2 = o.Y * Z * Z1Z1;
    Base H = U2 - U1;
    Base R = S2 - S1;
    if (H.is_zero()) return R.is_zero() ? dbl() : infinity();
    Base I = H.dbl().square();
    Base J = H * I;
    Base r = R.dbl();
    Base V = U1 * I;
    Base X3 = r.square() - J - V.dbl();
    Base Y3 = r * (V - X3) - (S1 * J).dbl();
    Base Z3 = ((Z + o.Z).square() - Z1Z1 - Z2Z2) * H;
    return Jacobian{X3, Y3, Z3};
  }

  // madd-2007-bl
  Jacobian add_mixed(const Affine<C>& a) const {
    if (a.is_infinity()) return *this;
    if (is_infinity()) return from_affine(a);
    Base Z1Z1 = Z.square();
    Base U2 = a.x * Z1Z1;
    Base S2 = a.y * Z * Z1Z1;
    Base H = U2 - X;
    Base R = S2 - Y;
    if (H.is_zero()) return R.is_zero() ? dbl() : infinity();
    Base HH = H.square();
    Base I = HH.dbl().dbl();
    Base J = H * I;
    Base r = R.dbl();
    Base V = X * I;
    Base X3 = r.square() - J - V.dbl();
    Base Y3 = r * (V - X3) - (Y * J).dbl();
    Base Z3 = (Z + H).square() - Z1Z1 - HH;
    return Jacobian{X3, Y3, Z3};
  }
  Jacobian sub_mixed(const Affine<C>& a) const { return add_mixed(-a); }

  Jacobian operator-() const { return Jacobian{X, -Y, Z}; }
  Jacobian operator-(const Jacobian& o) const { return *this + (-o); }
  Jacobian& operator+=(const Jacobian& o) { return *this = *this + o; }
  Jacobian& operator-=(const Jacobian& o) { return *this = *this - o; }

  // Projective equality: same affine point.
  bool operator==(const Jacobian& o) const {
    if (is_infinity() || o.is_infinity()) return is_infinity() && o.is_infinity();
    Base Z1Z1 = Z.square();
    Base Z2Z2 = o.Z.square();
    if (!(X * Z2Z2 == o.X * Z1Z1)) return false;
    return Y * Z2Z2 * o.Z == o.Y * Z1Z1 * Z;
  }

  // k * P for a little-endian integer k of any width (wNAF, window 5).
  template <std::size_t M>
  Jacobian mul(const Limbs<M>& k) const;
  Jacobian mul(u64 k) const { return mul(Limbs<1>{k}); }
  // Reference double-and-add (used to test mul).
  template <std::size_t M>
  Jacobian mul_double_and_add(const Limbs<M>& k) const {
    Jacobian r = infinity();
    for (std::size_t i = ff::big::num_bits(k); i-- > 0;) {
      r = r.dbl();
      if (ff::big::bit(k, i)) r += *this;
    }
    return r;
  }
  Jacobian operator*(const Scalar& k) const { return mul(k.to_canonical()); }
  Jacobian& operator*=(const Scalar& k) { return *this = *this * k; }
};

template <class C>
Jacobian<C> operator*(const typename C::Scalar& k, const Jacobian<C>& p) {
  return p * k;
}
template <class C>
Jacobian<C> operator*(const Affine<C>& p, const typename C::Scalar& k) {
  return Jacobian<C>::from_affine(p) * k;
}

// ---------------------------------------------------------------------------------
template <class C>
struct Xyzz {
  using Curve = C;
  using Base = typename C::Base;
  Base X, Y, ZZ, ZZZ;

  static constexpr Xyzz infinity() { return Xyzz{Base::one(), Base::one(), Base::zero(), Base::zero()}; }
  static constexpr Xyzz from_affine(const Affine<C>& a) {
    return a.is_infinity() ? infinity() : Xyzz{a.x, a.y, Base::one(), Base::one()};
  }
  static Xyzz from_jacobian(const Jacobian<C>& p) {
    if (p.is_infinity()) return infinity();
    Base z2 = p.Z.square();
    return Xyzz{p.X, p.Y, z2, z2 * p.Z};
  }
  constexpr bool is_infinity() const { return ZZ.is_zero(); }

  // Uses ZZ^3 = ZZZ^2: Jacobian (X*ZZ^2, Y*ZZZ^2, ZZZ).
  Jacobian<C> to_jacobian() const {
    if (is_infinity()) return Jacobian<C>::infinity();
    return Jacobian<C>{X * ZZ.square(), Y * ZZZ.square(), ZZZ};
  }
  Affine<C> to_affine() const {
    if (is_infinity()) return Affine<C>::infinity();
    Base zzzi = ZZZ.inverse();
    Base zzi = (ZZ * zzzi).square();  // 1/ZZ = (ZZ/ZZZ)^2 since ZZ^3 = ZZZ^2
    return Affine<C>{X * zzi, Y * zzzi};
  }

  // dbl-2008-s-1
  Xyzz dbl() const {
    if (is_infinity()) return *this;
    Base U = Y.dbl();
    Base V = U.square();
    Base W = U * V;
    Base S = X * V;
    Base x2 = X.square();
    Base Mm = x2.dbl() + x2;
    Base X3 = Mm.square() - S.dbl();
    Base Y3 = Mm * (S - X3) - W * Y;
    return Xyzz{X3, Y3, V * ZZ, W * ZZZ};
  }
  // mdbl-2008-s-1: 2 * a as Xyzz.
  static Xyzz dbl_affine(const Affine<C>& a) {
    if (a.is_infinity()) return infinity();
    Base U = a.y.dbl();
    Base V = U.square();
    Base W = U * V;
    Base S = a.x * V;
    Base x2 = a.x.square();
    Base Mm = x2.dbl() + x2;
    Base X3 = Mm.square() - S.dbl();
    Base Y3 = Mm * (S - X3) - W * a.y;
    return Xyzz{X3, Y3, V, W};
  }

  // add-2008-s
  Xyzz operator+(const Xyzz& o) const {
    if (is_infinity()) return o;
    if (o.is_infinity()) return *this;
    Base U1 = X * o.ZZ;
    Base U2 = o.X * ZZ;
    Base S1 = Y * o.ZZZ;
    Base S2 = o.Y * ZZZ;
    Base P = U2 - U1;
    Base R = S2 - S1;
    if (P.is_zero()) return R.is_zero() ? dbl() : infinity();
    Base PP = P.square();
    Base PPP = P * PP;
    Base Q = U1 * PP;
    Base X3 = R.square() - PPP - Q.dbl();
    Base Y3 = R * (Q - X3) - S1 * PPP;
    return Xyzz{X3, Y3, ZZ * o.ZZ * PP, ZZZ * o.ZZZ * PPP};
  }

  // madd-2008-s
  Xyzz add_mixed(const Affine<C>& a) const {
    if (a.is_infinity()) return *this;
    if (is_infinity()) return from_affine(a);
    Base P = a.x * ZZ - X;
    Base R = a.y * ZZZ - Y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(a) : infinity();
    Base PP = P.square();
    Base PPP = P * PP;
    Base Q = X * PP;
    Base X3 = R.square() - PPP - Q.dbl();
    Base Y3 = R * (Q - X3) - Y * PPP;
    return Xyzz{X3, Y3, ZZ * PP, ZZZ * PPP};
  }
  Xyzz sub_mixed(const Affine<C>& a) const { return add_mixed(-a); }

  Xyzz operator-() const { return Xyzz{X, -Y, ZZ, ZZZ}; }
  Xyzz operator-(const Xyzz& o) const { return *this + (-o); }
  Xyzz& operator+=(const Xyzz& o) { return *this = *this + o; }

  bool operator==(const Xyzz& o) const {
    if (is_infinity() || o.is_infinity()) return is_infinity() && o.is_infinity();
    return X * o.ZZ == o.X * ZZ && Y * o.ZZZ == o.Y * ZZZ;
  }
};

// ---------------------------------------------------------------------------------
namespace detail {
// Width-w NAF digits of k, least significant first; every non-zero digit is odd and
// |d| < 2^(w-1). Returns the number of digits.
template <std::size_t M>
std::size_t wnaf(const Limbs<M>& k, unsigned w, std::int8_t* out) {
  Limbs<M + 1> e{};
  for (std::size_t i = 0; i < M; ++i) e[i] = k[i];
  const u64 mask = (u64{1} << w) - 1;
  const std::int64_t half = std::int64_t{1} << (w - 1);
  std::size_t n = 0;
  while (!ff::big::is_zero(e)) {
    std::int64_t d = 0;
    if (e[0] & 1) {
      d = static_cast<std::int64_t>(e[0] & mask);
      if (d >= half) d -= std::int64_t{1} << w;
      // e -= d
      Limbs<M + 1> t{};
      if (d > 0) {
        t[0] = static_cast<u64>(d);
        ff::big::sub(e, e, t);
      } else {
        t[0] = static_cast<u64>(-d);
        ff::big::add(e, e, t);
      }
    }
    out[n++] = static_cast<std::int8_t>(d);
    e = ff::big::shr1(e);
  }
  return n;
}
}  // namespace detail

template <class C>
template <std::size_t M>
Jacobian<C> Jacobian<C>::mul(const Limbs<M>& k) const {
  constexpr unsigned kW = 5;
  constexpr std::size_t kTable = std::size_t{1} << (kW - 2);  // P, 3P, ..., 15P
  if (is_infinity() || ff::big::is_zero(k)) return infinity();
  std::array<std::int8_t, 64 * M + 2> digits{};
  const std::size_t n = detail::wnaf(k, kW, digits.data());
  std::array<Jacobian, kTable> table;
  table[0] = *this;
  const Jacobian twice = dbl();
  for (std::size_t i = 1; i < kTable; ++i) table[i] = table[i - 1] + twice;
  Jacobian r = infinity();
  for (std::size_t i = n; i-- > 0;) {
    r = r.dbl();
    const int d = digits[i];
    if (d > 0) r += table[static_cast<std::size_t>(d / 2)];
    else if (d < 0) r -= table[static_cast<std::size_t>(-d / 2)];
  }
  return r;
}

// Subgroup membership. The slow test r * P == infinity is always available; curves may
// supply a fast endomorphism-based test as `C::in_subgroup(const Jacobian<C>&)`.
template <class C>
bool in_subgroup_slow(const Jacobian<C>& p) {
  return p.is_on_curve() && p.mul_double_and_add(C::Scalar::kModulus).is_infinity();
}
template <class C>
bool Jacobian<C>::is_in_subgroup() const {
  if constexpr (requires(const Jacobian<C>& q) { { C::in_subgroup(q) } -> std::convertible_to<bool>; }) {
    return C::in_subgroup(*this);
  } else {
    return in_subgroup_slow(*this);
  }
}
template <class C>
bool Affine<C>::is_in_subgroup() const {
  return Jacobian<C>::from_affine(*this).is_in_subgroup();
}

// Multiplies by the cofactor (maps any curve point into the order-r subgroup).
template <class C>
Jacobian<C> clear_cofactor(const Jacobian<C>& p) {
  return p.mul(C::kCofactor);
}

// Montgomery's trick: out[i] = in[i] in affine form, one field inversion in total.
template <class C>
void batch_to_affine(std::span<const Jacobian<C>> in, std::span<Affine<C>> out) {
  using Base = typename C::Base;
  if (in.size() != out.size()) throw std::invalid_argument("batch_to_affine: input and output sizes differ");
  std::vector<Base> zs(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) zs[i] = in[i].Z;
  ff::batch_inverse(std::span<Base>(zs));
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i].is_infinity()) {
      out[i] = Affine<C>::infinity();
      continue;
    }
    Base zi2 = zs[i].square();
    out[i] = Affine<C>{in[i].X * zi2, in[i].Y * zi2 * zs[i]};
  }
}
template <class C>
std::vector<Affine<C>> batch_to_affine(std::span<const Jacobian<C>> in) {
  std::vector<Affine<C>> out(in.size());
  batch_to_affine(in, std::span<Affine<C>>(out));
  return out;
}
template <class C>
void batch_to_affine(std::span<const Xyzz<C>> in, std::span<Affine<C>> out) {
  using Base = typename C::Base;
  if (in.size() != out.size()) throw std::invalid_argument("batch_to_affine: input and output sizes differ");
  std::vector<Base> zs(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) zs[i] = in[i].ZZZ;
  ff::batch_inverse(std::span<Base>(zs));
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i].is_infinity()) {
      out[i] = Affine<C>::infinity();
      continue;
    }
    Base zzi = (in[i].ZZ * zs[i]).square();
    out[i] = Affine<C>{in[i].X * zzi, in[i].Y * zs[i]};
  }
}

template <class C>
std::ostream& operator<<(std::ostream& os, const Affine<C>& p)
  requires requires(std::ostream& s, const typename C::Base& b) { s << b; }
{
  if (p.is_infinity()) return os << "(infinity)";
  return os << "(" << p.x << ", " << p.y << ")";
}
template <class C>
std::ostream& operator<<(std::ostream& os, const Jacobian<C>& p)
  requires requires(std::ostream& s, const typename C::Base& b) { s << b; }
{
  return os << p.to_affine();
}
template <class C>
std::ostream& operator<<(std::ostream& os, const Xyzz<C>& p)
  requires requires(std::ostream& s, const typename C::Base& b) { s << b; }
{
  return os << p.to_affine();
}

}  // namespace cuzk::ec
