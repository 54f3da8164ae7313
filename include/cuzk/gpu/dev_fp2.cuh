// Device quadratic extension Fp2 = Fp[u]/(u^2 + 1) over a DevFp (BLS12-381 and BN254
// G2 coordinates). Same bytes as the host ff::Fp2: c0 then c1, each a DevFp.
// __host__ __device__ like DevFp: the host path is tested against ff::Fp2 on the CPU.
#pragma once

#include "cuzk/gpu/dev_fp.cuh"

namespace cuzk::gpu {

template <class D>
struct DevFp2 {
  using Base = D;
  D c0, c1;

  static CUZK_HD DevFp2 zero() { return DevFp2{D::zero(), D::zero()}; }
  static CUZK_HD DevFp2 one() { return DevFp2{D::one(), D::zero()}; }
  CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD bool operator==(const DevFp2& o) const { return c0 == o.c0 && c1 == o.c1; }

  CUZK_HD DevFp2 operator+(const DevFp2& o) const { return DevFp2{c0 + o.c0, c1 + o.c1}; }
  CUZK_HD DevFp2 operator-(const DevFp2& o) const { return DevFp2{c0 - o.c0, c1 - o.c1}; }
  CUZK_HD DevFp2 operator-() const { return DevFp2{-c0, -c1}; }
  CUZK_HD DevFp2 dbl() const { return DevFp2{c0.dbl(), c1.dbl()}; }
  // Karatsuba, 3 base products (u^2 = -1). (Over the MSM's outlined D, one out-of-line
  // mul_lazy instead made ptxas spill more in the register kernels: group_fold_kernel 8 ->
  // 30 KB of spill stores.)
  CUZK_HD DevFp2 operator*(const DevFp2& o) const {
    const D t0 = c0 * o.c0, t1 = c1 * o.c1;
    const D t2 = (c0 + c1) * (o.c0 + o.c1);
    return DevFp2{t0 - t1, t2 - t0 - t1};
  }
  // a b with both reductions deferred (MontPairs::fp2_mul: 3 double-width products and 2
  // Montgomery reductions, BLS12-381 744 multiply-adds against 900) on the PTX path, inlined
  // whatever D's kOutline; operator* elsewhere.
  static CUZK_HD DevFp2 mul_lazy(const DevFp2& a, const DevFp2& b) {
#if defined(CUZK_GPU_PTX_PATH)
    DevFp2 r;
    MontPairs<typename D::Params>::fp2_mul(r.c0.l, r.c1.l, a.c0.l, a.c1.l, b.c0.l, b.c1.l);
    D::reduce_once(r.c0.l);
    D::reduce_once(r.c1.l);
    return r;
#else
    return a * b;
#endif
  }
  // (c0 + c1)(c0 - c1) + 2 c0 c1 u
  CUZK_HD DevFp2 square() const {
    const D a = (c0 + c1) * (c0 - c1);
    const D b = c0 * c1;
    return DevFp2{a, b.dbl()};
  }
  CUZK_HD DevFp2& operator+=(const DevFp2& o) { return *this = *this + o; }
  CUZK_HD DevFp2& operator-=(const DevFp2& o) { return *this = *this - o; }
  CUZK_HD DevFp2& operator*=(const DevFp2& o) { return *this = *this * o; }
};

}  // namespace cuzk::gpu
