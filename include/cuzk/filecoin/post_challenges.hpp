// Which leaves (and, for WinningPoSt, which sectors) a PoSt challenges, as storage-proofs-post
// fallback/vanilla.rs and fallback/utils.rs and filecoin-proofs api/post_util.rs,
// api/winning_post.rs derive them.
//
// Randomness: filecoin-proofs takes the 32-byte ChallengeSeed as a field element's canonical
// little-endian bytes and refuses anything else (api/util.rs as_safe_commitment:
// "Invalid commitment (randomness)"); it never reduces or masks. Callers make chain randomness
// canonical first by clearing its two top bits (Lotus, Curio, the FVM's verify_post:
// randomness[31] &= 0x3f): chain_randomness_to_seed. The same bytes are then hashed as given.
//
// Leaf challenge (generate_leaf_challenge_inner):
//   u64_le(SHA256(randomness ‖ u64_le(sector_id) ‖ u64_le(challenge_index))[0..8]) mod nodes
// where challenge_index = get_challenge_index(api_version, sector_index, challenges per sector, n):
// sector_index · challenges + n before ApiVersion 1.2.0, n from it on (the grindability fix),
// and sector_index is the sector's position in the whole list (partition · sector_count + i).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

// Chain randomness (32 bytes) -> the ChallengeSeed the proofs take: byte 31 &= 0x3f.
Bytes32 chain_randomness_to_seed(Bytes32 randomness);

// as_safe_commitment: throws DecodeError ("<name> is not a canonical field element") unless
// the 32 bytes are a canonical little-endian Fr.
void require_safe_commitment(const Bytes32& bytes, std::string_view name);

// The prover id filecoin-ffi passes for a miner actor id: the payload of its ID address (the
// unsigned LEB128 varint of the id), zero-padded to 32 bytes (filecoin-ffi toProverID).
Bytes32 prover_id_from_actor_id(std::uint64_t actor_id);

// storage-proofs-post fallback/utils.rs get_challenge_index.
std::uint64_t challenge_index(ApiVersion v, std::size_t sector_index, std::size_t challenges_per_sector, std::size_t n);

// generate_leaf_challenge: the leaf (0..sector_nodes) challenged by `index`.
std::uint64_t leaf_challenge(const Bytes32& randomness, std::uint64_t sector_id, std::uint64_t index,
                             std::uint64_t sector_nodes);

// The PoStConfig.challenge_count leaves challenged in one sector, the sector being at
// `sector_index` in the request's list (generate_fallback_sector_challenges' inner loop).
// Checks the randomness with require_safe_commitment.
std::vector<std::uint64_t> sector_leaf_challenges(const PoStProofInfo& info, const Bytes32& randomness,
                                                  std::uint64_t sector_id, std::size_t sector_index);

// generate_fallback_sector_challenges: per sector of the list (in order), its leaves. WindowPoSt
// splits the list into partitions of sector_count (the sector index runs on across them);
// WinningPoSt takes exactly one sector (filecoin-proofs would silently ignore any further one;
// this refuses it: std::invalid_argument).
std::vector<std::vector<std::uint64_t>> fallback_sector_challenges(const PoStProofInfo& info, const Bytes32& randomness,
                                                                   std::span<const std::uint64_t> sector_ids);

// generate_winning_post_sector_challenge: which of `sector_set_len` sectors (by index into the
// caller's sector set) a WinningPoSt proves: per n in 0..sector_count,
//   u64_le(SHA256(prover_id ‖ randomness ‖ u64_le(n))[0..8]) mod sector_set_len.
// Both seeds must be canonical; sector_set_len > 0; `info` a WinningPoSt.
std::vector<std::uint64_t> winning_post_sector_challenge(const PoStProofInfo& info, const Bytes32& randomness,
                                                         std::uint64_t sector_set_len, const Bytes32& prover_id);

// get_num_partition_for_fallback_post: WindowPoSt ceil(num_sectors / sector_count) (at least
// 1); WinningPoSt 1.
std::size_t num_partitions(const PoStProofInfo& info, std::size_t num_sectors);

}  // namespace cuzk::filecoin
