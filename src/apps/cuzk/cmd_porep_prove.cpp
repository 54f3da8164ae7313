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
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_check.hpp"
#include "cuzk/filecoin/c1_circuit.hpp"
#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_keys.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/porep_record.hpp"
#include "cuzk/filecoin/porep_witness.hpp"
#include "files.hpp"
#include "key_cli.hpp"
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

}  // namespace

int run_porep_prove(const PorepProveArgs& a) {
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

  const fc::PorepC1Shape shape = fc::c1_shape(info.id);
  const CliProvingKey key =
      load_cli_proving_key(fc::porep_key_paths(a.params_dir, info), info.name, fc::kPorepSetupCommand,
                           [&] { return fc::record_porep_circuit(fc::porep_shape(info)); }, prep);
  char header[160];
  std::snprintf(header, sizeof header, "%s: %zu partition(s) of %zu challenges, %u constraints each",
                std::string(info.name).c_str(), c1.partitions.size(), shape.challenges_per_partition,
                key.num_constraints);
  PartitionProofFile file(a.quiet, header, prep);
  const fc::SdrGraph graph(info);
  std::size_t num_inputs = 0;
  for (const std::size_t k : partitions) {
    groth16::PhaseTimings t;
    const fc::StackedCircuit partition = fc::c1_partition_circuit(c1, shape, k);
    std::vector<fc::Fr> inputs;
    {
      groth16::ScopedPhase p(t, "inputs");
      inputs = fc::porep_public_inputs(info.id, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k, &graph);
    }
    num_inputs = inputs.size();
    std::vector<fc::Fr> w;
    {
      groth16::ScopedPhase p(t, "witness");
      w = fc::porep_witness_full(partition);
    }
    const std::string label = "partition " + std::to_string(k) + ": ";
    file.add(k, prove_and_verify(key, std::move(w), inputs, label, t, unsatisfied(partition, label, "the C1")), t);
  }
  file.write(a.out, info.name, num_inputs, key.test);
  return 0;
}

}  // namespace cuzk::cli
