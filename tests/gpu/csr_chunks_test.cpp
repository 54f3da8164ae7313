// The cut of host CSR matrices into stream-buffer pieces (plan_csr_chunks) and the chunked
// evaluation over it (eval_chunks_host, the CPU twin of the device's): every piece fits its
// buffer, the pieces cover the terms in order, every row is finished in exactly one piece,
// rows are split only when they do not fit an empty buffer, and the chunked sums equal
// CsrMatrix::dot_row, for matrices with values and with a value index (16-bit positions in the
// chunks). No device (runs in CI).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/csr_chunks.hpp"
#include "cuzk/r1cs/csr.hpp"
#include "cuzk/r1cs/value_dictionary.hpp"

namespace {

using namespace cuzk;
using F = ff::bls12_381::Fr;

// Rows of 0-5 terms, every 53rd of `long_terms`, and runs of empty rows; values random, or
// (indexed) drawn from 300 and the matrix given its value index.
r1cs::CsrMatrix<F> random_csr(std::mt19937_64& rng, std::size_t rows, std::uint32_t cols, std::size_t long_terms,
                              bool indexed = false) {
  std::vector<F> pool(300);
  for (auto& v : pool) v = F::random(rng);
  r1cs::CsrMatrix<F> m;
  m.num_cols = cols;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t terms = i % 53 == 0 ? long_terms : (i / 20) % 5 == 3 ? 0 : rng() % 6;
    for (std::size_t k = 0; k < terms; ++k)
      m.push_term(static_cast<std::uint32_t>(rng() % cols), indexed ? pool[rng() % pool.size()] : F::random(rng));
    m.end_row();
  }
  if (indexed && m.nnz() != 0 && !r1cs::index_values(m)) throw std::logic_error("300 values and no index");
  return m;
}

std::size_t value_bytes(const r1cs::CsrMatrix<F>& m) { return m.indexed() ? 2 : sizeof(F); }

void check_cut(const r1cs::CsrMatrix<F>& m, const std::vector<gpu::CsrChunk>& chunks, std::size_t cap) {
  const std::uint64_t rows = m.num_rows();
  const std::size_t vb = value_bytes(m);
  std::vector<int> finished(rows, 0);
  std::uint64_t r = 0, z = 0;
  bool carry = false;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const gpu::CsrChunk& c = chunks[k];
    SCOPED_TRACE("chunk " + std::to_string(k));
    ASSERT_EQ(c.r0, r);
    ASSERT_EQ(c.z0, z);
    ASSERT_EQ(c.continued, carry);
    ASSERT_LT(c.r0, c.r1);
    ASSERT_LE(c.z0, c.z1);
    const gpu::CsrChunk l = gpu::csr_chunk_layout(c.r1 - c.r0, c.z1 - c.z0, vb);
    EXPECT_EQ(c.cols_off, l.cols_off);
    EXPECT_EQ(c.vals_off, l.vals_off);
    EXPECT_EQ(c.bytes, l.bytes);
    EXPECT_LE(c.bytes, cap);
    EXPECT_EQ(c.vals_off % 16, 0u);
    // The terms of rows r0+1 .. r1-2 lie wholly inside; r0 may begin before, r1-1 end after.
    EXPECT_GE(c.z0, m.row_ptr[c.r0]);
    EXPECT_LE(c.z1, m.row_ptr[c.r1]);
    if (c.split) {
      EXPECT_LT(c.z1, m.row_ptr[c.r1]);
      // Split only a row that does not fit an empty buffer.
      const std::uint64_t len = m.row_ptr[c.r1] - m.row_ptr[c.r1 - 1];
      EXPECT_GT(gpu::csr_chunk_layout(1, len, vb).bytes, cap) << "row " << c.r1 - 1 << " split needlessly";
    } else {
      EXPECT_EQ(c.z1, m.row_ptr[c.r1]);
    }
    for (std::uint64_t i = c.r0; i < c.r1; ++i)
      if (!(c.split && i + 1 == c.r1)) ++finished[i];
    carry = c.split;
    r = c.split ? c.r1 - 1 : c.r1;
    z = c.z1;
  }
  EXPECT_EQ(r, rows);
  EXPECT_EQ(z, m.nnz());
  EXPECT_FALSE(carry);
  for (std::uint64_t i = 0; i < rows; ++i) ASSERT_EQ(finished[i], 1) << "row " << i;
}

TEST(CsrChunks, CutCoversEveryRowOnceAndEvaluatesLikeDotRow) {
  std::mt19937_64 rng(5);
  for (bool indexed : {false, true})
  for (std::size_t rows : {std::size_t{1}, std::size_t{2}, std::size_t{60}, std::size_t{1000}, std::size_t{5003}}) {
    for (std::size_t long_terms : {std::size_t{0}, std::size_t{40}, std::size_t{700}}) {
      const auto m = random_csr(rng, rows, 97, long_terms, indexed);
      const std::size_t min_cap = gpu::csr_chunk_layout(1, 1, value_bytes(m)).bytes;
      std::vector<F> w(97);
      for (auto& x : w) x = F::random(rng);
      std::vector<F> want(rows), init(rows);
      for (std::size_t i = 0; i < rows; ++i) want[i] = m.dot_row(i, w), init[i] = F::random(rng);
      for (std::size_t cap : {min_cap, min_cap + 37, std::size_t{1500}, std::size_t{1} << 14, std::size_t{1} << 24}) {
        SCOPED_TRACE("rows " + std::to_string(rows) + ", long rows " + std::to_string(long_terms) + ", capacity " +
                     std::to_string(cap) + (m.indexed() ? ", indexed" : ""));
        const auto chunks = gpu::plan_csr_chunks(m.row_ptr, cap, value_bytes(m));
        check_cut(m, chunks, cap);
        std::vector<F> got(rows, F::zero());
        gpu::eval_chunks_host<F>(m, chunks, std::span<const F>(w), std::span<F>(got), false);
        ASSERT_EQ(got, want);
        got = init;
        gpu::eval_chunks_host<F>(m, chunks, std::span<const F>(w), std::span<F>(got), true);
        for (std::size_t i = 0; i < rows; ++i) ASSERT_EQ(got[i], init[i] * want[i]) << "row " << i;
      }
    }
  }
}

TEST(CsrChunks, IndexedMatricesAreEvaluatedThroughTheirIndex) {
  // The twin reads an indexed matrix's values through val_idx, as the device does: a wrong
  // position changes the sum of its row.
  std::mt19937_64 rng(6);
  auto m = random_csr(rng, 400, 30, 20, true);
  ASSERT_TRUE(m.indexed());
  std::vector<F> w(30);
  for (auto& x : w) x = F::random(rng);
  const auto chunks = gpu::plan_csr_chunks(m.row_ptr, 1500, 2);
  std::vector<F> got(400);
  gpu::eval_chunks_host<F>(m, chunks, std::span<const F>(w), std::span<F>(got), false);
  const std::size_t k = m.row_ptr[1];  // row 0 is a long one
  ASSERT_LT(k, m.row_ptr[2]);
  EXPECT_EQ(got[1], m.dot_row(1, w));
  m.val_idx[k] = static_cast<std::uint16_t>((m.val_idx[k] + 1) % m.val_table.size());
  gpu::eval_chunks_host<F>(m, chunks, std::span<const F>(w), std::span<F>(got), false);
  EXPECT_NE(got[1], m.dot_row(1, w));
}

TEST(CsrChunks, OneBufferForAWholeMatrixAndEmptyMatrices) {
  std::mt19937_64 rng(7);
  const auto m = random_csr(rng, 300, 50, 20);
  const auto one = gpu::plan_csr_chunks(m.row_ptr, std::size_t{1} << 30, sizeof(F));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].r1, 300u);
  EXPECT_EQ(one[0].z1, m.nnz());
  r1cs::CsrMatrix<F> empty;  // no rows
  EXPECT_TRUE(gpu::plan_csr_chunks(empty.row_ptr, 4096, sizeof(F)).empty());
  r1cs::CsrMatrix<F> no_terms;
  for (int i = 0; i < 1000; ++i) no_terms.end_row();
  const auto c = gpu::plan_csr_chunks(no_terms.row_ptr, 4096, sizeof(F));
  check_cut(no_terms, c, 4096);
  EXPECT_GT(c.size(), 1u);  // 1000 row pointers do not fit 4096 bytes
}

TEST(CsrChunks, BuffersTooSmallForOneTermAreRejected) {
  r1cs::CsrMatrix<F> m;
  m.push_term(0, F::one());
  m.end_row();
  const std::size_t min_cap = gpu::csr_chunk_layout(1, 1, sizeof(F)).bytes;
  EXPECT_THROW(gpu::plan_csr_chunks(m.row_ptr, min_cap - 1, sizeof(F)), std::invalid_argument);
  EXPECT_NO_THROW(gpu::plan_csr_chunks(m.row_ptr, min_cap, sizeof(F)));
  EXPECT_THROW(gpu::plan_csr_chunks(std::span<const std::uint64_t>{}, 4096, sizeof(F)), std::invalid_argument);
}

}  // namespace
