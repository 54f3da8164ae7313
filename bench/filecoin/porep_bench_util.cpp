// porep_bench_util.hpp.
#include "porep_bench_util.hpp"

#include <algorithm>
#include <cstdlib>
#include <span>
#include <stdexcept>

#include "cuzk/filecoin/c1_check.hpp"
#include "cuzk/filecoin/c1_circuit.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/porep_witness.hpp"
#include "cuzk/groth16/qap.hpp"
#include "cuzk/r1cs/value_dictionary.hpp"

namespace cuzk::bench {

namespace fc = filecoin;

fc::RegisteredSealProof porep_proof_of_size(std::string_view size) {
  const std::uint64_t bytes = sector_size_bytes(size);
  if (const auto p = fc::interactive_seal_proof_of_size(bytes)) return *p;
  throw std::invalid_argument("no interactive V1_1 seal proof of sector size " + std::string(size));
}

PorepInput porep_input(fc::RegisteredSealProof proof) {
  PorepInput in;
  in.params = fc::porep_gen_params(proof, 1);
  auto t0 = std::chrono::steady_clock::now();
  in.c1 = fc::generate_porep_c1(in.params, fc::PorepGenMode::Sparse);
  in.generate_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  in.json = fc::encode_c1_json(in.c1);
  in.encode_ms = ms_since(t0);
  return in;
}

CheckedC1 decode_and_check(const PorepInput& in) {
  CheckedC1 out;
  const auto* b = reinterpret_cast<const std::uint8_t*>(in.json.data());
  auto t0 = std::chrono::steady_clock::now();
  out.c1 = fc::decode_c1(std::span<const std::uint8_t>(b, in.json.size())).c1;
  out.decode_ms = ms_since(t0);
  fc::C1CheckOptions opt;
  opt.prover_id = in.params.prover_id;
  opt.sector_number = in.params.sector;
  t0 = std::chrono::steady_clock::now();
  fc::verify_c1(out.c1, opt);
  out.verify_ms = ms_since(t0);
  return out;
}

PorepPartitionWitness porep_partition_witness(const fc::SealCommitPhase1& c1, std::size_t k) {
  PorepPartitionWitness out;
  auto t0 = std::chrono::steady_clock::now();
  out.w = fc::porep_witness_full(fc::c1_partition_circuit(c1, k));
  out.synth_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  out.public_inputs = fc::porep_public_inputs(c1.registered_proof, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k);
  out.inputs_ms = ms_since(t0);
  out.inputs_match = out.w.size() > out.public_inputs.size() &&
                     std::equal(out.public_inputs.begin(), out.public_inputs.end(), out.w.begin() + 1);
  return out;
}

namespace {

// m value-indexed, its values freed, then `binding` rows appended: one ONE term in column j for
// row j when binding_terms (A), empty rows otherwise (B).
void index_with_binding_rows(r1cs::CsrMatrix<fc::Fr>& m, std::size_t binding, bool binding_terms) {
  if (!r1cs::index_values(m)) throw std::runtime_error("a PoRep matrix has more than 65536 distinct coefficients");
  m.vals = std::vector<fc::Fr>();  // freed (assigning {} could keep the capacity)
  const std::uint16_t one = binding_terms ? value_position_of_one(m.val_table) : 0;
  if (binding_terms) {
    m.cols.reserve(m.cols.size() + binding);
    m.val_idx.reserve(m.val_idx.size() + binding);
  }
  m.row_ptr.reserve(m.row_ptr.size() + binding);
  for (std::size_t j = 0; j < binding; ++j) {
    if (binding_terms) {
      m.cols.push_back(static_cast<std::uint32_t>(j));
      m.val_idx.push_back(one);
    }
    m.row_ptr.push_back(m.cols.size());
  }
}

}  // namespace

IndexedQap indexed_qap(r1cs::R1CS<fc::Fr>&& r) {
  IndexedQap q;
  q.num_vars = r.num_vars;
  q.num_public = r.num_public;
  q.constraints = r.num_constraints;
  q.domain_size = groth16::qap_domain_size(r.num_constraints, r.num_public);
  r.C = r1cs::CsrMatrix<fc::Fr>();
  q.a = std::move(r.A);
  q.b = std::move(r.B);
  index_with_binding_rows(q.a, q.num_public + 1, true);
  index_with_binding_rows(q.b, q.num_public + 1, false);
  return q;
}

}  // namespace cuzk::bench
