// cuzk porep prove --c1 FILE [--format auto|json|curio|bincode] [--proof P] [--prover-id ID] [--sector N]
//                  [--params-dir DIR] [--out proof.bin] [--partition K] [--quiet]
// A sector's PoRep C2 on the CPU: every partition's StackedDRG SNARK (or the one --partition
// names) from its C1 output (c1_output.hpp). The C1 is decoded and fully checked before any
// proving (c1_check.hpp verify_c1; with --prover-id and --sector also its replica id). The circuit
// is recorded once and the key loaded once; then per partition: the witness, whose public inputs
// must equal those a chain verifier derives from replica id, comm_d, comm_r, seed and the
// partition (porep_public_inputs), the proof, and its verification with the key's .vk against
// those inputs. Only then are the proofs written: concatenated in partition order, 192 bytes each
// (filecoin-proofs' multi-partition proof bytes, as seal_commit_phase2 returns them).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_check.hpp"
#include "cuzk/filecoin/c1_circuit.hpp"
#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_keys.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/porep_record.hpp"
#include "cuzk/filecoin/porep_witness.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/cpu_backend.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "files.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"

namespace cuzk::cli {

namespace fc = filecoin;

namespace {

// The C1 file in any form (c1_output.hpp decode_c1), errors prefixed with the file's name.
fc::DecodedC1 decode_c1_file(const PorepProveArgs& a, const std::optional<fc::RegisteredSealProof>& proof) {
  const auto format = fc::parse_c1_format(a.format);
  if (!format) throw DecodeError("--format " + a.format + ": expected auto, json, curio or bincode");
  const std::string bytes = read_text_file(a.c1);
  try {
    return fc::decode_c1(as_bytes(bytes), *format, proof);
  } catch (const DecodeError& e) {
    throw DecodeError(a.c1 + ": " + e.what());
  }
}

fc::C1CheckOptions check_options(const PorepProveArgs& a, const fc::DecodedC1& d) {
  std::optional<std::uint64_t> sector;
  if (!a.sector.empty()) {
    sector = parse_u64(a.sector, "--sector");
    if (d.sector_num && *d.sector_num != *sector)
      throw DecodeError("--sector " + a.sector + " but " + a.c1 + " is Curio's request for sector " +
                        std::to_string(*d.sector_num));
  } else {
    sector = d.sector_num;
  }
  fc::C1CheckOptions o;
  if (a.prover_id.empty()) {
    if (!a.sector.empty()) throw DecodeError("--sector needs --prover-id: the replica id is derived from both");
    return o;
  }
  if (!sector) throw DecodeError("--prover-id needs --sector: the replica id is derived from both");
  o.prover_id = parse_prover_id(a.prover_id);
  o.sector_number = sector;
  return o;
}

void print_phases(const groth16::PhaseTimings& t, double& total) {
  for (const auto& [name, ms] : t.phases) {
    std::fprintf(stderr, "  %-14s %10.2f ms\n", name.c_str(), ms);
    total += ms;
  }
}

// Why a proof failed to verify: an unsatisfied circuit (a C1 the checks let through) names its
// first unsatisfied constraint; a satisfied one means the key is not this circuit's.
[[noreturn]] void explain_failed_proof(const fc::StackedCircuit& circuit, std::size_t k, const std::string& vk) {
  if (const auto u = cs::check<fc::Fr>(circuit))
    throw std::runtime_error("partition " + std::to_string(k) + ": the C1 does not satisfy the circuit (constraint " +
                             std::to_string(u->index) + ", " + u->name + "); nothing written");
  throw std::runtime_error("partition " + std::to_string(k) + ": the proof does not verify with " + vk +
                           ": the key is not this circuit's, or it is corrupt; nothing written");
}

}  // namespace

int run_porep_prove(const PorepProveArgs& a) {
  using E = fc::Bls12;
  groth16::PhaseTimings prep;
  const std::optional<fc::RegisteredSealProof> given =
      a.proof.empty() ? std::nullopt : std::optional(parse_seal_proof(a.proof));

  fc::DecodedC1 d;
  {
    groth16::ScopedPhase p(prep, "decode");
    d = decode_c1_file(a, given);
  }
  const fc::SealCommitPhase1& c1 = d.c1;
  const fc::SealProofInfo& info = fc::seal_proof_info(c1.registered_proof);
  if (info.feature == fc::SealFeature::NonInteractivePoRep)
    throw std::invalid_argument(std::string(info.name) + ": non-interactive PoRep is not supported");
  const fc::C1CheckOptions options = check_options(a, d);
  {
    groth16::ScopedPhase p(prep, "check");
    try {
      fc::verify_c1(c1, options);
    } catch (const DecodeError& e) {
      throw DecodeError(a.c1 + ": " + e.what());
    }
  }
  if (!options.prover_id)
    std::fprintf(stderr,
                 "note: the replica id was not checked against the prover and sector (give --prover-id and "
                 "--sector)\n");
  std::vector<std::size_t> partitions;
  if (a.partition_given) {
    if (a.partition >= c1.partitions.size())
      throw DecodeError("--partition " + std::to_string(a.partition) + ": a " + std::string(info.name) + " C1 has " +
                        std::to_string(c1.partitions.size()) + " partition(s)");
    partitions.push_back(a.partition);
  } else {
    for (std::size_t k = 0; k < c1.partitions.size(); ++k) partitions.push_back(k);
  }

  const fc::KeyPaths paths = fc::porep_key_paths(a.params_dir, info);
  fc::require_key_files(paths, info.name, fc::kPorepSetupCommand);
  const bool test_key = fc::is_test_key(paths);
  if (test_key)
    std::fprintf(stderr,
                 "WARNING: %s is a cuzk TEST key, not Filecoin's official one: this proof is not valid on chain\n",
                 paths.params.c_str());

  const fc::PorepC1Shape shape = fc::c1_shape(info.id);
  r1cs::R1CS<fc::Fr> circuit;
  {
    groth16::ScopedPhase p(prep, "record");
    circuit = fc::record_porep_circuit(fc::porep_shape(info));
  }
  groth16::ProvingKey<E> pk;
  {
    groth16::ScopedPhase p(prep, "load_key");
    pk = fc::load_porep_proving_key(paths, info, circuit);
  }
  const std::uint32_t num_constraints = circuit.num_constraints;
  circuit = {};  // the key holds the QAP now
  double total = 0;
  if (!a.quiet) {
    std::fprintf(stderr, "%s: %zu partition(s) of %zu challenges, %u constraints each\n",
                 std::string(info.name).c_str(), c1.partitions.size(), shape.challenges_per_partition, num_constraints);
    print_phases(prep, total);
  }

  const fc::SdrGraph graph(info);
  groth16::CpuBackend<E> backend;
  std::string out;
  std::size_t num_inputs = 0;
  for (const std::size_t k : partitions) {
    groth16::PhaseTimings t;
    const fc::StackedCircuit partition = fc::c1_partition_circuit(c1, shape, k);
    std::vector<fc::Fr> inputs;
    {
      groth16::ScopedPhase p(t, "inputs");
      inputs = fc::porep_public_inputs(info.id, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k, &graph);
    }
    std::vector<fc::Fr> w;
    {
      groth16::ScopedPhase p(t, "witness");
      w = fc::porep_witness_full(partition);
      if (w.size() < inputs.size() + 1 || !std::equal(inputs.begin(), inputs.end(), w.begin() + 1))
        throw std::logic_error("partition " + std::to_string(k) +
                               ": the witness exposes other public inputs than a verifier derives (a bug in cuzk)");
    }
    num_inputs = inputs.size();
    const groth16::Proof<E> proof = groth16::prove(pk, std::span<const fc::Fr>(w), backend, t);
    w = {};
    bool ok = false;
    {
      groth16::ScopedPhase p(t, "verify");
      ok = groth16::verify(pk.vk, proof, std::span<const fc::Fr>(inputs));
    }
    if (!ok) explain_failed_proof(partition, k, paths.vk.string());
    const auto bytes = groth16::write_bellperson_proof(proof);
    out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (!a.quiet) {
      std::fprintf(stderr, "partition %zu:\n", k);
      print_phases(t, total);
    }
  }
  write_text_file(a.out, out);
  if (!a.quiet) {
    std::fprintf(stderr, "  %-14s %10.2f ms\n", "total", total);
    std::fprintf(stderr, "proved %s: %zu partition proof(s) (%zu public inputs each) -> %s, %zu bytes%s\n",
                 std::string(info.name).c_str(), partitions.size(), num_inputs, a.out.c_str(), out.size(),
                 test_key ? " (TEST key)" : "");
  }
  return 0;
}

}  // namespace cuzk::cli
