// Is a decoded SnapDeals PartitionProof a proof of what it claims, for partition k of a sector
// update with public comm_r_old, comm_d_new, comm_r_new and h? The checks of storage-proofs-update
// vanilla.rs EmptySectorUpdate::verify (which verify_all_partitions runs per partition), plus what
// the circuit asserts or enforces beyond them, in this order:
//   1. k < partitions and h is one of the sector size's hs (the Rust's errors);
//   2. apex leaves and challenge proofs are as many as the sector size has (the decoder enforced it);
//   3. comm_r_old = Poseidon2(comm_c, root_r_old) and comm_r_new = Poseidon2(comm_c, root_r_new),
//      the roots being challenge 0's TreeROld and TreeRNew proofs' roots;
//   4. (circuit) the apex leaves hash up (binary SHA-256) to an apex root that challenge 0's
//      partition path (TreeD's levels above the apex tree, placed by k's bits) takes to comm_d_new;
//   5. per challenge i, c = the i-th of Challenges::new(comm_r_new, k) (snap_challenges.hpp):
//      a. each of the three proofs opens leaf c (MerkleProofTrait::path_index);
//      b. their roots are root_r_old, comm_d_new and root_r_new (challenge 0's TreeR roots);
//      c. each hashes its leaf up its path to its root (MerkleProof::verify: Poseidon for TreeR,
//         SHA-256 trimmed to 254 bits for TreeD);
//      d. label_r_new = label_r_old + label_d_new · rho(phi, c >> (log2(nodes) - h)), with
//         phi = H(comm_d_new, comm_r_old) (the replica encoding);
//      e. every sibling of the TreeD path at the apex tree's levels is a node of that level of the
//         apex tree (the Rust's apex-path check);
//      f. (circuit) the TreeD path below the apex tree hashes the data leaf to the apex leaf that
//         c's apex bits select, and its partition-tree levels are challenge 0's.
// Failures throw DecodeError naming the partition, the challenge and its node, the proof and its
// byte offset in the decoded buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/snap_circuit.hpp"
#include "cuzk/filecoin/snap_vanilla.hpp"

namespace cuzk::filecoin {

// What the verifier knows of a sector update (filecoin-proofs api/update.rs arguments, h being
// SectorUpdateConfig's h_default for a node).
struct SnapPublic {
  Fr comm_r_old, comm_d_new, comm_r_new;
  unsigned h = 0;
};

// A commitment as filecoin-proofs-api passes it ([u8; 32]): it must be a canonical field
// element (the circuit takes it as one). Throws DecodeError naming `what`.
Fr snap_commitment(const Bytes32& bytes, const char* what);

// Checks 1-5 for partition k. Throws DecodeError.
void verify_snap_partition_proof(const SnapParams& p, const SnapPublic& pub, std::size_t k,
                                 const SnapPartitionProof& proof);

// verify_all_partitions: exactly p.partition_count proofs, proofs[k] for partition k.
void verify_snap_partition_proofs(const SnapParams& p, const SnapPublic& pub,
                                  std::span<const SnapPartitionProof> proofs);

// The circuit's values for partition k (compound.rs circuit: PublicInputs::new, PrivateInputs::new),
// without checking them: run verify_snap_partition_proof first.
SnapPartitionValues snap_partition_values(const SnapParams& p, const SnapPublic& pub, std::size_t k,
                                          const SnapPartitionProof& proof);

// Decode, check and convert one partition's bytes: what a prover runs before any proving.
EmptySectorUpdateCircuit snap_partition_circuit(const SnapParams& p, const SnapPublic& pub, std::size_t k,
                                                std::span<const std::uint8_t> partition_proof_bytes);

}  // namespace cuzk::filecoin
