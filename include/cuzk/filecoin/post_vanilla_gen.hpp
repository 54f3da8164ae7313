// Synthetic PoSt vanilla proofs: valid FallbackPoStSectorProofs of any registered PoSt, made without
// a sealed sector, for tests, the CLI and load generation.
//
// A synthetic sector is a TreeR (the registered proof's shape: tree_shape_for_sector_size) whose
// leaves are all zero except the ones the PoSt challenges. Those get a pseudo-random field element
// that depends only on (seed, sector id, leaf index); comm_c is pseudo-random in (seed, sector id);
// comm_r_last is the tree's root and comm_r = Poseidon2(comm_c, comm_r_last), as for a real
// sector. Since the leaves that are set are the challenged ones, comm_r depends on the randomness:
// the proofs of one call are consistent with each other and with the public inputs derived from
// the SyntheticSectors' comm_r (post_public_inputs.hpp), not with another randomness.
//
// The tree is sparse: an all-zero subtree of a level has one hash, computed once per call, so a
// sector costs one Poseidon hash per distinct node on its challenged paths (about 100 arity-8
// hashes for a 32 GiB WindowPoSt sector, 10 challenges of 10 levels) however large the sector.
// Hashing is neptune's optimized native Poseidon (poseidon_constants.hpp), the one the checker
// (vanilla_check.hpp) uses. Sectors are made in parallel (TBB); the result does not depend on the
// scheduling.
//
// Challenges are derived as post_challenges.hpp derives them: sector_leaf_challenges with the
// sector at position partition_index · sector_count + i of the request's list (WindowPoSt), or
// the one sector's 66 challenges at position 0 (WinningPoSt).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/vanilla.hpp"

namespace cuzk::filecoin {

struct SyntheticSector {
  std::uint64_t sector_id = 0;
  Fr comm_r;
  std::vector<std::uint8_t> vanilla_proof;  // encode_vanilla_proof's bytes
};

// The vanilla proofs of one SNARK's sectors: partition `partition_index` of a WindowPoSt (1 to
// sector_count sectors, distinct ids) or the one sector of a WinningPoSt (partition 0). What
// decode_partition_vanilla_proofs and verify_partition_vanilla_proofs accept for that partition.
// Deterministic in (seed, sector id, randomness, the sector's position). Throws
// std::invalid_argument for a list that does not fit the partition, DecodeError for a
// non-canonical randomness (require_safe_commitment).
std::vector<SyntheticSector> generate_post_vanilla_proofs(RegisteredPoStProof proof, const Bytes32& randomness,
                                                          std::span<const std::uint64_t> sector_ids,
                                                          std::size_t partition_index, std::uint64_t seed);

// One synthetic sector's proof, not yet encoded, at `sector_index` of the request's list. `info`
// need not be registered: any tree shape and node count that TreeShape::level_arities accepts,
// with challenge_count and api_version as sector_leaf_challenges reads them.
FallbackPoStSectorProof synthetic_sector_proof(const PoStProofInfo& info, const Bytes32& randomness,
                                               std::uint64_t sector_id, std::size_t sector_index, std::uint64_t seed);

}  // namespace cuzk::filecoin
