// Sparse matrix in compressed-sparse-row form over a field F (values kept in Montgomery form,
// i.e. as F objects). Row i holds the terms cols[row_ptr[i] .. row_ptr[i+1]) with vals alike.
// Optionally a value index as well (index_values, value_dictionary.hpp): the values as 16-bit
// positions in a table of the distinct ones, which the GPU backend reads instead of vals
// (2 bytes a term instead of 32).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::r1cs {

template <class F>
struct CsrMatrix {
  std::uint32_t num_cols = 0;
  std::vector<std::uint64_t> row_ptr{0};  // size num_rows() + 1, row_ptr[0] == 0, non-decreasing
  std::vector<std::uint32_t> cols;         // size nnz(), each < num_cols
  std::vector<F> vals;                     // size nnz()
  // The value index: empty, or val_idx of size nnz() with vals[k] == val_table[val_idx[k]].
  // Adding a term drops it; validate() checks it.
  std::vector<F> val_table;
  std::vector<std::uint16_t> val_idx;

  struct Row {
    std::span<const std::uint32_t> cols;
    std::span<const F> vals;
    std::size_t size() const { return cols.size(); }
  };

  std::size_t num_rows() const { return row_ptr.size() - 1; }
  std::size_t nnz() const { return cols.size(); }
  bool indexed() const { return !val_idx.empty(); }
  // Term k's value, read through the index when there is one (what the GPU backend reads).
  const F& value(std::size_t k) const { return indexed() ? val_table[val_idx[k]] : vals[k]; }

  Row row(std::size_t i) const {
    const auto b = static_cast<std::size_t>(row_ptr[i]);
    const auto e = static_cast<std::size_t>(row_ptr[i + 1]);
    return Row{std::span(cols).subspan(b, e - b), std::span(vals).subspan(b, e - b)};
  }

  // Appends a term to the row being built; end_row() closes it.
  void push_term(std::uint32_t col, const F& v) {
    if (indexed()) val_table.clear(), val_idx.clear();
    cols.push_back(col);
    vals.push_back(v);
  }
  void end_row() { row_ptr.push_back(cols.size()); }

  // <row i, w>; w must have at least num_cols entries (unchecked here; see validate/evaluate).
  F dot_row(std::size_t i, std::span<const F> w) const {
    F acc = F::zero();
    const auto e = static_cast<std::size_t>(row_ptr[i + 1]);
    for (auto k = static_cast<std::size_t>(row_ptr[i]); k < e; ++k) acc += vals[k] * w[cols[k]];
    return acc;
  }

  // Throws std::invalid_argument naming the first structural problem.
  void validate(std::string_view name = "matrix") const {
    auto bad = [&](const std::string& m) { throw std::invalid_argument(std::string(name) + ": " + m); };
    if (row_ptr.empty() || row_ptr.front() != 0) bad("row_ptr must start with 0");
    if (cols.size() != vals.size()) bad("cols and vals differ in size");
    if (row_ptr.back() != cols.size()) bad("row_ptr.back() != nnz");
    for (std::size_t i = 0; i + 1 < row_ptr.size(); ++i)
      if (row_ptr[i] > row_ptr[i + 1]) bad("row_ptr decreases at row " + std::to_string(i));
    for (std::size_t k = 0; k < cols.size(); ++k)
      if (cols[k] >= num_cols)
        bad("column " + std::to_string(cols[k]) + " at entry " + std::to_string(k) + " >= num_cols " +
            std::to_string(num_cols));
    if (!indexed()) return;
    if (val_idx.size() != vals.size()) bad("the value index and vals differ in size");
    for (std::size_t k = 0; k < val_idx.size(); ++k)
      if (val_idx[k] >= val_table.size() || !(val_table[val_idx[k]] == vals[k]))
        bad("the value index disagrees with vals at entry " + std::to_string(k));
  }

  // The same matrix: the value index, a derived copy of vals, is not compared.
  bool operator==(const CsrMatrix& o) const {
    return num_cols == o.num_cols && row_ptr == o.row_ptr && cols == o.cols && vals == o.vals;
  }
};

}  // namespace cuzk::r1cs
