// Evaluation of an R1CS on a witness: a = A·w, b = B·w, c = C·w (multithreaded over row blocks
// with oneTBB), and check mode: the first constraint with <A,w>·<B,w> != <C,w>.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::r1cs {

// Rows per TBB task: sparse rows are cheap, so blocks must be large enough to amortize scheduling.
inline constexpr std::size_t kEvalGrainRows = 1024;

template <class F>
struct Evaluation {
  std::vector<F> a, b, c;  // one entry per constraint
};

// Throws std::invalid_argument unless w has exactly r.num_vars entries.
template <class F>
void check_witness_size(const R1CS<F>& r, std::span<const F> w) {
  if (w.size() != r.num_vars)
    throw std::invalid_argument("witness has " + std::to_string(w.size()) + " values but the R1CS has " +
                                std::to_string(r.num_vars) + " wires");
}

// out[i] = <row i of m, w>. out.size() must equal m.num_rows() and w.size() >= m.num_cols.
template <class F>
void spmv(const CsrMatrix<F>& m, std::span<const F> w, std::span<F> out) {
  if (out.size() != m.num_rows()) throw std::invalid_argument("spmv: output size != number of rows");
  if (w.size() < m.num_cols) throw std::invalid_argument("spmv: vector shorter than the number of columns");
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m.num_rows(), kEvalGrainRows),
                    [&](const tbb::blocked_range<std::size_t>& br) {
                      for (std::size_t i = br.begin(); i != br.end(); ++i) out[i] = m.dot_row(i, w);
                    });
}

template <class F>
Evaluation<F> evaluate(const R1CS<F>& r, std::span<const F> w) {
  check_witness_size(r, w);
  Evaluation<F> e;
  e.a.resize(r.num_constraints);
  e.b.resize(r.num_constraints);
  e.c.resize(r.num_constraints);
  // One pass over the rows computes all three products (better locality than three spmv calls).
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, r.num_constraints, kEvalGrainRows),
                    [&](const tbb::blocked_range<std::size_t>& br) {
                      for (std::size_t i = br.begin(); i != br.end(); ++i) {
                        e.a[i] = r.A.dot_row(i, w);
                        e.b[i] = r.B.dot_row(i, w);
                        e.c[i] = r.C.dot_row(i, w);
                      }
                    });
  return e;
}

template <class F>
struct Unsatisfied {
  std::uint64_t index;  // constraint row
  std::string name;     // "" when the R1CS carries no names
  F a, b, c;            // <A,w>, <B,w>, <C,w> at that row (a·b != c)
};

// The first (lowest-index) unsatisfied constraint, or nullopt when w satisfies every constraint.
// Throws std::invalid_argument on a witness of the wrong length or with w[0] != 1.
template <class F>
std::optional<Unsatisfied<F>> check(const R1CS<F>& r, std::span<const F> w) {
  check_witness_size(r, w);
  if (!w.empty() && !w[0].is_one()) throw std::invalid_argument("witness: w[0] must be 1 (the constant-one wire)");
  const std::uint64_t none = ~std::uint64_t{0};
  std::atomic<std::uint64_t> first{none};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, r.num_constraints, kEvalGrainRows),
                    [&](const tbb::blocked_range<std::size_t>& br) {
                      for (std::size_t i = br.begin(); i != br.end(); ++i) {
                        if (i >= first.load(std::memory_order_relaxed)) return;  // a lower row already failed
                        if (r.A.dot_row(i, w) * r.B.dot_row(i, w) != r.C.dot_row(i, w)) {
                          std::uint64_t cur = first.load(std::memory_order_relaxed);
                          while (i < cur && !first.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {
                          }
                          return;
                        }
                      }
                    });
  const std::uint64_t i = first.load();
  if (i == none) return std::nullopt;
  return Unsatisfied<F>{i, std::string(r.constraint_name(i)), r.A.dot_row(i, w), r.B.dot_row(i, w),
                        r.C.dot_row(i, w)};
}

}  // namespace cuzk::r1cs
