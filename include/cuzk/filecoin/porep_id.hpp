// The PoRep id of a registered seal proof and the replica id of a sector.
//
// porep_id (filecoin-proofs-api registry.rs RegisteredSealProof::porep_id): 32 bytes, the
// registered proof id (REGISTERED_PROOF_IDS, equal to the enum's value 0..19) as u64
// little-endian, then the proof's nonce as u64 little-endian (0 for every proof: `nonce`), then
// 16 zero bytes. It seeds the SDR graph (sdr_graph.hpp): two proofs of one sector size with
// different ids have different graphs.
//
// replica_id (storage-proofs-porep stacked/vanilla/params.rs generate_replica_id, called by
// filecoin-proofs api/seal.rs with the PoRepConfig's porep_id):
//   SHA-256(prover_id ‖ sector_id as u64 BIG-endian ‖ ticket ‖ comm_d ‖ porep_id)
// with byte 31 &= 0x3f (fr32 bytes_into_fr_repr_safe), so it is a field element's
// little-endian bytes.
#pragma once

#include <array>
#include <cstdint>

#include "cuzk/filecoin/fr.hpp"  // Bytes32
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

using PoRepId = std::array<std::uint8_t, 32>;

// A porep id from its two numbers (registry.rs porep_id).
PoRepId make_porep_id(std::uint64_t registered_proof_id, std::uint64_t nonce = 0);
PoRepId porep_id(RegisteredSealProof p);

Bytes32 replica_id(const Bytes32& prover_id, std::uint64_t sector_id, const Bytes32& ticket, const Bytes32& comm_d,
                   const PoRepId& porep_id);

}  // namespace cuzk::filecoin
