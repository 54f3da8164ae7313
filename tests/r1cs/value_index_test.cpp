// The value dictionary (dictionary_of) and the matrices' value index (index_values): the
// table lists the distinct values in order of first occurrence, every entry maps back to its
// value, across the parallel blocks; more distinct values than the positions can name give
// none; a matrix's index is checked by validate(), dropped when a term is added, and not part
// of the matrix's equality.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "cuzk/r1cs/csr.hpp"
#include "cuzk/r1cs/value_dictionary.hpp"

namespace {

using namespace cuzk;
using F = ff::bls12_381::Fr;

// n values drawn from `distinct` random ones, in runs of 1-4 (matrices repeat values in runs).
std::vector<F> pooled(std::mt19937_64& rng, std::size_t n, std::size_t distinct) {
  std::vector<F> pool(distinct);
  for (auto& v : pool) v = F::random(rng);
  std::vector<F> out;
  out.reserve(n);
  while (out.size() < n) {
    const F& v = pool[rng() % distinct];
    for (std::size_t r = 1 + rng() % 4; r > 0 && out.size() < n; --r) out.push_back(v);
  }
  return out;
}

// The first occurrences, one by one.
std::vector<F> first_occurrences(const std::vector<F>& v) {
  std::vector<F> out;
  std::map<F::Repr, int> seen;
  for (const F& x : v)
    if (seen.emplace(x.mont(), 0).second) out.push_back(x);
  return out;
}

TEST(ValueDictionary, TableInFirstOccurrenceOrderAndPositionsMapBack) {
  std::mt19937_64 rng(11);
  // 3.2 M entries: four parallel blocks of 2^20, values first met in later blocks too.
  for (auto [n, distinct] : {std::pair<std::size_t, std::size_t>{1, 1}, {1000, 3}, {3'200'000, 2838}, {200'000, 65536}}) {
    SCOPED_TRACE(std::to_string(n) + " entries of " + std::to_string(distinct) + " values");
    const auto v = pooled(rng, n, distinct);
    const auto d16 = r1cs::dictionary_of<std::uint16_t>(std::span<const F>(v));
    ASSERT_TRUE(d16.has_value());
    EXPECT_EQ(d16->values, first_occurrences(v));
    ASSERT_EQ(d16->pos.size(), n);
    for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(d16->values[d16->pos[k]], v[k]) << "entry " << k;
    const auto d32 = r1cs::dictionary_of<std::uint32_t>(std::span<const F>(v));
    ASSERT_TRUE(d32.has_value());
    EXPECT_EQ(d32->values, d16->values);
    for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(d32->pos[k], d16->pos[k]);
  }
  const auto none = r1cs::dictionary_of<std::uint16_t>(std::span<const F>{});
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->values.empty());
}

TEST(ValueDictionary, MoreDistinctValuesThanPositionsGiveNone) {
  std::mt19937_64 rng(12);
  std::vector<F> v(65537);
  for (auto& x : v) x = F::random(rng);
  EXPECT_FALSE(r1cs::dictionary_of<std::uint16_t>(std::span<const F>(v)).has_value());
  EXPECT_FALSE(r1cs::dictionary_of<std::uint32_t>(std::span<const F>(v), 100).has_value());
  v.pop_back();  // exactly 65536
  const auto d = r1cs::dictionary_of<std::uint16_t>(std::span<const F>(v));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->values.size(), 65536u);
  EXPECT_EQ(d->pos.back(), 65535u);
  // Past the limit only together: each of the two parallel blocks (2^20 entries) holds 40001.
  std::vector<F> late(std::size_t{1} << 21, F::one());
  for (std::size_t k = 0; k < 40000; ++k)
    late[k] = F::from_u64(k + 2), late[(std::size_t{1} << 20) + k] = F::from_u64(k + 40002);
  EXPECT_FALSE(r1cs::dictionary_of<std::uint16_t>(std::span<const F>(late)).has_value());
}

r1cs::CsrMatrix<F> pooled_matrix(std::mt19937_64& rng, std::size_t rows, std::size_t distinct) {
  r1cs::CsrMatrix<F> m;
  m.num_cols = 50;
  const auto v = pooled(rng, rows * 3, distinct);
  for (std::size_t i = 0, k = 0; i < rows; ++i) {
    for (std::size_t t = rng() % 6; t > 0 && k < v.size(); --t) m.push_term(static_cast<std::uint32_t>(rng() % 50), v[k++]);
    m.end_row();
  }
  return m;
}

TEST(ValueIndex, IndexedMatrixReadsItsValuesThroughTheTable) {
  std::mt19937_64 rng(13);
  auto m = pooled_matrix(rng, 5000, 40);
  const auto plain = m;
  ASSERT_TRUE(r1cs::index_values(m));
  ASSERT_TRUE(m.indexed());
  EXPECT_LE(m.val_table.size(), 40u);
  ASSERT_EQ(m.val_idx.size(), m.nnz());
  for (std::size_t k = 0; k < m.nnz(); ++k) ASSERT_EQ(m.value(k), m.vals[k]);
  EXPECT_NO_THROW(m.validate());
  EXPECT_EQ(m, plain);  // the index is derived, not part of the matrix
  EXPECT_FALSE(plain.indexed());
  EXPECT_EQ(plain.value(7), plain.vals[7]);

  auto bad = m;  // a position pointing at another value
  bad.val_idx[100] = static_cast<std::uint16_t>((bad.val_idx[100] + 1) % bad.val_table.size());
  EXPECT_THROW(bad.validate(), std::invalid_argument);
  bad = m;  // past the table
  bad.val_idx[5] = static_cast<std::uint16_t>(bad.val_table.size());
  EXPECT_THROW(bad.validate(), std::invalid_argument);
  bad = m;
  bad.val_idx.pop_back();
  EXPECT_THROW(bad.validate(), std::invalid_argument);

  m.push_term(3, F::from_u64(12345));  // a new term: the index would be stale
  EXPECT_FALSE(m.indexed());
  EXPECT_TRUE(m.val_table.empty());
}

TEST(ValueIndex, NoIndexForTooManyDistinctValuesOrNoTerms) {
  std::mt19937_64 rng(14);
  r1cs::CsrMatrix<F> m;
  m.num_cols = 4;
  for (int i = 0; i < 70000; ++i) {
    m.push_term(static_cast<std::uint32_t>(i % 4), F::random(rng));
    m.end_row();
  }
  EXPECT_FALSE(r1cs::index_values(m));
  EXPECT_FALSE(m.indexed());
  EXPECT_NO_THROW(m.validate());
  r1cs::CsrMatrix<F> empty;
  for (int i = 0; i < 10; ++i) empty.end_row();
  EXPECT_FALSE(r1cs::index_values(empty));
  EXPECT_FALSE(empty.indexed());
}

}  // namespace
