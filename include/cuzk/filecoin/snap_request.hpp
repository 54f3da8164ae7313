// A SnapDeals proof as a node asks for it, and what a chain verifier derives from it.
//
// filecoin-proofs api/update.rs generate_empty_sector_update_proof_with_vanilla takes the
// registered update proof, comm_r_old, comm_r_new, comm_d_new (32 bytes each, canonical field
// elements: Domain::try_from_bytes) and one vanilla PartitionProof per partition;
// verify_empty_sector_update_proof takes the same commitments and the proof bytes (the partitions'
// 192-byte Groth16 proofs concatenated in order). Both use the production h
// (SectorUpdateConfig::from_porep_config: h_default), so partition k's public inputs follow from
// the commitments alone (snap_params.hpp snap_public_inputs).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/snap_check.hpp"  // SnapPublic
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::filecoin {

// The verifier's values: the three commitments (each must be a canonical field element; a
// DecodeError names `<prefix>comm_r_old`, `<prefix>comm_r_new` or `<prefix>comm_d_new`) and the
// production h of the sector size.
SnapPublic snap_public_from_bytes(const UpdateProofInfo& info, const Bytes32& comm_r_old, const Bytes32& comm_r_new,
                                  const Bytes32& comm_d_new, std::string_view field_prefix = "");

// Partition k's public inputs (k_and_h_select, comm_r_old, comm_d_new, comm_r_new; ONE not
// included). Throws std::invalid_argument for k >= partitions.
std::vector<Fr> snap_partition_inputs(const UpdateProofInfo& info, const SnapPublic& pub, std::size_t k);

// Every partition's, in order: what a verifier checks the concatenated proofs against.
std::vector<std::vector<Fr>> snap_verifier_inputs(const UpdateProofInfo& info, const SnapPublic& pub);
std::vector<std::vector<Fr>> snap_verifier_inputs(RegisteredUpdateProof proof, const Bytes32& comm_r_old,
                                                  const Bytes32& comm_r_new, const Bytes32& comm_d_new);

}  // namespace cuzk::filecoin
