// Element-wise field arithmetic on the GPU for the host field types (same bytes on both
// sides). Instantiated for bls12_381::{Fr,Fq} and bn254::{Fr,Fq}.
#pragma once

#include <cstddef>
#include <span>

namespace cuzk::gpu {

// kMulF64: the product through the FP64 pipe (DevFp::mul_f64), the same results as kMul.
enum class FieldOp { kAdd, kSub, kMul, kSqr, kNeg, kMulF64 };

// out[i] = a[i] op b[i] (b is ignored, may be null, for kSqr and kNeg) on device pointers
// of n elements; queued on the default stream. out may alias a or b.
template <class F>
void field_op_device(FieldOp op, const F* a, const F* b, F* out, std::size_t n);

// The same through host memory: uploads a and b, runs, downloads into out (all size n).
template <class F>
void field_op(FieldOp op, std::span<const F> a, std::span<const F> b, std::span<F> out);

// Benchmark kernel: x[i] <- x[i] * y[i], `reps` times in a row per element.
template <class F>
void mul_chain_device(F* x, const F* y, std::size_t n, int reps);

// a[i] <- a[i] * b[i] - c[i] on device pointers of n elements.
template <class F>
void mul_sub_device(F* a, const F* b, const F* c, std::size_t n);

}  // namespace cuzk::gpu
