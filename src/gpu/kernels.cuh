// Device kernels of the GPU backend (private to src/gpu): element-wise field ops and the
// NTT building blocks. D = DevField<F>.
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_params.cuh"
#include "dev_mem.cuh"

namespace cuzk::gpu::kern {

__device__ __forceinline__ std::uint64_t global_id() {
  return std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
}

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
