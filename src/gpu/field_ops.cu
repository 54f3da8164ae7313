// Element-wise field kernels' host side (cuzk/gpu/field_ops.hpp).
#include <stdexcept>
#include <string>

#include "check.cuh"
#include "cuzk/gpu/field_ops.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "dev_cast.cuh"
#include "kernels.cuh"

namespace cuzk::gpu {

namespace {
constexpr unsigned kThreads = 256;
unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }
bool is_binary(FieldOp op) {
  return op == FieldOp::kAdd || op == FieldOp::kSub || op == FieldOp::kMul || op == FieldOp::kMulF64;
}
}  // namespace

template <class F>
void field_op_device(FieldOp op, const F* a, const F* b, F* out, std::size_t n) {
  if (n == 0) return;
  const bool binary = is_binary(op);
  if (binary && b == nullptr) throw std::invalid_argument("field_op_device: binary operation without b");
  kern::field_op_kernel<D<F>><<<blocks_for(n), kThreads>>>(static_cast<int>(op), dev(a), dev(b ? b : a), dev(out), n);
  CUZK_CUDA_LAUNCH_CHECK("field_op_kernel");
}

template <class F>
void field_op(FieldOp op, std::span<const F> a, std::span<const F> b, std::span<F> out) {
  const bool binary = is_binary(op);
  if (out.size() != a.size() || (binary && b.size() != a.size()))
    throw std::invalid_argument("field_op: operand sizes differ (a " + std::to_string(a.size()) + ", b " +
                                std::to_string(b.size()) + ", out " + std::to_string(out.size()) + ")");
  DeviceBuffer<F> da(a);
  DeviceBuffer<F> db = binary ? DeviceBuffer<F>(b) : DeviceBuffer<F>();
  DeviceBuffer<F> dout(out.size());
  field_op_device<F>(op, da.data(), binary ? db.data() : nullptr, dout.data(), a.size());
  stream_synchronize();
  dout.download(out);
}

template <class F>
void mul_chain_device(F* x, const F* y, std::size_t n, int reps) {
  if (n == 0) return;
  kern::mul_chain_kernel<D<F>><<<blocks_for(n), kThreads>>>(dev(x), dev(y), n, reps);
  CUZK_CUDA_LAUNCH_CHECK("mul_chain_kernel");
}

template <class F>
void mul_sub_device(F* a, const F* b, const F* c, std::size_t n) {
  if (n == 0) return;
  kern::mul_sub_kernel<D<F>><<<blocks_for(n), kThreads>>>(dev(a), dev(b), dev(c), n);
  CUZK_CUDA_LAUNCH_CHECK("mul_sub_kernel");
}

#define CUZK_GPU_INSTANTIATE(F)                                                          \
  template void field_op_device<F>(FieldOp, const F*, const F*, F*, std::size_t);        \
  template void field_op<F>(FieldOp, std::span<const F>, std::span<const F>, std::span<F>); \
  template void mul_chain_device<F>(F*, const F*, std::size_t, int);                     \
  template void mul_sub_device<F>(F*, const F*, const F*, std::size_t);
CUZK_GPU_INSTANTIATE(ff::bls12_381::Fr)
CUZK_GPU_INSTANTIATE(ff::bls12_381::Fq)
CUZK_GPU_INSTANTIATE(ff::bn254::Fr)
CUZK_GPU_INSTANTIATE(ff::bn254::Fq)
#undef CUZK_GPU_INSTANTIATE

}  // namespace cuzk::gpu
