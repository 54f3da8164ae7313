// Device field kernels vs the host Fp<P>, byte for byte: add, sub, mul, square, neg for
// all four fields, random operands mixed with edge values (0, 1, p-1), element counts
// 1, 7, 1000, 100003.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/field_ops.hpp"
#include "require_device.hpp"

namespace {

using namespace cuzk;

template <class F>
std::vector<F> operands(std::mt19937_64& rng, std::size_t n) {
  const F edge[] = {F::zero(), F::one(), -F::one(), F::from_u64(2), -F::from_u64(2)};
  std::vector<F> v(n);
  for (auto& x : v) x = (rng() % 8 == 0) ? edge[rng() % 5] : F::random(rng);
  for (std::size_t i = 0; i < n && i < 5; ++i) v[i] = edge[i];
  return v;
}

template <class F>
class GpuField : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bls12_381::Fq, ff::bn254::Fr, ff::bn254::Fq>;
TYPED_TEST_SUITE(GpuField, Fields);

TYPED_TEST(GpuField, ElementwiseOpsMatchHost) {
  using F = TypeParam;
  std::mt19937_64 rng(1234 + sizeof(F));
  for (std::size_t n : {1u, 7u, 1000u, 100003u}) {
    const auto a = operands<F>(rng, n);
    auto b = operands<F>(rng, n);
    // Every ordered pair of edge values appears too.
    for (std::size_t i = 0; i < 25 && i < n; ++i) b[i] = operands<F>(rng, 5)[i % 5];
    const gpu::FieldOp ops[] = {gpu::FieldOp::kAdd, gpu::FieldOp::kSub, gpu::FieldOp::kMul, gpu::FieldOp::kSqr,
                                gpu::FieldOp::kNeg, gpu::FieldOp::kMulF64};
    for (auto op : ops) {
      std::vector<F> out(n);
      // Poison: every output element must be written.
      std::memset(static_cast<void*>(out.data()), 0xa5, n * sizeof(F));
      gpu::field_op<F>(op, a, b, out);
      for (std::size_t i = 0; i < n; ++i) {
        F want;
        switch (op) {
          case gpu::FieldOp::kAdd: want = a[i] + b[i]; break;
          case gpu::FieldOp::kSub: want = a[i] - b[i]; break;
          case gpu::FieldOp::kMul:
          case gpu::FieldOp::kMulF64: want = a[i] * b[i]; break;
          case gpu::FieldOp::kSqr: want = a[i].square(); break;
          case gpu::FieldOp::kNeg: want = -a[i]; break;
        }
        ASSERT_EQ(std::memcmp(&out[i], &want, sizeof(F)), 0)
            << "op " << static_cast<int>(op) << " n " << n << " i " << i << ": a " << a[i] << " b " << b[i]
            << " got " << out[i].to_hex() << " want " << want;
      }
    }
  }
}

TYPED_TEST(GpuField, SizeMismatchIsRejected) {
  using F = TypeParam;
  std::vector<F> a(3), b(2), out(3);
  EXPECT_THROW(gpu::field_op<F>(gpu::FieldOp::kMul, a, b, out), std::invalid_argument);
}

}  // namespace
