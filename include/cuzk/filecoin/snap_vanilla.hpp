// SnapDeals vanilla proofs as nodes hand them over: one storage-proofs-update vanilla.rs
// PartitionProof per partition, serialized by filecoin-proofs-api (update.rs
// generate_partition_proofs: PartitionProofBytes(bincode::serialize(&proof))) with bincode 1.x's
// default options (little-endian fixed-width integers, u64 lengths before Vecs, u32 variant tags,
// usize as u64, fixed arrays without length). The layout:
//
//   comm_c [32]
//   apex_leafs: len u64 (the sector size's apex leaf count), then [32]·len
//   challenge_proofs: len u64 (its challenge count), then per ChallengeProof:
//     proof_r_old   MerkleProof of TreeR (storage-proofs-core merkle/proof.rs, vanilla.hpp's layout:
//                   tag u32 0 Single {root, leaf, path} | 1 Sub {base_path, sub_path, root, leaf} |
//                   2 Top {base_path, sub_path, top_path, root, leaf}; a path is len u64, then per
//                   level {hashes: len u64, [32]·len; index u64})
//     proof_d_new   MerkleProof of TreeD (binary SHA-256): always Single, log2(nodes) levels of 1 sibling
//     proof_r_new   as proof_r_old
//
// Every [32] is a field element in its canonical 32-byte little-endian form (PoseidonDomain for
// TreeR and comm_c, Sha256Domain for TreeD and the apex leaves; both become Fr in the circuit).
//
// Decoding refuses, naming the byte offset and the field: truncated input, trailing bytes, a
// count or path shape that does not fit the sector size, a wrong Merkle proof tag, an insertion
// index outside its level, a non-canonical field element. Whether the proof is valid is
// snap_check.hpp's job.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/vanilla.hpp"  // InclusionProof, MerkleProofKind

namespace cuzk::filecoin {

// vanilla.rs ChallengeProof.
struct SnapChallengeProof {
  InclusionProof proof_r_old, proof_d_new, proof_r_new;
};

// vanilla.rs PartitionProof.
struct SnapPartitionProof {
  Fr comm_c;
  std::vector<Fr> apex_leafs;
  std::vector<SnapChallengeProof> challenge_proofs;
  std::size_t apex_leafs_offset = 0;  // where the apex leaves' Vec starts (for messages)
};

// Decodes one PartitionProof of a sector of p.sector_nodes nodes. Throws DecodeError.
SnapPartitionProof decode_snap_partition_proof(std::span<const std::uint8_t> bytes, const SnapParams& p);

// The bytes filecoin-proofs-api writes for `proof` (the layout above); each InclusionProof's kind
// says how its path splits (as encode_vanilla_proof). Offsets are ignored. Throws
// std::invalid_argument for a Sub or Top proof with too few levels to split.
std::vector<std::uint8_t> encode_snap_partition_proof(const SnapPartitionProof& proof);

// The number of bytes decode_snap_partition_proof accepts for a sector size.
std::size_t snap_partition_proof_size(const SnapParams& p);

}  // namespace cuzk::filecoin
