// cuzk porep verify --proof P --prover-id ID --sector N --ticket HEX --seed HEX --comm-r C --comm-d C
//                   --proof-file FILE [--partition K] [--vk FILE | --params-dir DIR]
// What a chain verifier has (filecoin-proofs api/seal.rs verify_seal): the registered proof, the
// miner, the sector number, the ticket, the interactive seed, comm_r and comm_d. The replica id
// (porep_id.hpp, with the proof's porep id), each partition's challenges, their parents in the
// proof's SDR graph and the public inputs are derived here from these alone
// (porep_public_inputs.hpp); every partition's 192-byte proof must verify with the .vk. Exit 0
// valid, 1 invalid, 2 bad input.
//
// The file holds the partitions' proofs concatenated in order (what `cuzk porep prove` and
// filecoin-proofs' seal_commit_phase2 write); with --partition K, partition K's proof alone.
#include <cstdio>
#include <vector>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep_id.hpp"
#include "cuzk/filecoin/porep_keys.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "files.hpp"
#include "key_cli.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"

namespace cuzk::cli {

namespace fc = filecoin;

namespace {

// verify_seal refuses all-zero commitments and seeds before verifying anything.
void require_nonzero(const fc::Bytes32& b, const char* what) {
  for (std::uint8_t x : b)
    if (x != 0) return;
  throw DecodeError(std::string("--") + what + " is all zero (filecoin-proofs refuses it)");
}

}  // namespace

int run_porep_verify(const PorepVerifyArgs& a) {
  const fc::SealProofInfo& info = fc::seal_proof_info(parse_seal_proof(a.proof));
  if (info.feature == fc::SealFeature::NonInteractivePoRep)
    throw std::invalid_argument(std::string(info.name) + ": non-interactive PoRep is not supported");
  const fc::Bytes32 prover_id = parse_prover_id(a.prover_id);
  const fc::Bytes32 ticket = parse_hex32(a.ticket, "--ticket");
  const fc::Bytes32 seed = parse_hex32(a.seed, "--seed");
  const fc::Fr comm_r = parse_comm_r(a.comm_r);
  const fc::Fr comm_d = parse_comm_d(a.comm_d);
  require_nonzero(comm_r.to_bytes_le(), "comm-r");
  require_nonzero(comm_d.to_bytes_le(), "comm-d");
  require_nonzero(seed, "seed");

  const std::size_t partitions = info.porep_partitions;
  if (a.partition_given && a.partition >= partitions)
    throw DecodeError("--partition " + std::to_string(a.partition) + ": a " + std::string(info.name) + " proof has " +
                      std::to_string(partitions) + " partition(s)");
  const std::size_t count = a.partition_given ? 1 : partitions;
  const std::string proof_bytes = read_text_file(a.proof_file);
  if (proof_bytes.size() != count * groth16::kBellpersonProofSize)
    throw DecodeError(a.proof_file + ": " + std::to_string(proof_bytes.size()) + " bytes; " +
                      (a.partition_given ? "one partition's proof is "
                                         : "a " + std::string(info.name) + " proof is " + std::to_string(count) +
                                               " partition(s) x 192 = ") +
                      std::to_string(count * groth16::kBellpersonProofSize));

  const fc::Fr replica_id =
      fc::Fr::from_bytes_le(fc::replica_id(prover_id, a.sector, ticket, comm_d.to_bytes_le(), fc::porep_id(info.id)));
  const fc::SdrGraph graph(info);
  const CliVk vk = read_cli_vk(a.vk, fc::porep_key_paths(a.params_dir, info), info.name, fc::kPorepSetupCommand);
  if (vk.test) std::fprintf(stderr, "WARNING: %s is a cuzk TEST key, not Filecoin's official one\n", vk.path.c_str());

  std::vector<std::size_t> ks;
  for (std::size_t i = 0; i < count; ++i) ks.push_back(a.partition_given ? a.partition : i);
  return verify_partition_proofs(a.proof_file, as_bytes(proof_bytes), ks, vk, info.name, [&](std::size_t k) {
    return fc::porep_public_inputs(info.id, replica_id, comm_d, comm_r, seed, k, &graph);
  });
}

}  // namespace cuzk::cli
