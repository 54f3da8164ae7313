// PoSt vanilla proofs as nodes hand them over: a FallbackPoStSectorProof (filecoin-proofs
// types/mod.rs) serialized by filecoin-proofs-api with bincode 1.x's default options
// (post.rs generate_single_vanilla_proof: little-endian fixed-width integers, u64 lengths
// before Vecs, u32 variant tags, usize as u64, fixed arrays without length). The layout:
//
//   sector_id u64 | comm_r [32]
//   vanilla_proof.sectors: len u64, then per SectorProof:
//     inclusion_proofs: len u64, then per MerkleProof (storage-proofs-core merkle/proof.rs):
//       tag u32: 0 Single {root, leaf, path}
//                1 Sub    {base_path, sub_path, root, leaf}
//                2 Top    {base_path, sub_path, top_path, root, leaf}
//       where a path is len u64, then per level {hashes: len u64, [32]·len; index u64}
//     comm_c [32] | comm_r_last [32]
//
// Every [32] is a PoseidonDomain: an Fr in its canonical 32-byte little-endian form.
//
// Decoding refuses, with the byte offset and what was expected: truncated input, trailing
// bytes, a wrong tag, a count or path shape that does not fit the registered proof's tree,
// an insertion index outside its level, a non-canonical field element. The result is
// structurally sound for the circuit; whether it is a valid proof is vanilla_check.hpp's job.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

// merkle/proof.rs ProofData variants, by bincode tag.
enum class MerkleProofKind : std::uint32_t { Single = 0, Sub = 1, Top = 2 };

// One MerkleProof. `path` runs from the leaf up: the base tree's levels, then the sub-tree level
// (Sub, Top), then the top-tree level (Top); each level holds arity - 1 siblings and the insertion
// index of the running node (PathLevel, por.hpp), as the PoR circuit takes them.
struct InclusionProof {
  MerkleProofKind kind = MerkleProofKind::Single;
  Fr root;
  Fr leaf;
  std::vector<PathLevel> path;
  std::size_t offset = 0;  // where its bytes start in the decoded buffer (for messages)
};

// fallback::SectorProof.
struct SectorProof {
  std::vector<InclusionProof> inclusion_proofs;
  Fr comm_c;
  Fr comm_r_last;
};

// filecoin-proofs FallbackPoStSectorProof.
struct FallbackPoStSectorProof {
  std::uint64_t sector_id = 0;
  Fr comm_r;
  // vanilla_proof.sectors. filecoin-proofs makes exactly one (fallback::vanilla_proof); the
  // decoder requires that.
  std::vector<SectorProof> sectors;

  const SectorProof& sector() const { return sectors.front(); }
};

// Decodes one serialized FallbackPoStSectorProof for `proof`: the tree must be the proof's
// (the Merkle proof variant and every level's sibling count), with PoStConfig.challenge_count
// inclusion proofs (10 for WindowPoSt, 66 for WinningPoSt). Throws DecodeError.
FallbackPoStSectorProof decode_vanilla_proof(std::span<const std::uint8_t> bytes, RegisteredPoStProof proof);

// The inverse of decode_vanilla_proof: the bytes filecoin-proofs-api writes for `proof` (bincode
// 1.x, the layout above). Each inclusion proof's kind says how its path splits: a Single proof's
// levels are all base levels; Sub's last level is the sub-tree's, Top's last two are the sub- and
// top-tree's. Every count is written as the struct has it (`offset` is ignored), so a struct
// that does not fit a registered proof still encodes, and decoding then refuses it. Throws
// std::invalid_argument for a Sub or Top proof with too few levels to split.
std::vector<std::uint8_t> encode_vanilla_proof(const FallbackPoStSectorProof& proof);

// Decodes the vanilla proofs of one SNARK: one partition of a WindowPoSt (at most
// sector_count proofs, as generate_single_window_post_with_vanilla takes them) or the one
// sector of a WinningPoSt. Refuses an empty list, too many sectors for the partition and a
// sector id that occurs twice. Throws DecodeError naming the proof's position in the list.
std::vector<FallbackPoStSectorProof> decode_partition_vanilla_proofs(
    std::span<const std::span<const std::uint8_t>> proofs, RegisteredPoStProof proof);

// The number of bytes decode_vanilla_proof accepts for `proof` (bincode sizes are fixed once the
// shape is): 24,960 for the 32 GiB WindowPoSt.
std::size_t vanilla_proof_size(RegisteredPoStProof proof);

}  // namespace cuzk::filecoin
