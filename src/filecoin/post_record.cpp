// record_post_circuit (post_record.hpp): one slot recorded, replicated with shifted wires.
#include "cuzk/filecoin/post_record.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <limits>
#include <stdexcept>

namespace cuzk::filecoin {

namespace {

// Copies `slot` (columns: 0 = ONE, 1..slot_inputs = the slot's inputs, then its aux wires) into
// `out` once per slot, slot k's inputs at 1 + k·slot_inputs and its aux wires after all inputs
// at k·slot_aux.
void replicate(const r1cs::CsrMatrix<Fr>& slot, std::size_t slots, std::uint32_t slot_inputs, std::uint32_t slot_aux,
               std::uint32_t total_inputs, r1cs::CsrMatrix<Fr>& out) {
  const std::size_t rows = slot.num_rows(), nnz = slot.nnz();
  out.row_ptr.assign(slots * rows + 1, 0);
  out.cols.resize(slots * nnz);
  out.vals.resize(slots * nnz);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, slots), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      const std::uint64_t base = k * nnz;
      for (std::size_t i = 0; i < rows; ++i) out.row_ptr[k * rows + i + 1] = base + slot.row_ptr[i + 1];
      for (std::size_t t = 0; t < nnz; ++t) {
        out.cols[base + t] = slot_column(slot.cols[t], static_cast<std::uint32_t>(k), slot_inputs, slot_aux, total_inputs);
        out.vals[base + t] = slot.vals[t];
      }
    }
  });
}

}  // namespace

r1cs::R1CS<Fr> record_post_circuit(const PostShape& shape) {
  const FallbackPostCircuit one = FallbackPostCircuit::blank(PostShape{shape.tree, shape.sector_nodes, shape.challenges, 1});
  cs::RecordCS<Fr> rec;
  one.synthesize_challenge(rec, 0);
  const r1cs::R1CS<Fr> slot = std::move(rec).finish();
  const std::uint64_t slot_inputs = slot.num_public, slot_aux = slot.num_vars - slot.num_public - 1;
  const std::uint64_t total_inputs = 1 + shape.sectors * slot_inputs;
  const std::uint64_t vars = total_inputs + shape.sectors * slot_aux;
  const std::uint64_t rows = std::uint64_t{shape.sectors} * slot.num_constraints;
  if (vars > std::numeric_limits<std::uint32_t>::max() || rows > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("record_post_circuit: the partition has more than 2^32 wires or constraints");
  r1cs::R1CS<Fr> r = r1cs::make_empty_r1cs<Fr>(static_cast<std::uint32_t>(vars), static_cast<std::uint32_t>(total_inputs - 1));
  r.num_constraints = static_cast<std::uint32_t>(rows);
  const auto si = static_cast<std::uint32_t>(slot_inputs), sa = static_cast<std::uint32_t>(slot_aux),
             ti = static_cast<std::uint32_t>(total_inputs);
  replicate(slot.A, shape.sectors, si, sa, ti, r.A);
  replicate(slot.B, shape.sectors, si, sa, ti, r.B);
  replicate(slot.C, shape.sectors, si, sa, ti, r.C);
  return r;
}

}  // namespace cuzk::filecoin
