// a/b/c evaluation from device CSR matrices vs CsrMatrix::dot_row, and the bellperson H
// on the device vs poly::compute_h_classic, bit for bit, BLS12-381 and BN254 Fr.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/poly/generator.hpp"
#include "cuzk/poly/h_poly.hpp"
#include "cuzk/r1cs/csr.hpp"
#include "require_device.hpp"
#include "vec_util.hpp"

namespace {

using namespace cuzk;

using test::first_diff;
using test::random_vec;

template <class F>
r1cs::CsrMatrix<F> random_csr(std::mt19937_64& rng, std::size_t rows, std::uint32_t cols) {
  r1cs::CsrMatrix<F> m;
  m.num_cols = cols;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t terms = i % 97 == 0 ? 300 : rng() % 6;  // a few long rows, some empty
    for (std::size_t k = 0; k < terms; ++k) {
      const auto kind = rng() % 3;
      m.push_term(static_cast<std::uint32_t>(rng() % cols),
                  kind == 0 ? F::one() : kind == 1 ? -F::one() : F::random(rng));
    }
    m.end_row();
  }
  return m;
}

template <class F>
class GpuAbc : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bn254::Fr>;
TYPED_TEST_SUITE(GpuAbc, Fields);

TYPED_TEST(GpuAbc, EvalRowsMatchesCpu) {
  using F = TypeParam;
  std::mt19937_64 rng(17);
  for (std::size_t rows : {std::size_t{1}, std::size_t{3}, std::size_t{100}, std::size_t{1000},
                           std::size_t{4096 + 7}, std::size_t{1} << 16}) {
    const std::uint32_t cols = static_cast<std::uint32_t>(rows / 2 + 5);
    const auto m = random_csr<F>(rng, rows, cols);
    const auto w = random_vec<F>(rng, cols);
    const std::size_t n = rows + 9;  // padded outputs are zero
    std::vector<F> want(n, F::zero());
    for (std::size_t i = 0; i < rows; ++i) want[i] = m.dot_row(i, w);
    const gpu::DeviceCsr<F> dm(m);
    const gpu::DeviceBuffer<F> dw{std::span<const F>(w)};
    gpu::DeviceBuffer<F> out(n);
    gpu::eval_rows_device<F>(dm, dw.data(), out.data(), n);
    gpu::stream_synchronize();
    std::vector<F> got(n);
    out.download(got);
    const long i = first_diff(got, want);
    ASSERT_EQ(i, -1) << "rows=" << rows << " differs at " << i;
  }
}

TYPED_TEST(GpuAbc, ClassicHMatchesCpu) {
  using F = TypeParam;
  std::mt19937_64 rng(23);
  const F g = poly::multiplicative_generator<F>();
  for (std::size_t k : {0u, 1u, 2u, 3u, 7u, 12u, 16u, 20u}) {
    const std::size_t n = std::size_t{1} << k;
    const auto a = random_vec<F>(rng, n), b = random_vec<F>(rng, n), c = random_vec<F>(rng, n);
    const auto d = poly::EvaluationDomain<F>::from_log_size(k);
    const auto want = poly::compute_h_classic<F>(d, a, b, c, g);
    const gpu::NttPlan<F> plan(k);
    gpu::DeviceBuffer<F> da{std::span<const F>(a)}, db{std::span<const F>(b)}, dc{std::span<const F>(c)};
    gpu::compute_h_classic_device<F>(plan, da.data(), db.data(), dc.data(), g);
    std::vector<F> got(n);
    da.download(got);
    const long i = first_diff(got, want);
    ASSERT_EQ(i, -1) << "H classic at 2^" << k << " differs at " << i;
  }
}

// The six-transform H from a and b (c = a.b implied), as a prover uses it: the rows past m
// are zero. Equal to the CPU twin and to the seven-transform H with c = a.b.
TYPED_TEST(GpuAbc, ClassicHFromAbMatchesCpu) {
  using F = TypeParam;
  std::mt19937_64 rng(29);
  const F g = poly::multiplicative_generator<F>();
  for (std::size_t k : {0u, 1u, 2u, 3u, 7u, 12u, 16u, 20u}) {
    const std::size_t n = std::size_t{1} << k, m = n - n / 3;
    auto a = random_vec<F>(rng, m), b = random_vec<F>(rng, m);
    a.resize(n, F::zero());
    b.resize(n, F::zero());
    std::vector<F> c(n);
    for (std::size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
    const auto d = poly::EvaluationDomain<F>::from_log_size(k);
    const auto want = poly::compute_h_classic_ab<F>(d, a, b, g);
    ASSERT_EQ(want, poly::compute_h_classic<F>(d, a, b, c, g)) << "CPU twins differ at 2^" << k;
    const gpu::NttPlan<F> plan(k);
    gpu::DeviceBuffer<F> da{std::span<const F>(a)}, db{std::span<const F>(b)}, dt(n);
    gpu::compute_h_classic_ab_device<F>(plan, da.data(), db.data(), dt.data(), g);
    std::vector<F> got(n);
    da.download(got);
    const long i = first_diff(got, want);
    ASSERT_EQ(i, -1) << "H classic from a, b at 2^" << k << " differs at " << i;
  }
}

TYPED_TEST(GpuAbc, TooFewOutputsRejected) {
  using F = TypeParam;
  std::mt19937_64 rng(3);
  const auto m = random_csr<F>(rng, 10, 4);
  const gpu::DeviceCsr<F> dm(m);
  gpu::DeviceBuffer<F> w(4), out(9);
  EXPECT_THROW(gpu::eval_rows_device<F>(dm, w.data(), out.data(), 9), std::invalid_argument);
}

}  // namespace
