// What a FallbackPoSt SNARK of one partition is about: its Groth16 public inputs
// (storage-proofs-post fallback/compound.rs generate_public_inputs) and which vanilla data fills
// each of its sector slots (filecoin-proofs api/post_util.rs single_partition_vanilla_proofs).
//
// Public inputs of partition k, over the sectors of that partition (sector i of the chunk being
// sector k·sector_count + i of the whole list), in this order:
//   per sector: comm_r, then per challenge n the challenged leaf index as an Fr
//   (PoRCompound::generate_public_inputs with a private root: the one input "path");
//   then, while fewer than sector_count sectors were given, the last sector's inputs again.
// All this with the circuit's parameters (fallback::PublicParams): a WinningPoSt circuit has 66
// sector slots of one challenge, and its verifier lists the one sector 66 times
// (winning_post.rs verify_winning_post), so slot n carries leaf challenge n of that sector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

// fallback::PublicSector.
struct PublicSector {
  std::uint64_t id = 0;
  Fr comm_r;
};

// fallback::PublicParams (the circuit's): parameters.rs window_post_setup_params /
// winning_post_setup_params.
struct FallbackPoStParams {
  std::uint64_t sector_size = 0;
  std::size_t challenge_count = 0;  // per sector slot
  std::size_t sector_count = 0;     // sector slots per partition
  ApiVersion api_version = ApiVersion::V1_0_0;
  std::uint64_t nodes() const { return sector_size / kNodeSize; }
};
FallbackPoStParams fallback_post_params(const PoStProofInfo& info);

// The inputs of partition `partition_index` given that partition's sectors only (1 to
// sector_count of them): what a prover holding one partition's vanilla proofs needs. Checks
// the randomness (require_safe_commitment). sector_count · (1 + challenge_count) values.
std::vector<Fr> partition_public_inputs(const FallbackPoStParams& params, const Bytes32& randomness,
                                        std::span<const PublicSector> partition_sectors, std::size_t partition_index);

// generate_public_inputs as the Rust has it: `sectors` is the whole list, split into chunks of
// sector_count; throws std::invalid_argument when partition `partition_index` has no chunk.
std::vector<Fr> generate_public_inputs(const FallbackPoStParams& params, const Bytes32& randomness,
                                       std::span<const PublicSector> sectors, std::size_t partition_index);

// The inputs a verifier checks a SNARK of this registered proof against: WindowPoSt: the whole
// list, partition `partition_index`; WinningPoSt: the one sector (exactly one), repeated into
// every slot (partition_index must be 0).
std::vector<Fr> post_public_inputs(const PoStProofInfo& info, const Bytes32& randomness,
                                   std::span<const PublicSector> sectors, std::size_t partition_index);

// A sector slot of a partition circuit: the vanilla proof (index into that partition's list)
// and the run of its inclusion proofs that the slot checks.
struct PartitionSlot {
  std::size_t proof = 0;
  std::size_t first_inclusion = 0;
  std::size_t inclusion_count = 0;
  bool operator==(const PartitionSlot&) const = default;
};

// single_partition_vanilla_proofs' layout for `num_proofs` vanilla proofs of one partition:
// WindowPoSt: slot i is proof i with all its challenges, the last proof repeated to fill
// sector_count slots; WinningPoSt (num_proofs = 1): slot n is the proof's n-th inclusion proof.
// circuit_sector_count slots.
std::vector<PartitionSlot> partition_slots(const PoStProofInfo& info, std::size_t num_proofs);

}  // namespace cuzk::filecoin
