// record_snap_circuit, snap_circuit_size and the witness in place (snap_record.hpp).
#include "cuzk/filecoin/snap_record.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "cuzk/cs/placed_witness_cs.hpp"
#include "witness_vector.hpp"

namespace cuzk::filecoin {

namespace {

// The header and challenge 0 recorded, with what replicating challenge 0 needs: column layout
// 0 ONE, 1..header inputs, then ha header aux wires and ca challenge aux wires.
struct OneChallenge {
  r1cs::R1CS<Fr> r1;
  std::size_t header_rows = 0;
  std::uint32_t inputs = 0;  // ONE included: the whole partition's
  std::uint32_t ha = 0, ca = 0;
  std::size_t challenges = 0;
  // Per challenge, the aux indices of its random bits (header wires).
  std::vector<std::vector<std::uint32_t>> random_bits;
  // For each header aux wire: the position among challenge 0's random bits, or -1.
  std::vector<std::int32_t> bit0;
  std::uint64_t vars = 0, rows = 0;

  explicit OneChallenge(const SnapParams& params) {
    const EmptySectorUpdateCircuit blank = EmptySectorUpdateCircuit::blank(params);
    cs::RecordCS<Fr> rec;
    const SnapHeader h = blank.synthesize_header(rec);
    const std::size_t header_inputs = rec.num_inputs(), header_aux = rec.num_aux();
    header_rows = rec.num_constraints();
    blank.synthesize_challenge(rec, 0, h);
    if (rec.num_inputs() != header_inputs)
      throw std::logic_error("record_snap_circuit: a challenge allocated an input");
    r1 = std::move(rec).finish();
    inputs = static_cast<std::uint32_t>(header_inputs);
    ha = static_cast<std::uint32_t>(header_aux);
    ca = static_cast<std::uint32_t>(r1.num_vars - inputs - ha);
    challenges = params.challenge_count;
    random_bits.resize(challenges);
    bit0.assign(ha, -1);
    for (std::size_t k = 0; k < challenges; ++k)
      for (const AllocatedBit& b : h.random_bits.at(k)) random_bits[k].push_back(b.variable().index());
    for (std::size_t t = 0; t < random_bits[0].size(); ++t) bit0.at(random_bits[0][t]) = static_cast<std::int32_t>(t);
    vars = std::uint64_t{inputs} + ha + challenges * std::uint64_t{ca};
    rows = header_rows + challenges * std::uint64_t{r1.num_constraints - header_rows};
  }

  // Column c of challenge 0's rows, in challenge k.
  std::uint32_t map(std::uint32_t c, std::size_t k) const {
    if (c < inputs) return c;
    const std::uint32_t a = c - inputs;
    if (a >= ha) return static_cast<std::uint32_t>(inputs + ha + k * ca + (a - ha));
    const std::int32_t t = bit0[a];
    return t < 0 ? c : inputs + random_bits[k][static_cast<std::size_t>(t)];
  }

  std::uint64_t nnz(const r1cs::CsrMatrix<Fr>& m) const {
    const std::uint64_t hnnz = m.row_ptr[header_rows];
    return hnnz + challenges * (m.nnz() - hnnz);
  }

  // Header rows once (their columns are final), then challenge 0's rows once per challenge.
  void replicate(const r1cs::CsrMatrix<Fr>& m, r1cs::CsrMatrix<Fr>& out) const {
    const std::size_t crows = m.num_rows() - header_rows;
    const std::uint64_t hnnz = m.row_ptr[header_rows], cnnz = m.nnz() - hnnz;
    out.row_ptr.assign(header_rows + challenges * crows + 1, 0);
    out.cols.resize(hnnz + challenges * cnnz);
    out.vals.resize(out.cols.size());
    for (std::size_t i = 0; i < header_rows; ++i) out.row_ptr[i + 1] = m.row_ptr[i + 1];
    for (std::uint64_t t = 0; t < hnnz; ++t) out.cols[t] = m.cols[t], out.vals[t] = m.vals[t];
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, challenges), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        const std::uint64_t base = hnnz + k * cnnz;
        for (std::size_t i = 0; i < crows; ++i)
          out.row_ptr[header_rows + k * crows + i + 1] = base + (m.row_ptr[header_rows + i + 1] - hnnz);
        for (std::uint64_t t = 0; t < cnnz; ++t) {
          out.cols[base + t] = map(m.cols[hnnz + t], k);
          out.vals[base + t] = m.vals[hnnz + t];
        }
      }
    });
  }
};

}  // namespace

r1cs::R1CS<Fr> record_snap_circuit(const SnapParams& params) {
  const OneChallenge o(params);
  if (o.vars > std::numeric_limits<std::uint32_t>::max() || o.rows > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("record_snap_circuit: more than 2^32 wires or constraints");
  r1cs::R1CS<Fr> r = r1cs::make_empty_r1cs<Fr>(static_cast<std::uint32_t>(o.vars), o.inputs - 1);
  r.num_constraints = static_cast<std::uint32_t>(o.rows);
  o.replicate(o.r1.A, r.A);
  o.replicate(o.r1.B, r.B);
  o.replicate(o.r1.C, r.C);
  return r;
}

SnapCircuitSize snap_circuit_size(const SnapParams& params) {
  const OneChallenge o(params);
  return SnapCircuitSize{o.inputs - 1u, o.vars, o.rows, o.nnz(o.r1.A), o.nnz(o.r1.B), o.nnz(o.r1.C)};
}

SnapWitnessLayout snap_witness_layout(const SnapParams& params) {
  const EmptySectorUpdateCircuit blank = EmptySectorUpdateCircuit::blank(params);
  cs::CountCS<Fr> head;
  const SnapHeader h = blank.synthesize_header(head);
  cs::CountCS<Fr> one;
  blank.synthesize_challenge(one, 0, h);
  if (one.num_inputs() != 1) throw std::logic_error("snap_witness_layout: a challenge allocates an input");
  return SnapWitnessLayout{params, head.num_inputs(), head.num_aux(), one.num_aux(), params.challenge_count};
}

void snap_witness_into(const EmptySectorUpdateCircuit& c, const SnapWitnessLayout& l, std::span<Fr> out) {
  if (!(c.params() == l.params) || c.num_challenges() != l.challenges)
    throw std::invalid_argument("snap_witness_into: the layout is of another sector size or shape (" +
                                std::to_string(l.params.sector_nodes) + " nodes) than the circuit (" +
                                std::to_string(c.params().sector_nodes) + ")");
  if (out.size() != l.size())
    throw std::invalid_argument("snap_witness_into: " + std::to_string(out.size()) + " elements for " +
                                std::to_string(l.size()) + " wires");
  Fr* w = out.data();
  w[0] = Fr::one();
  const std::size_t aux_base = l.header_inputs;
  cs::PlacedWitnessCS<Fr> head(w, aux_base, 1, l.header_inputs, 0, l.header_aux, "snap_witness");
  const SnapHeader h = c.synthesize_header(head);
  if (!head.filled()) throw std::logic_error("snap_witness: the header allocates fewer wires than counted");
  // One challenge per task: they are few (86 at 32 GiB) and alike, each wire written once, in place.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, l.challenges, 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const std::size_t aux0 = l.header_aux + i * l.challenge_aux;
      cs::PlacedWitnessCS<Fr> s(w, aux_base, l.header_inputs, l.header_inputs, aux0, aux0 + l.challenge_aux,
                                "snap_witness");
      c.synthesize_challenge(s, i, h);
      if (!s.filled())
        throw std::logic_error("snap_witness: challenge " + std::to_string(i) + " allocates fewer wires than counted");
    }
  });
}

std::vector<Fr> snap_witness_full(const EmptySectorUpdateCircuit& c) {
  const SnapWitnessLayout l = snap_witness_layout(c.params());
  std::vector<Fr> w = detail::zeroed_witness_vector(l.size());
  snap_witness_into(c, l, w);
  return w;
}

}  // namespace cuzk::filecoin
