// GPU MSM kernels (private to src/gpu): digits, bucket bounds, piecewise accumulation,
// bucket reduction. X = DevXyzz<F>, A = DevAffine<F>. See include/cuzk/gpu/msm.hpp.
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_point.cuh"
#include "cuzk/gpu/msm_carries.hpp"

namespace cuzk::gpu::msmk {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
constexpr u32 kNegBit = 0x80000000u;

__device__ __forceinline__ u64 gid() { return u64{blockIdx.x} * blockDim.x + threadIdx.x; }

// 16-byte vector loads/stores of whole points (their sizes are multiples of 16 bytes and
// cudaMalloc'd arrays of them are 16-byte aligned).
template <class T>
__device__ __forceinline__ T ldv(const T* p) {
  static_assert(sizeof(T) % 16 == 0);
  T r;
  const uint4* s = reinterpret_cast<const uint4*>(p);
  uint4* d = reinterpret_cast<uint4*>(&r);
#pragma unroll
  for (int k = 0; k < int(sizeof(T) / 16); ++k) d[k] = s[k];
  return r;
}
template <class T>
__device__ __forceinline__ void stv(T* p, const T& v) {
  uint4* d = reinterpret_cast<uint4*>(p);
  const uint4* s = reinterpret_cast<const uint4*>(&v);
#pragma unroll
  for (int k = 0; k < int(sizeof(T) / 16); ++k) d[k] = s[k];
}

// Entry e of digit d of the batch's window w (0 <= w < wb) for point index i: key
// w B + |d| - 1, or the skip key wb B for d = 0; value i | sign bit.
__device__ __forceinline__ void put_digit(u32* keys, u32* vals, u64 e, int d, u32 w, u32 wb, u32 B, u32 i) {
  keys[e] = d == 0 ? wb * B : w * B + static_cast<u32>(d < 0 ? -d : d) - 1;
  vals[e] = i | (d < 0 ? kNegBit : 0u);
}

// Non-template kernels: internal linkage, this header is included by several .cu files.
namespace {
// Scalar i of the word planes canon (n scalars).
__device__ __forceinline__ void load_scalar(u32 (&s)[8], const u32* canon, u64 n, u32 i) {
#pragma unroll
  for (int k = 0; k < 8; ++k) s[k] = canon[u64(k) * n + i];
}

// For windows w0 .. w0+wb-1 of the m scalars listed in `others` (canon: word planes of n
// scalars): entry (w - w0) * m + j gets key (w - w0) * B + |d| - 1 (or the skip key wb * B for
// d = 0) and value point index | sign bit. Signed digits as in cuzk::msm::signed_digits.
__global__ void digits_kernel(const u32* canon, u64 n, const u32* others, u32 m, u32 c, u32 w0, u32 wb, u32 B,
                              u32* keys, u32* vals) {
  const u64 j = gid();
  if (j >= m) return;
  const u32 i = others[j];
  u32 s[8];
  load_scalar(s, canon, n, i);
  u32 carry = 0;
  for (u32 w = 0; w < w0 + wb; ++w) {
    const int d = signed_digit(scalar_window(s, w, c), carry, c);
    if (w >= w0) put_digit(keys, vals, u64{w - w0} * m + j, d, w - w0, wb, B, i);
  }
}

// masks[j] = the carries into the windows of scalar others[j] (msm_carries.hpp).
__global__ void carries_kernel(const u32* canon, u64 n, const u32* others, u32 m, u32 c, u32 windows, u32* masks) {
  const u64 j = gid();
  if (j >= m) return;
  u32 s[8];
  load_scalar(s, canon, n, others[j]);
  masks[j] = digit_carries(s, c, windows);
}

// digits_kernel with the carry masks: the one or two planes of each window, not all eight.
__global__ void masked_digits_kernel(const u32* canon, u64 n, const u32* masks, const u32* others, u32 m, u32 c,
                                     u32 w0, u32 wb, u32 B, u32* keys, u32* vals) {
  const u64 j = gid();
  if (j >= m) return;
  const u32 i = others[j], carries = masks[j];
  for (u32 w = w0; w < w0 + wb; ++w) {
    const u32 pos = w * c, wi = pos >> 5, off = pos & 31;
    const u32 lo = wi < 8 ? canon[u64{wi} * n + i] : 0u;
    const u32 hi = off + c > 32 && wi + 1 < 8 ? canon[u64{wi + 1} * n + i] : 0u;
    put_digit(keys, vals, u64{w - w0} * m + j, carried_digit(window_value(lo, hi, off, c), carries, w, c), w - w0, wb,
              B, i);
  }
}

// start/end (zeroed before) of each key's run in the sorted keys; keys >= nseg skipped.
__global__ void bounds_kernel(const u32* keys, u32 e, u32 nseg, u32* start, u32* end) {
  const u64 j = gid();
  if (j >= e) return;
  const u32 k = keys[j];
  if (k >= nseg) return;
  if (j == 0 || keys[j - 1] != k) start[k] = static_cast<u32>(j);
  if (j + 1 == e || keys[j + 1] != k) end[k] = static_cast<u32>(j + 1);
}

// pieces[b] = ceil((end[b] - start[b]) / S); pieces[nseg] = 0 (for the exclusive scan).
__global__ void pieces_kernel(const u32* start, const u32* end, u32 nseg, u32 S, u32* pieces) {
  const u64 b = gid();
  if (b > nseg) return;
  pieces[b] = b == nseg ? 0 : (end[b] - start[b] + S - 1) / S;
}

// pieces[b] = how many of the S-entry chunks [tS, tS + S) of the sorted entries overlap
// segment b (0 when it is empty); pieces[nseg] = 0 (for the exclusive scan).
__global__ void chunk_pieces_kernel(const u32* start, const u32* end, u32 nseg, u32 S, u32* pieces) {
  const u64 b = gid();
  if (b > nseg) return;
  pieces[b] = (b == nseg || end[b] <= start[b]) ? 0 : (end[b] - 1) / S - start[b] / S + 1;
}

}  // namespace

// Largest b with poff[b] <= t (t < poff[nseg]).
__device__ __forceinline__ u32 find_segment(const u32* poff, u32 nseg, u32 t) {
  u32 lo = 0, hi = nseg;  // poff[lo] <= t < poff[hi]
  while (hi - lo > 1) {
    const u32 mid = (lo + hi) >> 1;
    if (poff[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

// Task t sums the XYZZ partial sums [start[b] + j S, min(end[b], start[b] + (j+1) S)) of
// `in` of its segment b (j = t - poff[b]): the levels after level 0 (msm_smem.cuh).
// MinBlocks bounds the registers (blocks of 128 per SM; see MsmRun::kMinBlocks).
template <class F, int MinBlocks>
__global__ void __launch_bounds__(128, MinBlocks)
    piece_sum_kernel(const u32* start, const u32* end, const u32* poff, u32 nseg, u32 S, u32 total,
                     const DevXyzz<F>* in, DevXyzz<F>* out) {
  const u64 t = gid();
  if (t >= total) return;
  const u32 b = find_segment(poff, nseg, static_cast<u32>(t));
  const u32 lo = start[b] + (static_cast<u32>(t) - poff[b]) * S;
  const u32 hi = min(end[b], lo + S);
  DevXyzz<F> acc = DevXyzz<F>::infinity();
  for (u32 k = lo; k < hi; ++k) acc = acc + ldv(in + k);
  stv(out + t, acc);
}

// Level 0 with its operands in registers (the shared-memory kernel, msm_smem.cuh, is the
// default): thread t adds the affine points of the sorted entries [tS, min(tS + S, e)) whatever
// segments they belong to, and writes one partial sum per segment b it meets, to
// out[poff[b] + t - start[b] / S]. Keys >= nseg (zero digits, sorted last) end the work; no
// keys: one segment. Same arguments and results as chunk_sum_smem_kernel; MsmRun picks it where
// the device holds more of its threads (SMs with little shared memory).
template <class F, int MinBlocks>
__global__ void __launch_bounds__(128, MinBlocks)
    chunk_sum_kernel(const u32* keys, const u32* vals, const DevAffine<F>* pts, const u32* start, const u32* poff,
                     u32 nseg, u32 S, u32 e, DevXyzz<F>* out) {
  const u64 t = gid();
  if (t * S >= e) return;
  const u32 k0 = static_cast<u32>(t * S), kend = min(e, k0 + S);
  u32 cur = keys ? keys[k0] : 0;
  if (cur >= nseg) return;
  DevXyzz<F> acc = DevXyzz<F>::infinity();
  for (u32 k = k0; k < kend; ++k) {
    const u32 b = keys ? keys[k] : 0;
    if (b != cur) {
      stv(out + poff[cur] + (t - start[cur] / S), acc);
      cur = b;
      if (cur >= nseg) return;
      acc = DevXyzz<F>::infinity();
    }
    const u32 v = vals[k];
    DevAffine<F> p = ldv(pts + (v & ~kNegBit));
    if (v & kNegBit) p = -p;
    acc = acc.add_mixed(p);
  }
  stv(out + poff[cur] + (t - start[cur] / S), acc);
}

// dst[b] = the single partial sum of segment b (or infinity when it is empty).
template <class F>
__global__ void gather_kernel(const u32* pieces, const u32* poff, u32 nseg, const DevXyzz<F>* in, DevXyzz<F>* dst) {
  const u64 b = gid();
  if (b >= nseg) return;
  stv(dst + b, pieces[b] ? ldv(in + poff[b]) : DevXyzz<F>::infinity());
}

// Group g of window w, buckets [lo, lo + L), L = B/G (bucket b holds digit b + 1):
// T_g = sum_b (b - lo + 1) bucket_b (a running sum) and S_g = sum_b bucket_b.
template <class F>
__global__ void __launch_bounds__(128) bucket_groups_kernel(const DevXyzz<F>* buckets, u32 B, u32 G, u32 W,
                                                            DevXyzz<F>* tsum, DevXyzz<F>* ssum) {
  const u64 t = gid();
  if (t >= u64{W} * G) return;
  const u32 w = static_cast<u32>(t / G), g = static_cast<u32>(t % G);
  const u32 len = B / G, lo = g * len;
  const DevXyzz<F>* bk = buckets + u64{w} * B;
  DevXyzz<F> run = DevXyzz<F>::infinity(), tot = DevXyzz<F>::infinity();
  for (u32 b = lo + len; b-- > lo;) {
    run = run + ldv(bk + b);
    tot = tot + run;
  }
  stv(tsum + t, tot);
  stv(ssum + t, run);
}

// One fold of a window's reduction state before window_sum_kernel: G entries (T_g, S_g)
// per window standing for sum_g T_g + L sum_g g S_g (L = 2^log_l; after bucket_groups_kernel
// L = B/G) become G/M entries with L' = L M: entry h covers g in [hM, hM + M) and holds
//   T'_h = sum_g T_g + L sum_g (g - hM) S_g,  S'_h = sum_g S_g,
// since L g = L (g - hM) + L M h. Thread (w, h): M entries in running sums, log_l doublings.
// It spreads what one block per window did over W G / M threads (G2 2^20: the reduction took
// 19 of 61 ms with one block per window, 7.4 ms with the folds).
template <class F>
__global__ void __launch_bounds__(128) group_fold_kernel(const DevXyzz<F>* T, const DevXyzz<F>* S, u32 G, u32 M,
                                                         u32 log_l, u32 W, DevXyzz<F>* Tn, DevXyzz<F>* Sn) {
  using X = DevXyzz<F>;
  const u32 Gn = G / M;
  const u64 t = gid();
  if (t >= u64{W} * Gn) return;
  const u64 first = (t / Gn) * G + (t % Gn) * M;  // entry hM of window w
  // Two loops, so that at most two points are live at once (three spilled heavily for G2).
  X a = X::infinity();
  for (u32 g = M; g-- > 0;) a = a + ldv(T + first + g);
  stv(Tn + t, a);
  X acc = X::infinity(), run = X::infinity();
  for (u32 g = M; g-- > 0;) {
    acc = acc + run;
    run = run + ldv(S + first + g);
  }
  for (u32 i = 0; i < log_l; ++i) acc = acc.dbl();
  stv(Tn + t, ldv(Tn + t) + acc);
  stv(Sn + t, run);
}

// Block w: the window sum sum_g (T_g + g L S_g) = sum_g T_g + L sum_g g S_g. Thread h takes
// the groups [hK, hK + K) (K = G / blockDim.x): A_h = sum T_g, and
// B_h = sum_g (g - hK) S_g + hK sum_g S_g (a running sum and one small multiple); then both
// are tree-summed over the block (in place over tsum/ssum), and thread 0 writes
// A + L * B to out[w]. G and blockDim.x are powers of two, blockDim.x <= G.
template <class F>
__global__ void __launch_bounds__(256) window_sum_kernel(DevXyzz<F>* tsum, DevXyzz<F>* ssum, u32 G, u32 L,
                                                         DevXyzz<F>* out) {
  using X = DevXyzz<F>;
  X* T = tsum + u64{blockIdx.x} * G;
  X* S = ssum + u64{blockIdx.x} * G;
  const u32 h = threadIdx.x, K = G / blockDim.x, base = h * K;
  // T's sums first, then S's, so that at most two points are live at once (three spilled
  // heavily for G2); each array is written in place only after every thread has read it.
  {
    X a = X::infinity();
    for (u32 g = base + K; g-- > base;) a = a + ldv(T + g);
    __syncthreads();
    stv(T + h, a);
  }
  X acc = X::infinity(), run = X::infinity();
  for (u32 g = base + K; g-- > base;) {
    acc = acc + run;
    run = run + ldv(S + g);
  }
  if (base != 0 && !run.is_infinity()) acc = acc + run.mul_small(base);
  __syncthreads();
  stv(S + h, acc);
  __syncthreads();
  for (u32 s = blockDim.x / 2; s > 0; s >>= 1) {
    if (h < s) {
      stv(T + h, ldv(T + h) + ldv(T + h + s));
      stv(S + h, ldv(S + h) + ldv(S + h + s));
    }
    __syncthreads();
  }
  if (h == 0) stv(out + blockIdx.x, ldv(T) + ldv(S).mul_small(L));
}

}  // namespace cuzk::gpu::msmk
