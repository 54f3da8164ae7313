// Device points of y^2 = x^3 + b (a = 0) over a device coordinate field F (DevFp for G1,
// DevFp2 for G2): affine and XYZZ, the formulas of the host ec::Xyzz (EFD shortw-xyzz:
// madd-2008-s, add-2008-s, dbl-2008-s-1, mdbl-2008-s-1) with the same exceptional cases
// (P = Q, P = -Q, infinity). The curve constant b is never needed by these formulas, so
// one type per coordinate field serves every curve over it.
//
// Same bytes as the host types: DevAffine<F> is ec::Affine<C> (x, y; infinity (0, 0)),
// DevXyzz<F> is ec::Xyzz<C> (X, Y, ZZ, ZZZ; infinity has ZZ = 0). __host__ __device__:
// the host path is tested bit for bit (after normalisation) against cuzk::ec on the CPU.
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_fp2.cuh"
#include "cuzk/gpu/dev_params.cuh"

namespace cuzk::gpu {

// Device coordinate field for a host prime field Fq and extension degree 1 or 2 (kOutline:
// DevFp's out-of-line product, same bytes).
template <class Fq, int Deg, bool kOutline>
struct DevCoordOf;
template <class Fq, bool kOutline>
struct DevCoordOf<Fq, 1, kOutline> {
  using type = DevField<Fq, kOutline>;
};
template <class Fq, bool kOutline>
struct DevCoordOf<Fq, 2, kOutline> {
  using type = DevFp2<DevField<Fq, kOutline>>;
};
template <class Fq, int Deg, bool kOutline = false>
using DevCoord = typename DevCoordOf<Fq, Deg, kOutline>::type;

template <class F>
struct DevAffine {
  F x, y;
  CUZK_HD bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  CUZK_HD DevAffine operator-() const { return is_infinity() ? *this : DevAffine{x, -y}; }
};

template <class F>
struct DevXyzz {
  F X, Y, ZZ, ZZZ;

  static CUZK_HD DevXyzz infinity() { return DevXyzz{F::one(), F::one(), F::zero(), F::zero()}; }
  static CUZK_HD DevXyzz from_affine(const DevAffine<F>& a) {
    return a.is_infinity() ? infinity() : DevXyzz{a.x, a.y, F::one(), F::one()};
  }
  CUZK_HD bool is_infinity() const { return ZZ.is_zero(); }
  CUZK_HD DevXyzz operator-() const { return DevXyzz{X, -Y, ZZ, ZZZ}; }

  // dbl-2008-s-1
  CUZK_HD DevXyzz dbl() const {
    if (is_infinity()) return *this;
    const F U = Y.dbl();
    const F V = U.square();
    const F W = U * V;
    const F S = X * V;
    const F x2 = X.square();
    const F M = x2.dbl() + x2;
    const F X3 = M.square() - S.dbl();
    const F Y3 = M * (S - X3) - W * Y;
    return DevXyzz{X3, Y3, V * ZZ, W * ZZZ};
  }
  // mdbl-2008-s-1: 2a
  static CUZK_HD DevXyzz dbl_affine(const DevAffine<F>& a) {
    if (a.is_infinity()) return infinity();
    const F U = a.y.dbl();
    const F V = U.square();
    const F W = U * V;
    const F S = a.x * V;
    const F x2 = a.x.square();
    const F M = x2.dbl() + x2;
    const F X3 = M.square() - S.dbl();
    const F Y3 = M * (S - X3) - W * a.y;
    return DevXyzz{X3, Y3, V, W};
  }

  // add-2008-s
  CUZK_HD DevXyzz operator+(const DevXyzz& o) const {
    if (is_infinity()) return o;
    if (o.is_infinity()) return *this;
    const F U1 = X * o.ZZ;
    const F U2 = o.X * ZZ;
    const F S1 = Y * o.ZZZ;
    const F S2 = o.Y * ZZZ;
    const F P = U2 - U1;
    const F R = S2 - S1;
    if (P.is_zero()) return R.is_zero() ? dbl() : infinity();
    const F PP = P.square();
    const F PPP = P * PP;
    const F Q = U1 * PP;
    const F X3 = R.square() - PPP - Q.dbl();
    const F Y3 = R * (Q - X3) - S1 * PPP;
    return DevXyzz{X3, Y3, ZZ * o.ZZ * PP, ZZZ * o.ZZZ * PPP};
  }

  // madd-2008-s
  CUZK_HD DevXyzz add_mixed(const DevAffine<F>& a) const {
    if (a.is_infinity()) return *this;
    if (is_infinity()) return from_affine(a);
    const F P = a.x * ZZ - X;
    const F R = a.y * ZZZ - Y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(a) : infinity();
    const F PP = P.square();
    const F PPP = P * PP;
    const F Q = X * PP;
    const F X3 = R.square() - PPP - Q.dbl();
    const F Y3 = R * (Q - X3) - Y * PPP;
    return DevXyzz{X3, Y3, ZZ * PP, ZZZ * PPP};
  }
  CUZK_HD DevXyzz sub_mixed(const DevAffine<F>& a) const { return add_mixed(-a); }

  // k * this for a small unsigned k (double-and-add, most significant bit first).
  CUZK_HD DevXyzz mul_small(std::uint32_t k) const {
    DevXyzz r = infinity();
    for (int i = 31; i >= 0; --i) {
      r = r.dbl();
      if ((k >> i) & 1u) r = r + *this;
    }
    return r;
  }
};

}  // namespace cuzk::gpu
