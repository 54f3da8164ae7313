// Is a decoded PoSt vanilla proof a proof of what it claims? The checks of storage-proofs-post
// fallback/vanilla.rs FallbackPoSt::verify (which verify_all_partitions runs per partition),
// plus the one the circuit adds, in this order per sector:
//   1. comm_r = Poseidon2(comm_c, comm_r_last), with comm_r_last the first inclusion proof's root
//      (the Rust: "hash(comm_c || comm_r_last) != comm_r");
//   2. challenge_count inclusion proofs (the decoder already enforced it);
//   3. per inclusion proof n: its root is comm_r_last; its path has the tree's length (the
//      decoder enforced it); hashing the leaf up the path gives its root (MerkleProof::verify);
//      the leaf index the path implies is the challenged leaf (validate(challenged_leaf));
//   4. (circuit) the SectorProof's comm_r_last field equals that root: the circuit takes the
//      field (fallback/circuit.rs allocates vanilla_proof.comm_r_last) and enforces every path's
//      root equal to it, so a proof the Rust vanilla check passes but this one fails would give
//      an unsatisfiable circuit.
// Hashing is neptune's Poseidon (HashType::MerkleTree, Strength::Standard) of each level's
// arity, as PoseidonFunction::multi_node and hash2 call it (poseidon_constants.hpp poseidon_hash).
//
// Failures throw DecodeError naming the sector, the inclusion proof and its byte offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/vanilla.hpp"

namespace cuzk::filecoin {

// InclusionPath::root: the leaf hashed up the path, each level's node inserted among its
// siblings at its index.
Fr inclusion_path_root(const InclusionProof& p);

// MerkleProofTrait::path_index: the leaf index the insertion indices spell, each level a digit in
// the base of its arity (leaf level least significant).
std::uint64_t inclusion_leaf_index(const InclusionProof& p);

// Poseidon2(comm_c, comm_r_last) = comm_r (PoseidonFunction::hash2).
Fr comm_r_from_parts(const Fr& comm_c, const Fr& comm_r_last);

// Checks 1-4 for one sector proof at `sector_index` of the request's list (partition ·
// sector_count + position, as the challenges were derived; 0 for WinningPoSt), against the
// comm_r the proof carries. The randomness must be canonical (require_safe_commitment).
void verify_sector_proof(const PoStProofInfo& info, const FallbackPoStSectorProof& proof, const Bytes32& randomness,
                         std::size_t sector_index);

// verify_sector_proof for every proof of one partition (proofs[i] at partition · sector_count +
// i), in parallel; throws the failure of the first failing proof in list order.
void verify_partition_vanilla_proofs(const PoStProofInfo& info, std::span<const FallbackPoStSectorProof> proofs,
                                     const Bytes32& randomness, std::size_t partition_index);

}  // namespace cuzk::filecoin
