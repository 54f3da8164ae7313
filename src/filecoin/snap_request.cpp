// SnapDeals public values from a request's commitments (snap_request.hpp).
#include "cuzk/filecoin/snap_request.hpp"

#include <string>

namespace cuzk::filecoin {

SnapPublic snap_public_from_bytes(const UpdateProofInfo& info, const Bytes32& comm_r_old, const Bytes32& comm_r_new,
                                  const Bytes32& comm_d_new, std::string_view field_prefix) {
  const std::string prefix(field_prefix);
  SnapPublic pub;
  pub.comm_r_old = snap_commitment(comm_r_old, (prefix + "comm_r_old").c_str());
  pub.comm_r_new = snap_commitment(comm_r_new, (prefix + "comm_r_new").c_str());
  pub.comm_d_new = snap_commitment(comm_d_new, (prefix + "comm_d_new").c_str());
  pub.h = snap_h_default(info.nodes);
  return pub;
}

std::vector<Fr> snap_partition_inputs(const UpdateProofInfo& info, const SnapPublic& pub, std::size_t k) {
  return snap_public_inputs(snap_params(info.id), k, pub.h, pub.comm_r_old, pub.comm_d_new, pub.comm_r_new);
}

std::vector<std::vector<Fr>> snap_verifier_inputs(const UpdateProofInfo& info, const SnapPublic& pub) {
  const SnapParams p = snap_params(info.id);
  std::vector<std::vector<Fr>> out;
  for (std::size_t k = 0; k < p.partition_count; ++k)
    out.push_back(snap_public_inputs(p, k, pub.h, pub.comm_r_old, pub.comm_d_new, pub.comm_r_new));
  return out;
}

std::vector<std::vector<Fr>> snap_verifier_inputs(RegisteredUpdateProof proof, const Bytes32& comm_r_old,
                                                  const Bytes32& comm_r_new, const Bytes32& comm_d_new) {
  const UpdateProofInfo& info = update_proof_info(proof);
  return snap_verifier_inputs(info, snap_public_from_bytes(info, comm_r_old, comm_r_new, comm_d_new));
}

}  // namespace cuzk::filecoin
