// a/b/c evaluation from device CSR matrices vs CsrMatrix::dot_row (whole, and chunk by chunk
// as streamed keys do it; matrices with values and with a value index), and the H polynomial on the device (bellperson, three arrays and
// two; snarkjs in two) vs poly's, bit for bit, BLS12-381 and BN254 Fr.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/poly/generator.hpp"
#include "cuzk/poly/h_poly.hpp"
#include "cuzk/r1cs/csr.hpp"
#include "cuzk/r1cs/value_dictionary.hpp"
#include "require_device.hpp"
#include "support/random_vec.hpp"
#include "vec_util.hpp"

namespace {

using namespace cuzk;

using test::first_diff;
using test::random_vec;

// Values 1, -1 or random; indexed: the random ones drawn from 3000 and the matrix given its
// value index (16-bit positions into a table).
template <class F>
r1cs::CsrMatrix<F> random_csr(std::mt19937_64& rng, std::size_t rows, std::uint32_t cols, bool indexed = false) {
  std::vector<F> pool(indexed ? 3000 : 0);
  for (auto& v : pool) v = F::random(rng);
  r1cs::CsrMatrix<F> m;
  m.num_cols = cols;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t terms = i % 97 == 0 ? 300 : rng() % 6;  // a few long rows, some empty
    for (std::size_t k = 0; k < terms; ++k) {
      const auto kind = rng() % 3;
      const F r = indexed ? pool[rng() % pool.size()] : F::random(rng);
      m.push_term(static_cast<std::uint32_t>(rng() % cols), kind == 0 ? F::one() : kind == 1 ? -F::one() : r);
    }
    m.end_row();
  }
  if (indexed && !r1cs::index_values(m)) throw std::logic_error("no value index");
  return m;
}

template <class F>
class GpuAbc : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bn254::Fr>;
TYPED_TEST_SUITE(GpuAbc, Fields);

TYPED_TEST(GpuAbc, EvalRowsMatchesCpu) {
  using F = TypeParam;
  std::mt19937_64 rng(17);
  for (bool indexed : {false, true})
    for (std::size_t rows : {std::size_t{1}, std::size_t{3}, std::size_t{100}, std::size_t{1000},
                             std::size_t{4096 + 7}, std::size_t{1} << 16}) {
      const std::uint32_t cols = static_cast<std::uint32_t>(rows / 2 + 5);
      const auto m = random_csr<F>(rng, rows, cols, indexed);
      const auto w = random_vec<F>(cols, rng);
      const std::size_t n = rows + 9;  // padded outputs are zero
      std::vector<F> want(n, F::zero());
      for (std::size_t i = 0; i < rows; ++i) want[i] = m.dot_row(i, w);
      const gpu::DeviceCsr<F> dm(m);
      EXPECT_EQ(dm.vals() == nullptr, indexed);
      EXPECT_EQ(dm.idx() != nullptr, indexed);
      const gpu::DeviceBuffer<F> dw{std::span<const F>(w)};
      gpu::DeviceBuffer<F> out{std::span<const F>(random_vec<F>(n, rng))};
      gpu::eval_rows_device<F>(dm, dw.data(), out.data(), n);
      gpu::stream_synchronize();
      std::vector<F> got(n);
      out.download(got);
      const long i = first_diff(got, want);
      ASSERT_EQ(i, -1) << "rows=" << rows << (indexed ? " indexed" : "") << " differs at " << i;
    }
}

TYPED_TEST(GpuAbc, ClassicHMatchesCpu) {
  using F = TypeParam;
  std::mt19937_64 rng(23);
  const F g = poly::multiplicative_generator<F>();
  for (std::size_t k : {0u, 1u, 2u, 3u, 7u, 12u, 16u, 20u}) {
    const std::size_t n = std::size_t{1} << k;
    const auto a = random_vec<F>(n, rng), b = random_vec<F>(n, rng), c = random_vec<F>(n, rng);
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
// are zero. Equal to the CPU twin and to the seven-transform H with c = a.b; and so is the
// same H in two arrays (streamed keys), a.b written into b's storage mid-way as the backend
// does by evaluating the matrices again.
TYPED_TEST(GpuAbc, ClassicHFromAbMatchesCpu) {
  using F = TypeParam;
  std::mt19937_64 rng(29);
  const F g = poly::multiplicative_generator<F>();
  for (std::size_t k : {0u, 1u, 2u, 3u, 7u, 12u, 16u, 20u}) {
    const std::size_t n = std::size_t{1} << k, m = n - n / 3;
    auto a = random_vec<F>(m, rng), b = random_vec<F>(m, rng);
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
    long i = first_diff(got, want);
    ASSERT_EQ(i, -1) << "H classic from a, b at 2^" << k << " differs at " << i;
    da.upload(a), db.upload(b);
    int calls = 0;
    gpu::compute_h_classic_ab_lean_device<F>(
        plan, da.data(), db.data(),
        [&](F* t) {
          ++calls;
          EXPECT_EQ(t, db.data());
          gpu::stream_synchronize();
          gpu::copy_to_device(t, c.data(), n * sizeof(F));
        },
        g);
    EXPECT_EQ(calls, 1);
    da.download(got);
    i = first_diff(got, want);
    ASSERT_EQ(i, -1) << "H classic in two arrays at 2^" << k << " differs at " << i;
  }
}

// The chunked evaluation of streamed keys: each chunk uploaded as plan_csr_chunks lays it out
// into one buffer of `cap` bytes, then eval_rows_chunk_device; rows of 300 terms split across
// chunks at the small capacities (the smallest holds one term). Sets, then multiplies.
TYPED_TEST(GpuAbc, EvalRowsByChunksMatchesCpu) {
  using F = TypeParam;
  std::mt19937_64 rng(31);
  for (bool indexed : {false, true})
  for (std::size_t rows : {std::size_t{1}, std::size_t{100}, std::size_t{1000}, std::size_t{4096 + 7}}) {
    const std::uint32_t cols = static_cast<std::uint32_t>(rows / 2 + 5);
    const auto m = random_csr<F>(rng, rows, cols, indexed);
    const auto w = random_vec<F>(cols, rng), init = random_vec<F>(rows, rng);
    const gpu::DeviceBuffer<F> dw{std::span<const F>(w)};
    // An indexed matrix's chunks carry 16-bit positions; its table stays on the device.
    const std::size_t vb = indexed ? 2 : sizeof(F);
    const gpu::DeviceBuffer<F> table{std::span<const F>(m.val_table)};
    for (std::size_t cap : {gpu::csr_chunk_layout(1, 1, vb).bytes, std::size_t{1000}, std::size_t{5000},
                            std::size_t{1} << 20}) {
      SCOPED_TRACE("rows " + std::to_string(rows) + ", capacity " + std::to_string(cap) + (indexed ? ", indexed" : ""));
      const auto chunks = gpu::plan_csr_chunks(m.row_ptr, cap, vb);
      gpu::DeviceBuffer<unsigned char> buf(cap);
      gpu::DeviceBuffer<F> carry(2);
      for (bool mul : {false, true}) {
        gpu::DeviceBuffer<F> out{std::span<const F>(init)};
        for (std::size_t k = 0; k < chunks.size(); ++k) {
          const gpu::CsrChunk& c = chunks[k];
          gpu::stream_synchronize();  // the chunk before has been read
          gpu::copy_to_device(buf.data(), m.row_ptr.data() + c.r0, (c.r1 - c.r0 + 1) * 8);
          gpu::copy_to_device(buf.data() + c.cols_off, m.cols.data() + c.z0, (c.z1 - c.z0) * 4);
          if (indexed) gpu::copy_to_device(buf.data() + c.vals_off, m.val_idx.data() + c.z0, (c.z1 - c.z0) * 2);
          else gpu::copy_to_device(buf.data() + c.vals_off, m.vals.data() + c.z0, (c.z1 - c.z0) * sizeof(F));
          gpu::eval_rows_chunk_device<F>(buf.data(), c, dw.data(), out.data(), carry.data(), k, mul,
                                         indexed ? table.data() : nullptr);
        }
        gpu::stream_synchronize();
        std::vector<F> got(rows), want(rows);
        out.download(got);
        for (std::size_t i = 0; i < rows; ++i) want[i] = mul ? init[i] * m.dot_row(i, w) : m.dot_row(i, w);
        const long i = first_diff(got, want);
        ASSERT_EQ(i, -1) << (mul ? "multiplied" : "set") << ", differs at " << i << " of " << chunks.size()
                         << " chunks";
      }
    }
  }
}

// The snarkjs H in two arrays: C's evaluations written into b's storage after A B is formed.
TYPED_TEST(GpuAbc, SnarkjsHLeanMatchesCpu) {
  using F = TypeParam;
  std::mt19937_64 rng(41);
  for (std::size_t k : {1u, 2u, 3u, 7u, 12u, 16u, 20u}) {
    const std::size_t n = std::size_t{1} << k;
    const auto a = random_vec<F>(n, rng), b = random_vec<F>(n, rng), c = random_vec<F>(n, rng);
    const auto want = poly::compute_h_snarkjs<F>(poly::EvaluationDomain<F>::from_log_size(k), a, b, c);
    const gpu::NttPlan<F> plan(k);
    gpu::DeviceBuffer<F> da{std::span<const F>(a)}, db{std::span<const F>(b)};
    gpu::compute_h_snarkjs_lean_device<F>(plan, da.data(), db.data(), [&](F* t) {
      gpu::stream_synchronize();
      gpu::copy_to_device(t, c.data(), n * sizeof(F));
    });
    std::vector<F> got(n);
    da.download(got);
    const long i = first_diff(got, want);
    ASSERT_EQ(i, -1) << "lean H snarkjs at 2^" << k << " differs at " << i;
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
