// cuzk snap verify --proof P --comm-r-old C --comm-r-new C --comm-d-new C --proof-file FILE
//                  [--vk FILE | --params-dir DIR]
// What a chain verifier has (filecoin-proofs api/update.rs verify_empty_sector_update_proof): the
// registered update proof, comm_r_old, comm_r_new and comm_d_new. Each partition's public inputs
// are derived from these alone with the sector size's production h (snap_request.hpp); every
// partition's 192-byte proof must verify with the .vk. Exit 0 valid, 1 invalid, 2 bad input.
#include <cstdio>
#include <vector>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/snap_keys.hpp"
#include "cuzk/filecoin/snap_request.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "files.hpp"
#include "key_cli.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"
#include "snap_cli.hpp"

namespace cuzk::cli {

int run_snap_verify(const SnapVerifyArgs& a) {
  namespace fc = filecoin;
  const fc::UpdateProofInfo& info = fc::update_proof_info(parse_update_proof(a.proof));
  const fc::SnapPublic pub = parse_snap_public(info, a.comm_r_old, a.comm_r_new, a.comm_d_new);
  const std::size_t partitions = fc::snap_partition_count(info.nodes);
  const std::string proof_bytes = read_text_file(a.proof_file);
  if (proof_bytes.size() != partitions * groth16::kBellpersonProofSize)
    throw DecodeError(a.proof_file + ": " + std::to_string(proof_bytes.size()) + " bytes; a " +
                      std::string(info.name) + " proof is " + std::to_string(partitions) + " partition(s) x 192 = " +
                      std::to_string(partitions * groth16::kBellpersonProofSize));
  const CliVk vk = read_cli_vk(a.vk, fc::snap_key_paths(a.params_dir, info), info.name, fc::kSnapSetupCommand);
  if (vk.test) std::fprintf(stderr, "WARNING: %s is a cuzk TEST key, not Filecoin's official one\n", vk.path.c_str());
  std::vector<std::size_t> ks;
  for (std::size_t k = 0; k < partitions; ++k) ks.push_back(k);
  return verify_partition_proofs(a.proof_file, as_bytes(proof_bytes), ks, vk, info.name,
                                 [&](std::size_t k) { return fc::snap_partition_inputs(info, pub, k); });
}

}  // namespace cuzk::cli
