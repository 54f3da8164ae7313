// Device kernels of the GPU backend (private to src/gpu): element-wise field ops and the
// NTT building blocks. D = DevField<F>.
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_params.cuh"

namespace cuzk::gpu::kern {

// Loads/stores of one element as 16-byte vectors (elements are 32 or 48 bytes, and
// cudaMalloc'd arrays of them are 16-byte aligned).
template <class D>
__device__ __forceinline__ D ld(const D* p) {
  static_assert(D::N % 4 == 0);
  D r;
  const uint4* q = reinterpret_cast<const uint4*>(p);
#pragma unroll
  for (int k = 0; k < D::N / 4; ++k) {
    const uint4 v = q[k];
    r.l[4 * k] = v.x, r.l[4 * k + 1] = v.y, r.l[4 * k + 2] = v.z, r.l[4 * k + 3] = v.w;
  }
  return r;
}
template <class D>
__device__ __forceinline__ void st(D* p, const D& v) {
  uint4* q = reinterpret_cast<uint4*>(p);
#pragma unroll
  for (int k = 0; k < D::N / 4; ++k) q[k] = make_uint4(v.l[4 * k], v.l[4 * k + 1], v.l[4 * k + 2], v.l[4 * k + 3]);
}

__device__ __forceinline__ std::uint64_t global_id() {
  return std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
}

// c * w^i from a PowerTable's device arrays.
template <class D>
struct PowTab {
  const D* lo;
  const D* hi;
  int bits;
  __device__ __forceinline__ D at(std::uint64_t i) const {
    return ld(lo + (i & ((std::uint64_t{1} << bits) - 1))) * ld(hi + (i >> bits));
  }
};

enum Op : int { kAdd, kSub, kMul, kSqr, kNeg, kMulF64 };  // FieldOp's order

template <class D>
__global__ void field_op_kernel(int op, const D* a, const D* b, D* out, std::uint64_t n) {
  const std::uint64_t i = global_id();
  if (i >= n) return;
  const D x = ld(a + i);
  D r;
  switch (op) {
    case kAdd: r = x + ld(b + i); break;
    case kSub: r = x - ld(b + i); break;
    case kMul: r = x * ld(b + i); break;
    case kSqr: r = x.square(); break;
    case kMulF64: r = x.mul_f64(ld(b + i)); break;
    default: r = -x; break;
  }
  st(out + i, r);
}

template <class D>
__global__ void mul_chain_kernel(D* x, const D* y, std::uint64_t n, int reps) {
  const std::uint64_t i = global_id();
  if (i >= n) return;
  D a = ld(x + i);
  const D b = ld(y + i);
  for (int r = 0; r < reps; ++r) a = a * b;
  st(x + i, a);
}

template <class D>
__global__ void mul_sub_kernel(D* a, const D* b, const D* c, std::uint64_t n) {
  const std::uint64_t i = global_id();
  if (i >= n) return;
  st(a + i, ld(a + i) * ld(b + i) - ld(c + i));
}

__device__ __forceinline__ std::uint64_t bitrev(std::uint64_t v, int bits) {
  return bits == 0 ? 0 : __brevll(v) >> (64 - bits);
}

// tw[k] = w^bitrev(k) over `bits` bits, k < count.
template <class D>
__global__ void twiddle_kernel(D* tw, std::uint64_t count, int bits, PowTab<D> w) {
  const std::uint64_t k = global_id();
  if (k < count) st(tw + k, w.at(bitrev(k, bits)));
}

// In-place bit-reversal permutation over log_n bits.
template <class D>
__global__ void bitrev_kernel(D* x, int log_n) {
  const std::uint64_t i = global_id();
  if (i >> log_n) return;
  const std::uint64_t j = bitrev(i, log_n);
  if (i < j) {
    const D a = ld(x + i), b = ld(x + j);
    st(x + i, b);
    st(x + j, a);
  }
}

// x_new[i] = f(i) * x_old[(n - i) mod n], f(i) = c (plain) or tab(i) = c * g^i.
template <class D>
__global__ void reverse_scale_kernel(D* x, std::uint64_t n, bool plain, D c, PowTab<D> tab) {
  const std::uint64_t i = global_id();
  if (i > n / 2) return;
  auto f = [&](std::uint64_t k) { return plain ? c : tab.at(k); };
  if (i == 0 || 2 * i == n) {
    st(x + i, ld(x + i) * f(i));
    return;
  }
  const D a = ld(x + i), b = ld(x + (n - i));
  st(x + i, b * f(i));
  st(x + (n - i), a * f(n - i));
}

// Element scalings a pass can apply to its inputs as it loads them (first pass only):
// none, tab(g) for global index g, or tab((n - bitrev(g)) mod n) (the coefficient index held
// at position g after a Cooley-Tukey pass set used as an inverse transform, see ntt.cu).
enum ScaleMap : int { kScaleNone = 0, kScaleIndex = 1, kScaleNegRev = 2 };

// One NTT pass: levels s .. s+t-1 of the CPU's Cooley-Tukey layout (level s has 2^s
// groups of n >> s elements; group k uses twiddle tw[k] for all its butterflies).
// A block owns a tile of 2^t rows x 2^log_c columns: row r, column c is element
// k0 * (n >> s) + r * stride + c0 + c, stride = n >> (s+t); the t levels run in shared
// memory (limb-major, so consecutive threads hit consecutive banks).
// kGs = false: Cooley-Tukey butterflies (a, b) -> (a + w b, a - w b), levels in increasing
// order (natural in, bit-reversed out). kGs = true: Gentleman-Sande butterflies
// (a, b) -> (a + b, (a - b) w) over the same twiddles, levels in decreasing order, the
// passes run last to first: with the table of w^bitrev(k) it maps a bit-reversed input to
// the natural-order NTT with root w (each level undoes a Cooley-Tukey level of root w^-1).
// kLogTile: t + log_c when known at compile time (0: at run time). Known, the limb planes of
// the tile sit at constant offsets, so each shared-memory access needs no address arithmetic.
template <class D, bool kGs, int kLogTile>
__global__ void __launch_bounds__(256) ntt_pass_kernel(D* x, int log_n, int s, int t, int log_c, const D* tw,
                                                       int scale_map, PowTab<D> scale) {
  extern __shared__ std::uint32_t sm[];
  constexpr int N = D::N;
  const int log_tile = kLogTile != 0 ? kLogTile : t + log_c;
  const std::uint32_t tile = 1u << log_tile;
  const std::uint64_t stride = std::uint64_t{1} << (log_n - s - t);
  const std::uint64_t cblocks = stride >> log_c;
  const std::uint64_t k0 = blockIdx.x / cblocks, cb = blockIdx.x % cblocks;
  const std::uint64_t base = k0 * (std::uint64_t{1} << (log_n - s)) + (cb << log_c);
  const std::uint32_t cmask = (1u << log_c) - 1;
  const std::uint64_t nmask = (std::uint64_t{1} << log_n) - 1;

  for (std::uint32_t e = threadIdx.x; e < tile; e += blockDim.x) {
    const std::uint64_t g = base + std::uint64_t{e >> log_c} * stride + (e & cmask);
    D v = ld(x + g);
    if (scale_map == kScaleIndex) v = v * scale.at(g);
    else if (scale_map == kScaleNegRev) v = v * scale.at((nmask + 1 - bitrev(g, log_n)) & nmask);
#pragma unroll
    for (int w = 0; w < N; ++w) sm[w * tile + e] = v.l[w];
  }
  __syncthreads();
  for (int step = 0; step < t; ++step) {
    const int u = kGs ? t - 1 - step : step;
    const int hb = t - 1 - u;  // log2 of the butterfly distance, in rows
    for (std::uint32_t b = threadIdx.x; b < tile / 2; b += blockDim.x) {
      const std::uint32_t c = b & cmask, q = b >> log_c;
      const std::uint32_t grp = q >> hb, j = q & ((1u << hb) - 1);
      const std::uint32_t r0 = (grp << (hb + 1)) + j;
      const std::uint32_t i0 = (r0 << log_c) + c, i1 = ((r0 + (1u << hb)) << log_c) + c;
      D a, y;
#pragma unroll
      for (int w = 0; w < N; ++w) a.l[w] = sm[w * tile + i0], y.l[w] = sm[w * tile + i1];
      const std::uint64_t k = (k0 << u) + grp;
      D lo, hi;
      if constexpr (kGs) {
        lo = a + y;
        hi = a - y;
        if (k != 0) hi = hi * ld(tw + k);
      } else {
        if (k != 0) y = y * ld(tw + k);
        lo = a + y;
        hi = a - y;
      }
#pragma unroll
      for (int w = 0; w < N; ++w) sm[w * tile + i0] = lo.l[w], sm[w * tile + i1] = hi.l[w];
    }
    __syncthreads();
  }
  for (std::uint32_t e = threadIdx.x; e < tile; e += blockDim.x) {
    const std::uint64_t g = base + std::uint64_t{e >> log_c} * stride + (e & cmask);
    D v;
#pragma unroll
    for (int w = 0; w < N; ++w) v.l[w] = sm[w * tile + e];
    st(x + g, v);
  }
}

// x_new[i] = tab(i) * x_old[bitrev(i)] (the bit-reversal permutation and a scaling in one pass).
template <class D>
__global__ void bitrev_scale_kernel(D* x, int log_n, PowTab<D> tab) {
  const std::uint64_t i = global_id();
  if (i >> log_n) return;
  const std::uint64_t j = bitrev(i, log_n);
  if (i > j) return;
  const D a = ld(x + i), b = ld(x + j);
  st(x + i, b * tab.at(i));
  if (i != j) st(x + j, a * tab.at(j));
}

}  // namespace cuzk::gpu::kern
