// Per-thread field slots in shared memory for the MSM's level-0 accumulation (private to
// src/gpu, used by msm_smem.cuh): SmemField<C> (Fq elements, one out-of-line product over
// slot indices) and SmemCoord<C, Deg> (the point coordinates: Fq for G1, Fp2 = Fq[u]/(u^2 + 1)
// for G2, whose products load both operands and run in registers).
#pragma once

#include <cuda_runtime.h>

#include "msm_kernels.cuh"

namespace cuzk::gpu::msmk {

// Dynamic shared memory of chunk_sum_smem_kernel (all extern __shared__ arrays share it).
extern __shared__ uint4 msm_smem[];

// Field elements of C in per-thread slots: quad q (4 words) of slot s of thread t lives at
// msm_smem[(s Q + q) kThreads + t], so a warp's 16-byte accesses are conflict-free and a slot
// index (s Q kThreads + t) addresses all its quads with constant offsets.
template <class C, unsigned kThreads>
struct SmemField {
  static constexpr int N = C::kN, Q = N / 4;
  static_assert(N % 4 == 0);
  using Fp = DevFp<C, true>;

  static __device__ __forceinline__ u32 slot(u32 s) { return s * Q * kThreads + threadIdx.x; }
  static __device__ __forceinline__ void load(u32 (&x)[N], u32 s) {
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const uint4 v = msm_smem[s + q * kThreads];
      x[4 * q] = v.x, x[4 * q + 1] = v.y, x[4 * q + 2] = v.z, x[4 * q + 3] = v.w;
    }
  }
  static __device__ __forceinline__ void store(u32 s, const u32 (&x)[N]) {
#pragma unroll
    for (int q = 0; q < Q; ++q) msm_smem[s + q * kThreads] = make_uint4(x[4 * q], x[4 * q + 1], x[4 * q + 2], x[4 * q + 3]);
  }
  static __device__ __forceinline__ Fp get(u32 s) {
    Fp r;
    load(r.l, s);
    return r;
  }
  static __device__ __forceinline__ void put(u32 s, const Fp& v) { store(s, v.l); }

  // slot r = slot a * slot b (Montgomery); r may be a or b. One out-of-line copy.
  static __device__ __noinline__ void mul(u32 r, u32 a, u32 b) {
    u32 x[N], y[N], z[N];
    load(x, a);
    load(y, b);
    Fp::mont_mul(z, x, y);
    store(r, z);
  }
  // slot r = slot a * slot b + slot c * slot d (one reduction, DevFp::mont_mul2); r may be
  // any of them.
  static __device__ __noinline__ void mul2(u32 r, u32 a, u32 b, u32 c, u32 d) {
    u32 x[N], y[N], z[N], w[N], o[N];
    load(x, a);
    load(y, b);
    load(z, c);
    load(w, d);
    Fp::mont_mul2(o, x, y, z, w);
    store(r, o);
  }
  // slot r = slot a squared (MontPairs::sqr: 222 multiply-adds instead of 288 for BLS12-381
  // Fq); r may be a.
  static __device__ __noinline__ void sqr(u32 r, u32 a) {
    u32 x[N], z[N];
    load(x, a);
    Fp::mont_sqr(z, x);
    store(r, z);
  }
  // cp.async of the 16-byte aligned N-word element at src into slot s (completes at the next
  // cp.async.wait_group that covers it).
  static __device__ __forceinline__ void copy_async(u32 s, const Fp* src) {
    const uint4* g = reinterpret_cast<const uint4*>(src);
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const u32 dst = static_cast<u32>(__cvta_generic_to_shared(&msm_smem[s + q * kThreads]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(g + q) : "memory");
    }
  }
};

// Coordinates of degree Deg over SmemField<C>: an element takes kWidth consecutive Fq slots.
// Slot arguments are indices (SmemField::slot of the element's first Fq slot). kSumOfProducts:
// whether mul2 (a b + c d with one reduction) exists and pays.
template <class C, unsigned kThreads, int Deg>
struct SmemCoord;

template <class C, unsigned kThreads>
struct SmemCoord<C, kThreads, 1> {
  using SF = SmemField<C, kThreads>;
  using E = typename SF::Fp;
  static constexpr u32 kWidth = 1;
  static constexpr bool kSumOfProducts = true;  // mul2 below
  static __device__ __forceinline__ E get(u32 s) { return SF::get(s); }
  static __device__ __forceinline__ void put(u32 s, const E& v) { SF::put(s, v); }
  static __device__ __forceinline__ void mul(u32 r, u32 a, u32 b) {
    if (a == b) SF::sqr(r, a);
    else SF::mul(r, a, b);
  }
  static __device__ __forceinline__ void mul2(u32 r, u32 a, u32 b, u32 c, u32 d) { SF::mul2(r, a, b, c, d); }
  static __device__ __forceinline__ void copy_async(u32 s, const E* src) { SF::copy_async(s, src); }
};

// Fp2 in two Fq slots; the products run in registers (one out-of-line copy), so no slot is
// spent on temporaries: 14 Fq slots per G2 thread instead of 17 with the Karatsuba terms in
// slots, 5 blocks of 64 per SM instead of 2 of 128.
template <class C, unsigned kThreads>
struct SmemCoord<C, kThreads, 2> {
  using SF = SmemField<C, kThreads>;
  using Fp = typename SF::Fp;
  using E = DevFp2<Fp>;
  // No mul2: a G2 a b + c d with one reduction per component (6 double-width products, 2
  // reductions) made the level-0 accumulation slower (G2 2^20 28.4 -> 31.3 ms, H200).
  static constexpr bool kSumOfProducts = false;
  static constexpr u32 kWidth = 2;
  static constexpr u32 kNext = SF::Q * kThreads;  // index distance of consecutive Fq slots
  static __device__ __forceinline__ E get(u32 s) { return E{SF::get(s), SF::get(s + kNext)}; }
  static __device__ __forceinline__ void put(u32 s, const E& v) {
    SF::put(s, v.c0);
    SF::put(s + kNext, v.c1);
  }
  // r = a b (DevFp2::mul_lazy: Karatsuba with deferred reductions), or
  // a^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u when a == b; r may be a or b.
  static __device__ __noinline__ void mul(u32 r, u32 a, u32 b) {
    const E x = get(a);
    if (a == b) {
      Fp c0, c1;
      Fp::mont_mul(c0.l, (x.c0 + x.c1).l, (x.c0 - x.c1).l);
      Fp::mont_mul(c1.l, x.c0.l, x.c1.l);
      put(r, E{c0, c1.dbl()});
      return;
    }
    put(r, E::mul_lazy(x, get(b)));
  }
  static __device__ __forceinline__ void copy_async(u32 s, const E* src) {
    SF::copy_async(s, &src->c0);
    SF::copy_async(s + kNext, &src->c1);
  }
};

}  // namespace cuzk::gpu::msmk
