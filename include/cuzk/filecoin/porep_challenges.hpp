// Which nodes a PoRep challenges (storage-proofs-porep stacked/vanilla/challenges.rs, as
// params.rs PublicInputs::challenges and filecoin-proofs parameters.rs select_challenges use it).
//
// Every challenge maps 32 bytes, read as a little-endian 256-bit integer x, to the node
// x mod (sector_nodes - 1) + 1: node 0 is never challenged (bigint_to_challenge).
//
// Interactive (InteractiveChallenges::derive): challenge i of partition k is
//   SHA-256(replica_id ‖ seed ‖ u32_le(j)),  j = challenges_per_partition · k + i,
// so partitions are consecutive slices of one sequence.
// Non-interactive (NiChallenges::derive): the same with
//   SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖ u32_le(j)).
// Synthetic (challenges.rs mod synthetic): a set of min(sector_nodes, 2^18) synthetic
// challenges, challenge i being 32 bytes of ChaCha20 keystream at byte 32·i (chacha.hpp
// ChaCha20Ietf, nonce "synth-porep\0"), keyed by BLAKE2b-256 keyed with
// "filecoin.io|PoRep|1|Synthetic|1|Generation" over replica_id ‖ comm_r. A partition's PoRep
// challenges are synthetic challenges picked by index: index i of partition k is
// u32_le(4 keystream bytes at 4·(challenges_per_partition · k + i)) mod the set's size, the
// keystream keyed by BLAKE2b-256 keyed with "filecoin.io|PoRep|1|Synthetic|1|Selection" over
// replica_id ‖ seed. (The Rust converts replica_id and comm_r to Fr and back, which returns the
// same bytes for the canonical values they are.)
//
// Counts (filecoin-proofs constants.rs, parameters.rs): challenges per partition =
// ceil(minimum / partitions) with minimum 2 (interactive and synthetic) or 26 (non-interactive)
// below 32 GiB, 176 or 2253 for 32 GiB and 64 GiB; partitions from SealProofInfo (1 or 10
// interactive, 13 or 126 non-interactive). Every registered proof gets 2 or 18 per partition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/filecoin/fr.hpp"  // Bytes32
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

// filecoin-proofs constants.rs get_porep_{interactive,non_interactive}_minimum_challenges.
std::size_t porep_minimum_challenges(const SealProofInfo& info);
// parameters.rs select_challenges: ceil(minimum / porep_partitions).
std::size_t porep_challenges_per_partition(const SealProofInfo& info);

// bigint_to_challenge: `le_bytes` as a little-endian integer, mod (sector_nodes - 1), plus 1.
// sector_nodes in 2..2^32.
std::uint64_t porep_challenge_from_bytes(std::span<const std::uint8_t, 32> le_bytes, std::uint64_t sector_nodes);

// InteractiveChallenges::derive: partition k's challenges. The Rust's k is a u8: k > 255 is
// refused (std::invalid_argument) here and in the functions below.
std::vector<std::uint64_t> interactive_porep_challenges(std::uint64_t sector_nodes, const Bytes32& replica_id,
                                                        const Bytes32& seed, std::size_t challenges_per_partition,
                                                        std::size_t k);
// NiChallenges::derive.
std::vector<std::uint64_t> ni_porep_challenges(std::uint64_t sector_nodes, const Bytes32& replica_id,
                                               const Bytes32& comm_r, std::size_t challenges_per_partition,
                                               std::size_t k);

// challenges.rs SynthChallengeGenerator.
class SynthChallengeGenerator {
 public:
  static constexpr std::uint64_t kDefaultCount = std::uint64_t{1} << 18;  // DEFAULT_SYNTH_CHALLENGE_COUNT

  // num_synth_challenges < 2^32 (std::invalid_argument).
  SynthChallengeGenerator(std::uint64_t sector_nodes, const Bytes32& replica_id, const Bytes32& comm_r,
                          std::uint64_t num_synth_challenges);
  // SynthChallengeGenerator::default: min(sector_nodes, 2^18) synthetic challenges.
  static SynthChallengeGenerator with_default_count(std::uint64_t sector_nodes, const Bytes32& replica_id,
                                                    const Bytes32& comm_r);

  std::uint64_t num_synth_challenges() const { return num_synth_; }
  // gen_synth_challenge: synthetic challenge i (< num_synth_challenges, else std::out_of_range).
  std::uint64_t synth_challenge(std::uint64_t i) const;
  // The iterator's sequence: all synthetic challenges in order.
  std::vector<std::uint64_t> all_synth_challenges() const;
  // gen_partition_synth_indexes: which synthetic challenges partition k proves.
  std::vector<std::uint64_t> partition_synth_indexes(std::size_t challenges_per_partition, const Bytes32& seed,
                                                     std::size_t k) const;
  // gen_porep_partition_challenges: those synthetic challenges' nodes.
  std::vector<std::uint64_t> porep_partition_challenges(std::size_t challenges_per_partition, const Bytes32& seed,
                                                        std::size_t k) const;

 private:
  std::uint64_t sector_nodes_;
  Bytes32 replica_id_;
  Bytes32 gen_key_;  // the generation PRF's ChaCha20 key
  std::uint64_t num_synth_;
};

// params.rs PublicInputs::challenges for a registered proof's partition k: interactive needs
// the seed; synthetic needs comm_r, and with a seed gives the partition's PoRep challenges,
// without one (k = 0 only) the whole synthetic set; non-interactive needs comm_r. A missing
// input: std::invalid_argument.
std::vector<std::uint64_t> porep_challenges(const SealProofInfo& info, const Bytes32& replica_id,
                                            const std::optional<Bytes32>& seed, const std::optional<Bytes32>& comm_r,
                                            std::size_t k);

}  // namespace cuzk::filecoin
