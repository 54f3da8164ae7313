// record_porep_circuit (porep_record.hpp).
#include "cuzk/filecoin/porep_record.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <limits>
#include <stdexcept>

namespace cuzk::filecoin {

namespace {

// Column layout of the header + one challenge recording: 0 ONE, 1..hi the header's inputs,
// hi+1..hi+ci the challenge's inputs, then ha header aux wires and ca challenge aux wires.
struct Layout {
  std::uint32_t hi, ci, ha, ca;
  std::size_t challenges;
  std::uint32_t total_inputs() const { return static_cast<std::uint32_t>(1 + hi + challenges * ci); }
  // The column of one-challenge column c in challenge k of the partition.
  std::uint32_t map(std::uint32_t c, std::uint32_t k) const {
    if (c <= hi) return c;                                          // ONE and the header's inputs
    if (c <= hi + ci) return c + k * ci;                            // challenge k's inputs
    const std::uint32_t a = c - 1 - hi - ci;                        // aux index in the recording
    if (a < ha) return total_inputs() + a;                          // the header's aux wires
    return total_inputs() + ha + k * ca + (a - ha);                 // challenge k's aux wires
  }
};

// Header rows once, then challenge rows (rows [header_rows, end)) once per challenge.
void replicate(const r1cs::CsrMatrix<Fr>& m, std::size_t header_rows, const Layout& l, r1cs::CsrMatrix<Fr>& out) {
  const std::size_t rows = m.num_rows(), crows = rows - header_rows;
  const std::uint64_t hnnz = m.row_ptr[header_rows], cnnz = m.nnz() - hnnz;
  out.row_ptr.assign(header_rows + l.challenges * crows + 1, 0);
  out.cols.resize(hnnz + l.challenges * cnnz);
  out.vals.resize(out.cols.size());
  for (std::size_t i = 0; i < header_rows; ++i) out.row_ptr[i + 1] = m.row_ptr[i + 1];
  for (std::uint64_t t = 0; t < hnnz; ++t) out.cols[t] = l.map(m.cols[t], 0), out.vals[t] = m.vals[t];
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, l.challenges), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      const std::uint64_t base = hnnz + k * cnnz;
      for (std::size_t i = 0; i < crows; ++i)
        out.row_ptr[header_rows + k * crows + i + 1] = base + (m.row_ptr[header_rows + i + 1] - hnnz);
      for (std::uint64_t t = 0; t < cnnz; ++t) {
        out.cols[base + t] = l.map(m.cols[hnnz + t], static_cast<std::uint32_t>(k));
        out.vals[base + t] = m.vals[hnnz + t];
      }
    }
  });
}

// The header and one challenge recorded, with how they replicate over the shape's challenges.
struct OneChallenge {
  r1cs::R1CS<Fr> r1;
  std::size_t header_rows = 0;
  Layout l;
  std::uint64_t vars = 0, rows = 0;

  explicit OneChallenge(const PorepShape& shape) {
    const StackedCircuit one = StackedCircuit::blank(PorepShape{shape.tree, shape.nodes, shape.layers, 1});
    cs::RecordCS<Fr> rec;
    const PorepHeader h = one.synthesize_header(rec);
    const std::size_t hi = rec.num_inputs() - 1, ha = rec.num_aux();
    header_rows = rec.num_constraints();
    one.synthesize_challenge(rec, 0, h);
    r1 = std::move(rec).finish();
    l.hi = static_cast<std::uint32_t>(hi);
    l.ci = static_cast<std::uint32_t>(r1.num_public - hi);
    l.ha = static_cast<std::uint32_t>(ha);
    l.ca = static_cast<std::uint32_t>(r1.num_vars - 1 - r1.num_public - ha);
    l.challenges = shape.challenges;
    vars = std::uint64_t{l.total_inputs()} + l.ha + shape.challenges * std::uint64_t{l.ca};
    rows = header_rows + shape.challenges * std::uint64_t{r1.num_constraints - header_rows};
  }
  // The whole partition's nonzeros of one matrix.
  std::uint64_t nnz(const r1cs::CsrMatrix<Fr>& m) const {
    const std::uint64_t hnnz = m.row_ptr[header_rows];
    return hnnz + l.challenges * (m.nnz() - hnnz);
  }
};

}  // namespace

r1cs::R1CS<Fr> record_porep_circuit(const PorepShape& shape) {
  const OneChallenge o(shape);
  if (o.vars > std::numeric_limits<std::uint32_t>::max() || o.rows > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("record_porep_circuit: more than 2^32 wires or constraints");
  r1cs::R1CS<Fr> r = r1cs::make_empty_r1cs<Fr>(static_cast<std::uint32_t>(o.vars), o.l.total_inputs() - 1);
  r.num_constraints = static_cast<std::uint32_t>(o.rows);
  replicate(o.r1.A, o.header_rows, o.l, r.A);
  replicate(o.r1.B, o.header_rows, o.l, r.B);
  replicate(o.r1.C, o.header_rows, o.l, r.C);
  return r;
}

PorepCircuitSize porep_circuit_size(const PorepShape& shape) {
  const OneChallenge o(shape);
  return PorepCircuitSize{o.l.total_inputs() - 1u, o.vars, o.rows, o.nnz(o.r1.A), o.nnz(o.r1.B), o.nnz(o.r1.C)};
}

}  // namespace cuzk::filecoin
