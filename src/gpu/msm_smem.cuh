// Level 0 of the G1 bucket accumulation with the product's operands in shared memory
// (private to src/gpu): chunk_sum_smem_kernel<C>, the same work as chunk_sum_kernel for
// DevFp coordinates.
//
// Why: with operands in registers, every out-of-line product call moved its 2 x 12 input and
// 12 output words between the caller's registers and the call's (the disassembly of
// chunk_sum_kernel, BLS12-381 G1: 241 IMAD.MOV + 69 MOV per mixed addition), and the kernel
// needed 166 registers (3 blocks of 128 per SM). Here each thread keeps its accumulator, its two
// prefetched points and one temporary in shared-memory slots; the product takes three slot
// indices, loads its operands (LDS.128) and stores its result; the next point is copied into
// shared memory with cp.async while the current one is added. 78 registers, 4 blocks per SM
// (shared memory bound), 21 moves per mixed addition. Measured on the H200 (bench/RESULTS.md,
// eighth session): G1 2^26 accumulation 367.4 -> 362.4 ms; in both kernels the IMAD.WIDE pipe
// is ~90% busy (ncu), so the moves had mostly run beside it.
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
  // slot r = a - b (or -(a + b) when neg); true when the result is zero.
  static __device__ __forceinline__ bool sub(u32 r, u32 a, u32 b, bool neg = false) {
    const Fp v = neg ? -(get(a) + get(b)) : get(a) - get(b);
    put(r, v);
    return v.is_zero();
  }
  static __device__ __forceinline__ bool is_zero(u32 s) {
    u32 x[N];
    load(x, s);
    u32 acc = 0;
#pragma unroll
    for (int k = 0; k < N; ++k) acc |= x[k];
    return acc == 0;
  }
  // cp.async of element i of a device array of 16-byte aligned N-word elements into slot s
  // (completes at the next cp.async.wait_group that covers it).
  static __device__ __forceinline__ void copy_async(u32 s, const Fp* src) {
    const uint4* g = reinterpret_cast<const uint4*>(src);
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const u32 dst = static_cast<u32>(__cvta_generic_to_shared(&msm_smem[s + q * kThreads]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(g + q) : "memory");
    }
  }
};

// Thread t of chunk_sum_kernel's work (entries [tS, min(tS + S, e))) with shared-memory
// operands: the mixed additions of madd-2008-s (DevXyzz::add_mixed) slot by slot, with the
// same exceptional cases (a point at infinity is skipped, P = acc doubles the accumulator,
// P = -acc gives infinity). Blocks of kThreads; dynamic shared memory
// kSlots Q 16 kThreads bytes (smem_bytes()).
template <class C, unsigned kThreads>
struct ChunkSumSmem {
  using SF = SmemField<C, kThreads>;
  using Fp = typename SF::Fp;
  using X = DevXyzz<Fp>;
  // Slots: the accumulator (X, Y, ZZ, ZZZ), one temporary, two point buffers (x, y).
  enum : u32 { kX, kY, kZZ, kZZZ, kT, kP0x, kP0y, kP1x, kP1y, kSlots };
  static constexpr std::size_t smem_bytes() { return std::size_t{kSlots} * SF::Q * 16 * kThreads; }

  static __device__ __forceinline__ X get_acc() {
    return X{SF::get(SF::slot(kX)), SF::get(SF::slot(kY)), SF::get(SF::slot(kZZ)), SF::get(SF::slot(kZZZ))};
  }

  // acc = 2 acc (dbl-2008-s-1, as DevXyzz::dbl), u and v two free slots. In registers this
  // rare case held the whole accumulator across calls and made the kernel spill.
  static __device__ __noinline__ void dbl_acc(u32 u, u32 v) {
    const u32 x = SF::slot(kX), y = SF::slot(kY), zz = SF::slot(kZZ), zzz = SF::slot(kZZZ), t = SF::slot(kT);
    SF::put(u, SF::get(y).dbl());  // U = 2Y
    SF::mul(t, u, u);              // V = U^2
    SF::mul(u, u, t);              // W = U V
    SF::mul(v, x, t);              // S = X V
    SF::mul(zz, zz, t);            // ZZ3 = V ZZ
    SF::mul(zzz, zzz, u);          // ZZZ3 = W ZZZ
    SF::mul(y, u, y);              // W Y
    SF::mul(t, x, x);
    SF::put(t, SF::get(t).dbl() + SF::get(t));        // M = 3 X^2
    SF::mul(x, t, t);
    SF::put(x, SF::get(x) - SF::get(v).dbl());        // X3 = M^2 - 2S
    SF::sub(v, v, x);                                 // S - X3
    SF::mul(v, t, v);                                 // M (S - X3)
    SF::sub(y, v, y);                                 // Y3 = M (S - X3) - W Y
  }

  // acc += (px, py) (negated when neg); inf: the accumulator is infinity. px/py are
  // clobbered.
  static __device__ __forceinline__ void add_point(u32 px, u32 py, bool neg, bool& inf) {
    if (SF::is_zero(px) && SF::is_zero(py)) return;  // the point at infinity
    const u32 x = SF::slot(kX), y = SF::slot(kY), zz = SF::slot(kZZ), zzz = SF::slot(kZZZ), t = SF::slot(kT);
    if (inf) {
      SF::put(x, SF::get(px));
      SF::put(y, neg ? -SF::get(py) : SF::get(py));
      SF::put(zz, Fp::one());
      SF::put(zzz, Fp::one());
      inf = false;
      return;
    }
    SF::mul(px, px, zz);                     // U2 = x2 ZZ
    const bool p0 = SF::sub(px, px, x);      // P = U2 - X
    SF::mul(py, py, zzz);                    // S2 = y2 ZZZ (of the unnegated point)
    const bool r0 = SF::sub(py, py, y, neg);  // R = S2 - Y, or -S2 - Y for the negated point
    if (p0) {                                // the point is +-acc
      if (r0) dbl_acc(px, py);
      else inf = true;
      return;
    }
    SF::mul(t, px, px);    // PP
    SF::mul(px, px, t);    // PPP
    SF::mul(zz, zz, t);    // ZZ3 = ZZ PP
    SF::mul(t, x, t);      // Q = X PP
    SF::mul(zzz, zzz, px);  // ZZZ3 = ZZZ PPP
    SF::mul(y, y, px);     // Y PPP
    SF::mul(x, py, py);    // R^2
    SF::put(x, SF::get(x) - SF::get(px) - SF::get(t).dbl());  // X3 = R^2 - PPP - 2Q
    SF::sub(t, t, x);      // Q - X3
    SF::mul(t, py, t);     // R (Q - X3)
    SF::sub(y, t, y);      // Y3 = R (Q - X3) - Y PPP
  }
};

template <class C, int MinBlocks>
__global__ void __launch_bounds__(128, MinBlocks)
    chunk_sum_smem_kernel(const u32* keys, const u32* vals, const DevAffine<DevFp<C, true>>* pts, const u32* start,
                          const u32* poff, u32 nseg, u32 S, u32 e, DevXyzz<DevFp<C, true>>* out) {
  using K = ChunkSumSmem<C, 128>;
  using SF = typename K::SF;
  const u64 t = gid();
  if (t * S >= e) return;
  const u32 k0 = static_cast<u32>(t * S), kend = min(e, k0 + S);
  u32 cur = keys[k0];
  if (cur >= nseg) return;
  const auto fetch = [&](u32 k) {
    const auto* p = pts + (vals[k] & ~kNegBit);
    const u32 b = (k - k0) & 1;
    SF::copy_async(SF::slot(b ? K::kP1x : K::kP0x), &p->x);
    SF::copy_async(SF::slot(b ? K::kP1y : K::kP0y), &p->y);
  };
  const auto flush = [&](bool inf) {
    stv(out + poff[cur] + (t - start[cur] / S), inf ? DevXyzz<DevFp<C, true>>::infinity() : K::get_acc());
  };
  bool inf = true;
  fetch(k0);
  asm volatile("cp.async.commit_group;" ::: "memory");
  for (u32 k = k0; k < kend; ++k) {
    if (k + 1 < kend) fetch(k + 1);
    asm volatile("cp.async.commit_group;" ::: "memory");
    const u32 b = keys[k];
    if (b != cur) {
      flush(inf);
      cur = b;
      if (cur >= nseg) break;
      inf = true;
    }
    asm volatile("cp.async.wait_group 1;" ::: "memory");  // entry k's point has landed
    const u32 buf = (k - k0) & 1;
    K::add_point(SF::slot(buf ? K::kP1x : K::kP0x), SF::slot(buf ? K::kP1y : K::kP0y), (vals[k] & kNegBit) != 0, inf);
  }
  asm volatile("cp.async.wait_all;" ::: "memory");  // no copy may land after the thread exits
  if (cur < nseg) flush(inf);
}

}  // namespace cuzk::gpu::msmk
