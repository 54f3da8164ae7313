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
