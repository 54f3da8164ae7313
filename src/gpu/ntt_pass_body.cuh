// The device NTT's pass: a tile of levels of the CPU's Cooley-Tukey layout in shared memory,
// on values kept below 2p (Lazy2p). Host-callable as well (private to src/gpu and its tests):
// ntt_pass.cuh launches it as the kernel, gpu_ntt_pass_twin_test runs it on the CPU.
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_fp_lazy.cuh"
#include "dev_mem.cuh"

namespace cuzk::gpu::kern {

// The block's barrier on the device; nothing on the host, where one thread runs the block.
CUZK_HD void block_sync() {
#if defined(__CUDA_ARCH__)
  __syncthreads();
#endif
}

// Element scalings a pass can apply to its inputs as it loads them (first pass only):
// none, tab(g) for global index g, or tab((n - bitrev(g)) mod n) (the coefficient index held
// at position g after a Cooley-Tukey pass set used as an inverse transform, see ntt.cu).
enum ScaleMap : int { kScaleNone = 0, kScaleIndex = 1, kScaleNegRev = 2 };

// The twiddle w^bitrev(k) of group k (NttPlan's tables): lo[k] from one table (kSplit =
// false: it holds every k < n/2), or with kSplit, for k of 2^bits and above, the product
// lo[k mod 2^bits] * hi[k >> bits] (reduced, below p).
template <class D, bool kSplit>
struct Twiddles {
  const D* lo;
  const D* hi;
  int bits;
  CUZK_HD bool composed(std::uint64_t k) const { return kSplit && (k >> bits) != 0; }
  CUZK_HD D at(std::uint64_t k) const {
    if constexpr (kSplit) {
      const std::uint64_t j = k >> bits;
      if (j != 0) return ld(lo + (k & ((std::uint64_t{1} << bits) - 1))) * ld(hi + j);
    }
    return ld(lo + k);
  }
};
// One twiddle already formed, whatever the group (butterfly2).
template <class D>
struct OneTwiddle {
  D w;
  CUZK_HD const D& at(std::uint64_t) const { return w; }
};

// The butterflies on values below 2p (twiddles below p are the products' multiplicands).
// Cooley-Tukey: (a, b) -> (a + w b, a - w b); Gentleman-Sande: (a, b) -> (a + b, (a - b) w).
// k == 0 is the twiddle 1 (no product).
template <class D, bool kGs, class T>
CUZK_HD void butterfly(D& a, D& b, const T& tw, std::uint64_t k) {
  using L = Lazy2p<typename D::Params>;
  if constexpr (kGs) {
    const D s = L::add(a, b);
    b = L::sub(a, b);
    a = s;
    if (k != 0) b = L::mul(tw.at(k), b);
  } else {
    if (k != 0) b = L::mul(tw.at(k), b);
    const D s = L::add(a, b);
    b = L::sub(a, b);
    a = s;
  }
}
// Two butterflies of group k: a composed twiddle is formed once for both.
template <class D, bool kGs, bool kSplit>
CUZK_HD void butterfly2(D& a0, D& b0, D& a1, D& b1, const Twiddles<D, kSplit>& tw, std::uint64_t k) {
  if (tw.composed(k)) {
    const OneTwiddle<D> w{tw.at(k)};
    butterfly<D, kGs>(a0, b0, w, 1);
    butterfly<D, kGs>(a1, b1, w, 1);
    return;
  }
  butterfly<D, kGs>(a0, b0, tw, k);
  butterfly<D, kGs>(a1, b1, tw, k);
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
// kSplit: the plan's compact twiddle table (Twiddles).
// This is the work of block `block`, run by thread `thread` of `threads` (ntt_pass_kernel's);
// `sm` holds the tile (2^(t + log_c) elements). One thread of one runs the whole block (the
// CPU twin of the kernel, gpu_ntt_pass_twin_test): its loops then cover every element.
template <class D, bool kGs, int kLogTile, bool kR4, bool kSplit>
CUZK_HD void ntt_pass_block(std::uint64_t block, std::uint32_t thread, std::uint32_t threads, std::uint32_t* sm,
                            D* x, int log_n, int s, int t, int log_c, Twiddles<D, kSplit> tw, int scale_map,
                            PowTab<D> scale, bool reduce_out) {
  constexpr int N = D::N;
  using L = Lazy2p<typename D::Params>;
  const int log_tile = kLogTile != 0 ? kLogTile : t + log_c;
  const std::uint32_t tile = 1u << log_tile;
  const std::uint64_t stride = std::uint64_t{1} << (log_n - s - t);
  const std::uint64_t cblocks = stride >> log_c;
  const std::uint64_t k0 = block / cblocks, cb = block % cblocks;
  const std::uint64_t base = k0 * (std::uint64_t{1} << (log_n - s)) + (cb << log_c);
  const std::uint32_t cmask = (1u << log_c) - 1;
  const std::uint64_t nmask = (std::uint64_t{1} << log_n) - 1;
  auto load = [&](std::uint32_t i) {
    D v;
CUZK_UNROLL
    for (int w = 0; w < N; ++w) v.l[w] = sm[w * tile + i];
    return v;
  };
  auto store = [&](std::uint32_t i, const D& v) {
CUZK_UNROLL
    for (int w = 0; w < N; ++w) sm[w * tile + i] = v.l[w];
  };

  for (std::uint32_t e = thread; e < tile; e += threads) {
    const std::uint64_t g = base + std::uint64_t{e >> log_c} * stride + (e & cmask);
    D v = ld(x + g);
    if (scale_map == kScaleIndex) v = scale.at(g) * v;
    else if (scale_map == kScaleNegRev) v = scale.at((nmask + 1 - bitrev(g, log_n)) & nmask) * v;
    store(e, v);
  }
  block_sync();
  int step = 0;
  if constexpr (kR4) {
    for (; step + 2 <= t; step += 2) {
      const int h = kGs ? step : t - 2 - step;  // log2 of the smaller distance, in rows
      const int ub = t - 2 - h;                 // the level of distance 2^(h+1)
      for (std::uint32_t b = thread; b < tile / 4; b += threads) {
        const std::uint32_t c = b & cmask, q = b >> log_c;
        const std::uint32_t grp = q >> h, j = q & ((1u << h) - 1);
        const std::uint32_t i0 = (((grp << (h + 2)) + j) << log_c) + c, d = 1u << (h + log_c);
        D v0 = load(i0), v1 = load(i0 + d), v2 = load(i0 + 2 * d), v3 = load(i0 + 3 * d);
        const std::uint64_t kb = (k0 << ub) + grp, ks = (k0 << (ub + 1)) + 2 * grp;
        if constexpr (kGs) {
          butterfly<D, true>(v0, v1, tw, ks);
          butterfly<D, true>(v2, v3, tw, ks + 1);
          butterfly2<D, true>(v0, v2, v1, v3, tw, kb);
        } else {
          butterfly2<D, false>(v0, v2, v1, v3, tw, kb);
          butterfly<D, false>(v0, v1, tw, ks);
          butterfly<D, false>(v2, v3, tw, ks + 1);
        }
        store(i0, v0), store(i0 + d, v1), store(i0 + 2 * d, v2), store(i0 + 3 * d, v3);
      }
      block_sync();
    }
  }
  for (; step < t; ++step) {
    const int u = kGs ? t - 1 - step : step;
    const int hb = t - 1 - u;  // log2 of the butterfly distance, in rows
    for (std::uint32_t b = thread; b < tile / 2; b += threads) {
      const std::uint32_t c = b & cmask, q = b >> log_c;
      const std::uint32_t grp = q >> hb, j = q & ((1u << hb) - 1);
      const std::uint32_t r0 = (grp << (hb + 1)) + j;
      const std::uint32_t i0 = (r0 << log_c) + c, i1 = ((r0 + (1u << hb)) << log_c) + c;
      D a = load(i0), y = load(i1);
      butterfly<D, kGs>(a, y, tw, (k0 << u) + grp);
      store(i0, a), store(i1, y);
    }
    block_sync();
  }
  for (std::uint32_t e = thread; e < tile; e += threads) {
    const std::uint64_t g = base + std::uint64_t{e >> log_c} * stride + (e & cmask);
    D v = load(e);
    if (reduce_out) v = L::reduce(v);
    st(x + g, v);
  }
}

}  // namespace cuzk::gpu::kern
