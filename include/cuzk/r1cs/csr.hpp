// Sparse matrix in compressed-sparse-row form over a field F (values kept in Montgomery form,
// i.e. as F objects). Row i holds the terms cols[row_ptr[i] .. row_ptr[i+1]) with vals alike.
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

  struct Row {
    std::span<const std::uint32_t> cols;
    std::span<const F> vals;
    std::size_t size() const { return cols.size(); }
  };

  std::size_t num_rows() const { return row_ptr.size() - 1; }
  std::size_t nnz() const { return cols.size(); }

  Row row(std::size_t i) const {
    const auto b = static_cast<std::size_t>(row_ptr[i]);
    const auto e = static_cast<std::size_t>(row_ptr[i + 1]);
    return Row{std::span(cols).subspan(b, e - b), std::span(vals).subspan(b, e - b)};
  }

  // Appends a term to the row being built; end_row() closes it.
  void push_term(std::uint32_t col, const F& v) {
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
  }

  bool operator==(const CsrMatrix&) const = default;
};

}  // namespace cuzk::r1cs
