// Level 0 of the bucket accumulation (private to src/gpu): chunk_sum_smem_kernel, G1 and G2.
//
// Load-balanced over entries rather than segments: thread t adds the affine points of the
// sorted entries [tS, min(tS + S, e)) whatever segments (buckets) they belong to, and writes
// one partial sum per segment b it meets, to out[poff[b] + t - start[b] / S] (poff: exclusive
// scan of chunk_pieces_kernel). So every thread of a warp does S additions (bar the last
// chunk and segment starts), where cutting each segment into pieces of S left short remainder
// pieces idling beside full ones (measured: 15.6 of 32 threads active in a level of such
// pieces). Keys >= nseg (zero digits, sorted last) end the work; without keys (the scalars
// equal to 1) the entries form one segment.
//
// The operands sit in shared memory. Why: with operands in registers (the kernel before,
// git history), every out-of-line product call moved its 2 x 12 input and 12 output words
// between the caller's registers and the call's (its disassembly, BLS12-381 G1: 241 IMAD.MOV
// + 69 MOV per mixed addition), and the kernel needed 166 registers (3 blocks of 128 per SM;
// G2 255 and one block). Here each thread keeps its accumulator, its point and one
// temporary in shared-memory slots; the product takes slot indices, loads its operands
// (LDS.128) and stores its result; each point is copied into its slots by cp.async. G1: 7 Fq
// slots, 86 registers, 5 blocks of 128 per SM (shared memory bound). Measured on the H200
// (bench/RESULTS.md): G1 2^26 accumulation 367.4 -> 362.4 ms with
// the operands in shared memory (the IMAD.WIDE pipe ~90% busy in both kernels: the moves had
// mostly run beside it); a second point buffer, copying the next point during the current
// addition, needs 9 slots and leaves 4 blocks per SM: 326 against 322.5 ms without it.
#pragma once

#include <cuda_runtime.h>

#include "msm_smem_field.cuh"

namespace cuzk::gpu::msmk {

// Thread t of level 0: the mixed additions of madd-2008-s (DevXyzz::add_mixed) slot by slot,
// with the same exceptional cases (a point at infinity is skipped, P = acc doubles the accumulator,
// P = -acc gives infinity). Co = SmemCoord<C, kThreads, Deg>. Dynamic shared memory:
// smem_bytes().
template <class Co, unsigned kThreads>
struct ChunkSumSmem {
  using SF = typename Co::SF;
  using E = typename Co::E;
  using X = DevXyzz<E>;
  // Elements: the accumulator (X, Y, ZZ, ZZZ), one temporary, the point (x, y).
  enum : u32 { kX, kY, kZZ, kZZZ, kT, kPx, kPy, kElems };
  static constexpr u32 kFqSlots = kElems * Co::kWidth;
  static constexpr std::size_t smem_bytes() { return std::size_t{kFqSlots} * SF::Q * 16 * kThreads; }
  static __device__ __forceinline__ u32 at(u32 elem) { return SF::slot(elem * Co::kWidth); }
  static __device__ __forceinline__ void mul(u32 r, u32 a, u32 b) { Co::mul(r, a, b); }
  // r = a - b (or -(a + b) when neg); true when the result is zero.
  static __device__ __forceinline__ bool sub(u32 r, u32 a, u32 b, bool neg = false) {
    const E v = neg ? -(Co::get(a) + Co::get(b)) : Co::get(a) - Co::get(b);
    Co::put(r, v);
    return v.is_zero();
  }

  static __device__ __forceinline__ X get_acc() {
    return X{Co::get(at(kX)), Co::get(at(kY)), Co::get(at(kZZ)), Co::get(at(kZZZ))};
  }

  // acc = 2 acc (dbl-2008-s-1, as DevXyzz::dbl), u and v two free slots. In registers this
  // rare case held the whole accumulator across calls and made the kernel spill.
  static __device__ __noinline__ void dbl_acc(u32 u, u32 v) {
    const u32 x = at(kX), y = at(kY), zz = at(kZZ), zzz = at(kZZZ), t = at(kT);
    Co::put(u, Co::get(y).dbl());  // U = 2Y
    mul(t, u, u);                  // V = U^2
    mul(u, u, t);                  // W = U V
    mul(v, x, t);                  // S = X V
    mul(zz, zz, t);                // ZZ3 = V ZZ
    mul(zzz, zzz, u);              // ZZZ3 = W ZZZ
    mul(y, u, y);                  // W Y
    mul(t, x, x);
    Co::put(t, Co::get(t).dbl() + Co::get(t));  // M = 3 X^2
    mul(x, t, t);
    Co::put(x, Co::get(x) - Co::get(v).dbl());  // X3 = M^2 - 2S
    sub(v, v, x);                               // S - X3
    mul(v, t, v);                               // M (S - X3)
    sub(y, v, y);                               // Y3 = M (S - X3) - W Y
  }

  // acc += (px, py) (negated when neg); inf: the accumulator is infinity. px/py are
  // clobbered.
  static __device__ __forceinline__ void add_point(u32 px, u32 py, bool neg, bool& inf) {
    if (Co::get(px).is_zero() && Co::get(py).is_zero()) return;  // the point at infinity
    const u32 x = at(kX), y = at(kY), zz = at(kZZ), zzz = at(kZZZ), t = at(kT);
    if (inf) {
      Co::put(x, Co::get(px));
      Co::put(y, neg ? -Co::get(py) : Co::get(py));
      Co::put(zz, E::one());
      Co::put(zzz, E::one());
      inf = false;
      return;
    }
    mul(px, px, zz);                      // U2 = x2 ZZ
    const bool p0 = sub(px, px, x);       // P = U2 - X
    mul(py, py, zzz);                     // S2 = y2 ZZZ (of the unnegated point)
    const bool r0 = sub(py, py, y, neg);  // R = S2 - Y, or -S2 - Y for the negated point
    if (p0) {                             // the point is +-acc
      if (r0) dbl_acc(px, py);
      else inf = true;
      return;
    }
    mul(t, px, px);     // PP
    mul(px, px, t);     // PPP
    mul(zz, zz, t);     // ZZ3 = ZZ PP
    mul(t, x, t);       // Q = X PP
    mul(zzz, zzz, px);  // ZZZ3 = ZZZ PPP
    mul(x, py, py);     // R^2
    Co::put(x, Co::get(x) - Co::get(px) - Co::get(t).dbl());  // X3 = R^2 - PPP - 2Q
    sub(t, t, x);       // Q - X3
    if constexpr (Co::kSumOfProducts) {
      Co::put(y, -Co::get(y));  // -Y
      Co::mul2(y, py, t, y, px);  // Y3 = R (Q - X3) + (-Y) PPP, one reduction
    } else {
      mul(y, y, px);  // Y PPP
      mul(t, py, t);  // R (Q - X3)
      sub(y, t, y);   // Y3 = R (Q - X3) - Y PPP
    }
  }
};

// Level 0 over the sorted entries with shared-memory operands (ChunkSumSmem), blocks of
// kThreads.
template <class C, int Deg, unsigned kThreads, int MinBlocks>
__global__ void __launch_bounds__(kThreads, MinBlocks)
    chunk_sum_smem_kernel(const u32* keys, const u32* vals,
                          const DevAffine<typename SmemCoord<C, kThreads, Deg>::E>* pts, const u32* start,
                          const u32* poff, u32 nseg, u32 S, u32 e,
                          DevXyzz<typename SmemCoord<C, kThreads, Deg>::E>* out) {
  using Co = SmemCoord<C, kThreads, Deg>;
  using K = ChunkSumSmem<Co, kThreads>;
  const u64 t = gid();
  if (t * S >= e) return;
  const u32 k0 = static_cast<u32>(t * S), kend = min(e, k0 + S);
  u32 cur = keys ? keys[k0] : 0;  // no keys: one segment
  if (cur >= nseg) return;
  const auto fetch = [&](u32 k) {
    const auto* p = pts + (vals[k] & ~kNegBit);
    Co::copy_async(K::at(K::kPx), &p->x);
    Co::copy_async(K::at(K::kPy), &p->y);
    asm volatile("cp.async.commit_group;" ::: "memory");
  };
  const auto flush = [&](bool inf) {
    stv(out + poff[cur] + (t - start[cur] / S), inf ? K::X::infinity() : K::get_acc());
  };
  bool inf = true;
  for (u32 k = k0; k < kend; ++k) {
    fetch(k);
    const u32 b = keys ? keys[k] : 0;
    if (b != cur) {
      flush(inf);
      cur = b;
      if (cur >= nseg) break;
      inf = true;
    }
    asm volatile("cp.async.wait_group 0;" ::: "memory");  // entry k's point landed
    K::add_point(K::at(K::kPx), K::at(K::kPy), (vals[k] & kNegBit) != 0, inf);
  }
  asm volatile("cp.async.wait_all;" ::: "memory");  // no copy may land after the thread exits
  if (cur < nseg) flush(inf);
}

}  // namespace cuzk::gpu::msmk
