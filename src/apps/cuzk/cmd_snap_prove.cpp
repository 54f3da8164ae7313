// cuzk snap prove --vanilla FILE... --proof P --comm-r-old C --comm-r-new C --comm-d-new C
//                 [--params-dir DIR] [--out proof.bin] [--backend auto|cpu|cuda] [--quiet]
// A sector update's SnapDeals proof (filecoin-proofs api/update.rs
// generate_empty_sector_update_proof_with_vanilla): every partition's EmptySectorUpdate SNARK from
// its vanilla PartitionProof, through the proving engine in this process (filecoin_prove.hpp: on
// the GPU where one is present, else the CPU), as the daemon proves a snap_deals request. All
// vanilla proofs are decoded and checked against the commitments here before the engine starts,
// errors naming the files (snap_check.hpp: count, roots, paths, encoding, challenges). The engine
// proves each partition as its own job: its witness, whose public inputs must equal those a chain
// verifier derives from the commitments (snap_request.hpp), the proof, and its verification with
// the key's .vk. Only then are the proofs written: concatenated in partition order, 192 bytes each
// (filecoin-proofs' EmptySectorUpdateProof bytes).
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/snap_check.hpp"
#include "cuzk/filecoin/snap_keys.hpp"
#include "files.hpp"
#include "filecoin_prove.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"
#include "snap_cli.hpp"

namespace cuzk::cli {

namespace fc = filecoin;

namespace {

// Every partition's vanilla proof read, decoded and checked against the commitments, errors
// naming the file; their bytes, in partition order.
std::vector<std::string> read_partitions(const SnapProveArgs& a, const fc::UpdateProofInfo& info,
                                         const fc::SnapParams& params, const fc::SnapPublic& pub) {
  if (a.vanilla.size() != params.partition_count)
    throw DecodeError(std::to_string(a.vanilla.size()) + " --vanilla file(s); a " + std::string(info.name) +
                      " update has " + std::to_string(params.partition_count) +
                      " partition(s), one file each, in order");
  std::vector<std::string> out;
  for (std::size_t k = 0; k < a.vanilla.size(); ++k) {
    out.push_back(read_text_file(a.vanilla[k]));
    try {
      (void)fc::snap_partition_circuit(params, pub, k, as_bytes(out.back()));
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
  engine::ProofRequest req;
  req.kind = engine::ProofKind::kSnapDeals;
  engine::SnapRequest& snap = req.snap.emplace();
  snap.registered_proof = static_cast<std::uint32_t>(info.id);
  for (const auto& [field, value] : {std::pair{&snap.comm_r_old, pub.comm_r_old}, std::pair{&snap.comm_r_new, pub.comm_r_new},
                                     std::pair{&snap.comm_d_new, pub.comm_d_new}}) {
    const auto bytes = value.to_bytes_le();
    field->assign(bytes.begin(), bytes.end());
  }
  groth16::PhaseTimings prep;
  {
    groth16::ScopedPhase p(prep, "check");
    snap.partition_proofs = read_partitions(a, info, params, pub);
  }

  const fc::KeyPaths key = fc::snap_key_paths(a.params_dir, info);
  const bool test = require_cli_key(key, info.name, fc::kSnapSetupCommand);
  PartitionPrintout printout(a.quiet, info.name, test);
  printout.header(params.partition_count, params.challenge_count, prep);
  printout.write(a.out, prove_filecoin(a.params_dir, a.backend, std::move(req), a.quiet));
  return 0;
}

}  // namespace cuzk::cli
