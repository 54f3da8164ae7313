// The device NTT's pass kernel (private to src/gpu/ntt.cu): a tile of levels of the CPU's
// Cooley-Tukey layout in shared memory, on values kept below 2p (Lazy2p).
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_fp_lazy.cuh"
#include "kernels.cuh"

namespace cuzk::gpu::kern {

// Element scalings a pass can apply to its inputs as it loads them (first pass only):
// none, tab(g) for global index g, or tab((n - bitrev(g)) mod n) (the coefficient index held
// at position g after a Cooley-Tukey pass set used as an inverse transform, see ntt.cu).
enum ScaleMap : int { kScaleNone = 0, kScaleIndex = 1, kScaleNegRev = 2 };

// The butterflies on values below 2p (twiddles below p are the products' multiplicands).
// Cooley-Tukey: (a, b) -> (a + w b, a - w b); Gentleman-Sande: (a, b) -> (a + b, (a - b) w).
// k == 0 is the twiddle 1 (no product).
template <class D, bool kGs>
__device__ __forceinline__ void butterfly(D& a, D& b, const D* tw, std::uint64_t k) {
  using L = Lazy2p<typename D::Params>;
  if constexpr (kGs) {
    const D s = L::add(a, b);
    b = L::sub(a, b);
    a = s;
    if (k != 0) b = L::mul(ld(tw + k), b);
  } else {
    if (k != 0) b = L::mul(ld(tw + k), b);
    const D s = L::add(a, b);
    b = L::sub(a, b);
    a = s;
  }
}

// One NTT pass: levels s .. s+t-1 of the CPU's Cooley-Tukey layout (level s has 2^s
// groups of n >> s elements; group k uses twiddle tw[k] for all its butterflies).
// A block owns a tile of 2^t rows x 2^log_c columns: row r, column c is element
// k0 * (n >> s) + r * stride + c0 + c, stride = n >> (s+t); the t levels run in shared
// memory (limb-major, so consecutive threads hit consecutive banks).
// kGs = false: Cooley-Tukey butterflies, levels in increasing order (natural in, bit-reversed
// out). kGs = true: Gentleman-Sande butterflies over the same twiddles, levels in decreasing
// order, the passes run last to first: with the table of w^bitrev(k) it maps a bit-reversed
// input to the natural-order NTT with root w (each level undoes a Cooley-Tukey level of root
// w^-1).
// kR4: two levels per shared-memory round where two remain (4 rows per thread: rows
// r0 + {0, 1, 2, 3} 2^h close under the levels of distance 2^(h+1) and 2^h), else one.
// Values between passes are below 2p; reduce_out (the set's last pass) stores them below p.
// kLogTile: t + log_c when known at compile time (0: at run time). Known, the limb planes of
// the tile sit at constant offsets, so each shared-memory access needs no address arithmetic.
template <class D, bool kGs, int kLogTile, bool kR4>
__global__ void __launch_bounds__(256, kR4 ? 3 : 1)
    ntt_pass_kernel(D* x, int log_n, int s, int t, int log_c, const D* tw, int scale_map, PowTab<D> scale,
                    bool reduce_out) {
  extern __shared__ std::uint32_t sm[];
  constexpr int N = D::N;
  using L = Lazy2p<typename D::Params>;
  const int log_tile = kLogTile != 0 ? kLogTile : t + log_c;
  const std::uint32_t tile = 1u << log_tile;
  const std::uint64_t stride = std::uint64_t{1} << (log_n - s - t);
  const std::uint64_t cblocks = stride >> log_c;
  const std::uint64_t k0 = blockIdx.x / cblocks, cb = blockIdx.x % cblocks;
  const std::uint64_t base = k0 * (std::uint64_t{1} << (log_n - s)) + (cb << log_c);
  const std::uint32_t cmask = (1u << log_c) - 1;
  const std::uint64_t nmask = (std::uint64_t{1} << log_n) - 1;
  auto load = [&](std::uint32_t i) {
    D v;
#pragma unroll
    for (int w = 0; w < N; ++w) v.l[w] = sm[w * tile + i];
    return v;
  };
  auto store = [&](std::uint32_t i, const D& v) {
#pragma unroll
    for (int w = 0; w < N; ++w) sm[w * tile + i] = v.l[w];
  };

  for (std::uint32_t e = threadIdx.x; e < tile; e += blockDim.x) {
    const std::uint64_t g = base + std::uint64_t{e >> log_c} * stride + (e & cmask);
    D v = ld(x + g);
    if (scale_map == kScaleIndex) v = scale.at(g) * v;
    else if (scale_map == kScaleNegRev) v = scale.at((nmask + 1 - bitrev(g, log_n)) & nmask) * v;
    store(e, v);
  }
  __syncthreads();
  int step = 0;
  if constexpr (kR4) {
    for (; step + 2 <= t; step += 2) {
      const int h = kGs ? step : t - 2 - step;  // log2 of the smaller distance, in rows
      const int ub = t - 2 - h;                 // the level of distance 2^(h+1)
      for (std::uint32_t b = threadIdx.x; b < tile / 4; b += blockDim.x) {
        const std::uint32_t c = b & cmask, q = b >> log_c;
        const std::uint32_t grp = q >> h, j = q & ((1u << h) - 1);
        const std::uint32_t i0 = (((grp << (h + 2)) + j) << log_c) + c, d = 1u << (h + log_c);
        D v0 = load(i0), v1 = load(i0 + d), v2 = load(i0 + 2 * d), v3 = load(i0 + 3 * d);
        const std::uint64_t kb = (k0 << ub) + grp, ks = (k0 << (ub + 1)) + 2 * grp;
        if constexpr (kGs) {
          butterfly<D, true>(v0, v1, tw, ks);
          butterfly<D, true>(v2, v3, tw, ks + 1);
          butterfly<D, true>(v0, v2, tw, kb);
          butterfly<D, true>(v1, v3, tw, kb);
        } else {
          butterfly<D, false>(v0, v2, tw, kb);
          butterfly<D, false>(v1, v3, tw, kb);
          butterfly<D, false>(v0, v1, tw, ks);
          butterfly<D, false>(v2, v3, tw, ks + 1);
        }
        store(i0, v0), store(i0 + d, v1), store(i0 + 2 * d, v2), store(i0 + 3 * d, v3);
      }
      __syncthreads();
    }
  }
  for (; step < t; ++step) {
    const int u = kGs ? t - 1 - step : step;
    const int hb = t - 1 - u;  // log2 of the butterfly distance, in rows
    for (std::uint32_t b = threadIdx.x; b < tile / 2; b += blockDim.x) {
      const std::uint32_t c = b & cmask, q = b >> log_c;
      const std::uint32_t grp = q >> hb, j = q & ((1u << hb) - 1);
      const std::uint32_t r0 = (grp << (hb + 1)) + j;
      const std::uint32_t i0 = (r0 << log_c) + c, i1 = ((r0 + (1u << hb)) << log_c) + c;
      D a = load(i0), y = load(i1);
      butterfly<D, kGs>(a, y, tw, (k0 << u) + grp);
      store(i0, a), store(i1, y);
    }
    __syncthreads();
  }
  for (std::uint32_t e = threadIdx.x; e < tile; e += blockDim.x) {
    const std::uint64_t g = base + std::uint64_t{e >> log_c} * stride + (e & cmask);
    D v = load(e);
    if (reduce_out) v = L::reduce(v);
    st(x + g, v);
  }
}

}  // namespace cuzk::gpu::kern
