// cuzk snap prove --vanilla FILE... --proof P --comm-r-old C --comm-r-new C --comm-d-new C
//                 [--params-dir DIR] [--out proof.bin] [--quiet]
// A sector update's SnapDeals proof on the CPU (filecoin-proofs api/update.rs
// generate_empty_sector_update_proof_with_vanilla): every partition's EmptySectorUpdate SNARK from
// its vanilla PartitionProof. All vanilla proofs are decoded and checked against the commitments
// before any proving (snap_check.hpp: count, roots, paths, encoding, challenges). The circuit is
// recorded once and the key loaded once; then per partition: the witness, whose public inputs must
// equal those a chain verifier derives from the commitments (snap_request.hpp), the proof, and its
// verification with the key's .vk. Only then are the proofs written: concatenated in partition
// order, 192 bytes each (filecoin-proofs' EmptySectorUpdateProof bytes).
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/snap_check.hpp"
#include "cuzk/filecoin/snap_keys.hpp"
#include "cuzk/filecoin/snap_record.hpp"
#include "cuzk/filecoin/snap_request.hpp"
#include "files.hpp"
#include "key_cli.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"
#include "snap_cli.hpp"

namespace cuzk::cli {

namespace fc = filecoin;

namespace {

// Every partition's vanilla proof decoded, checked and made its circuit, errors naming the file.
std::vector<fc::EmptySectorUpdateCircuit> partition_circuits(const SnapProveArgs& a, const fc::UpdateProofInfo& info,
                                                             const fc::SnapParams& params, const fc::SnapPublic& pub) {
  if (a.vanilla.size() != params.partition_count)
    throw DecodeError(std::to_string(a.vanilla.size()) + " --vanilla file(s); a " + std::string(info.name) +
                      " update has " + std::to_string(params.partition_count) +
                      " partition(s), one file each, in order");
  std::vector<fc::EmptySectorUpdateCircuit> out;
  for (std::size_t k = 0; k < a.vanilla.size(); ++k) {
    const std::string bytes = read_text_file(a.vanilla[k]);
    try {
      out.push_back(fc::snap_partition_circuit(params, pub, k, as_bytes(bytes)));
    } catch (const DecodeError& e) {
      throw DecodeError(a.vanilla[k] + " (partition " + std::to_string(k) + "): " + e.what());
    } catch (const std::invalid_argument& e) {
      throw DecodeError(a.vanilla[k] + " (partition " + std::to_string(k) + "): " + e.what());
    }
  }
  return out;
}

}  // namespace

int run_snap_prove(const SnapProveArgs& a) {
  const fc::UpdateProofInfo& info = fc::update_proof_info(parse_update_proof(a.proof));
  const fc::SnapParams params = fc::snap_params(info.id);
  const fc::SnapPublic pub = parse_snap_public(info, a.comm_r_old, a.comm_r_new, a.comm_d_new);
  groth16::PhaseTimings prep;
  std::vector<fc::EmptySectorUpdateCircuit> partitions;
  {
    groth16::ScopedPhase p(prep, "check");
    partitions = partition_circuits(a, info, params, pub);
  }

  const CliProvingKey key =
      load_cli_proving_key(fc::snap_key_paths(a.params_dir, info), info.name, fc::kSnapSetupCommand,
                           [&] { return fc::record_snap_circuit(params); }, prep);
  char header[160];
  std::snprintf(header, sizeof header, "%s: %zu partition(s) of %zu challenges, %u constraints each",
                std::string(info.name).c_str(), params.partition_count, params.challenge_count, key.num_constraints);
  PartitionProofFile file(a.quiet, header, prep);
  std::size_t num_inputs = 0;
  for (std::size_t k = 0; k < partitions.size(); ++k) {
    groth16::PhaseTimings t;
    const std::vector<fc::Fr> inputs = fc::snap_partition_inputs(info, pub, k);
    num_inputs = inputs.size();
    std::vector<fc::Fr> w;
    {
      groth16::ScopedPhase p(t, "witness");
      w = fc::snap_witness_full(partitions[k]);
    }
    const std::string label = "partition " + std::to_string(k) + ": ";
    const auto proof =
        prove_and_verify(key, std::move(w), inputs, label, t, unsatisfied(partitions[k], label, "the vanilla proof"));
    file.add(k, proof, t);
  }
  file.write(a.out, info.name, num_inputs, key.test);
  return 0;
}

}  // namespace cuzk::cli
