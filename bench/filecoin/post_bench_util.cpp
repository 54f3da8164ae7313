// post_bench_util.hpp.
#include "post_bench_util.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "cuzk/filecoin/post_record.hpp"
#include "cuzk/filecoin/post_vanilla_gen.hpp"
#include "cuzk/groth16/qap.hpp"
#include "cuzk/r1cs/value_dictionary.hpp"

namespace cuzk::bench {

namespace fc = filecoin;

PostInput post_input(fc::RegisteredPoStProof proof, const std::filesystem::path& data_dir, std::size_t sectors) {
  PostInput in;
  in.proof = proof;
  if (proof == fc::RegisteredPoStProof::StackedDrgWindow32GiBV1 || proof == fc::RegisteredPoStProof::StackedDrgWindow32GiBV1_2) {
    const auto path = data_dir / "window-post-32gib.vproof";
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + path.string());
    in.vanilla.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    in.sector_ids = {1};  // Curio's golden data: sector 1, randomness all zero
    in.source = "the real 32 GiB vanilla proof (Curio's golden data), repeated into every slot";
    return in;
  }
  for (std::size_t i = 0; i < sectors; ++i) in.sector_ids.push_back(1 + i);
  in.randomness[0] = 7;
  for (auto& s : fc::generate_post_vanilla_proofs(proof, in.randomness, in.sector_ids, 0, 1))
    in.vanilla.push_back(std::move(s.vanilla_proof));
  in.source = std::to_string(sectors) + " synthetic sector(s)";
  return in;
}

fc::PostPartitionInputs partition_inputs(const PostInput& in) {
  fc::PostPartitionInputs p;
  p.proof = in.proof;
  p.randomness = in.randomness;
  for (const auto& v : in.vanilla) p.vanilla_proofs.emplace_back(v);
  p.sector_ids = in.sector_ids;
  return p;
}

namespace {

// Slot matrix m (columns: 0 ONE, 1..si the slot's inputs, then its aux) copied `slots` times into
// out with shifted wires and its value positions; then `binding` rows of one ONE term each in
// columns 0..binding-1 (the QAP's public-input rows; only A has terms there).
void replicate_indexed(const r1cs::CsrMatrix<fc::Fr>& m, std::size_t slots, std::uint32_t si, std::uint32_t sa,
                       std::uint32_t total_inputs, std::size_t binding, bool binding_terms, std::size_t num_vars,
                       r1cs::CsrMatrix<fc::Fr>& out) {
  auto d = r1cs::dictionary_of<std::uint16_t>(std::span<const fc::Fr>(m.vals));
  if (!d) throw std::runtime_error("a slot matrix has more than 65536 distinct coefficients");
  std::vector<fc::Fr> table = std::move(d->values);
  const std::uint16_t one = binding_terms ? value_position_of_one(table) : 0;
  const std::size_t rows = m.num_rows(), nnz = m.nnz();
  out.num_cols = static_cast<std::uint32_t>(num_vars);
  out.row_ptr.assign(slots * rows + binding + 1, 0);
  out.cols.resize(slots * nnz + (binding_terms ? binding : 0));
  out.val_idx.resize(out.cols.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, slots), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      const std::uint64_t base = k * nnz;
      for (std::size_t i = 0; i < rows; ++i) out.row_ptr[k * rows + i + 1] = base + m.row_ptr[i + 1];
      for (std::size_t t = 0; t < nnz; ++t) {
        out.cols[base + t] = fc::slot_column(m.cols[t], static_cast<std::uint32_t>(k), si, sa, total_inputs);
        out.val_idx[base + t] = d->pos[t];
      }
    }
  });
  std::uint64_t at = slots * nnz;
  for (std::size_t j = 0; j < binding; ++j) {
    if (binding_terms) {
      out.cols[at] = static_cast<std::uint32_t>(j);
      out.val_idx[at] = one;
      ++at;
    }
    out.row_ptr[slots * rows + j + 1] = at;
  }
  out.val_table = std::move(table);
}

}  // namespace

IndexedQap indexed_post_qap(const fc::PostShape& shape) {
  cs::RecordCS<fc::Fr> rec;
  fc::FallbackPostCircuit::blank(fc::PostShape{shape.tree, shape.sector_nodes, shape.challenges, 1}).synthesize_challenge(rec, 0);
  const r1cs::R1CS<fc::Fr> slot = std::move(rec).finish();
  IndexedQap q;
  const std::uint32_t si = slot.num_public, sa = slot.num_vars - slot.num_public - 1;
  q.num_public = shape.sectors * si;
  q.num_vars = 1 + shape.sectors * (si + sa);
  q.constraints = shape.sectors * slot.num_constraints;
  q.domain_size = groth16::qap_domain_size(q.constraints, q.num_public);
  const auto ti = static_cast<std::uint32_t>(1 + q.num_public);
  replicate_indexed(slot.A, shape.sectors, si, sa, ti, q.num_public + 1, true, q.num_vars, q.a);
  replicate_indexed(slot.B, shape.sectors, si, sa, ti, q.num_public + 1, false, q.num_vars, q.b);
  return q;
}

}  // namespace cuzk::bench
