// Element loads and stores, bit reversal and power tables for the backend's kernels (private
// to src/gpu), callable from host code too: the NTT's pass body (ntt_pass_body.cuh) runs on
// the CPU in tests (gpu_ntt_pass_twin_test). On the device, loads and stores are 16-byte
// vectors; on the host, plain copies.
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_ptx.cuh"

namespace cuzk::gpu::kern {

// One element as 16-byte vectors (elements are 32 or 48 bytes, and cudaMalloc'd arrays of
// them are 16-byte aligned).
template <class D>
CUZK_HD D ld(const D* p) {
  static_assert(D::N % 4 == 0);
#if defined(__CUDA_ARCH__)
  D r;
  const uint4* q = reinterpret_cast<const uint4*>(p);
#pragma unroll
  for (int k = 0; k < D::N / 4; ++k) {
    const uint4 v = q[k];
    r.l[4 * k] = v.x, r.l[4 * k + 1] = v.y, r.l[4 * k + 2] = v.z, r.l[4 * k + 3] = v.w;
  }
  return r;
#else
  return *p;
#endif
}
template <class D>
CUZK_HD void st(D* p, const D& v) {
#if defined(__CUDA_ARCH__)
  uint4* q = reinterpret_cast<uint4*>(p);
#pragma unroll
  for (int k = 0; k < D::N / 4; ++k) q[k] = make_uint4(v.l[4 * k], v.l[4 * k + 1], v.l[4 * k + 2], v.l[4 * k + 3]);
#else
  *p = v;
#endif
}

// v's low `bits` bits reversed.
CUZK_HD std::uint64_t bitrev(std::uint64_t v, int bits) {
#if defined(__CUDA_ARCH__)
  return bits == 0 ? 0 : __brevll(v) >> (64 - bits);
#else
  std::uint64_t r = 0;
  for (int i = 0; i < bits; ++i) r |= ((v >> i) & 1u) << (bits - 1 - i);
  return r;
#endif
}

// c * w^i from a PowerTable's device arrays.
template <class D>
struct PowTab {
  const D* lo;
  const D* hi;
  int bits;
  CUZK_HD D at(std::uint64_t i) const {
    return ld(lo + (i & ((std::uint64_t{1} << bits) - 1))) * ld(hi + (i >> bits));
  }
};

}  // namespace cuzk::gpu::kern
