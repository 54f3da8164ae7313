// The native randomness of a SnapDeals partition (storage-proofs-update challenges.rs and
// vanilla.rs phi / rho), all Poseidon of arity 2 with the "gen randomness" tag (Custom(1),
// poseidon_constants_gen_randomness):
//   phi = H(comm_d_new, comm_r_old)
//   rho(high) = H(phi, high), high = the h high bits of a node index: the factor a new data node
//               is multiplied by, label_r_new = label_r_old + data * rho
//   challenges of partition k: digest j = H(comm_r_new, k · digests_per_partition + j); each
//               digest's little-endian bits give challenges_per_digest chunks of
//               random_bits_per_challenge bits; a challenge is its chunk | k << random bits,
//               so partition k's challenges are its own k-th slice of the sector's nodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::filecoin {

Fr snap_phi(const Fr& comm_d_new, const Fr& comm_r_old);
Fr snap_rho(const Fr& phi, std::uint32_t high);

// The h high bits of node index c of a sector with challenge_bit_len index bits (c >> (bits - h)).
inline std::uint32_t snap_high_bits(const SnapParams& p, std::uint64_t c, unsigned h) {
  return static_cast<std::uint32_t>(c >> (p.challenge_bit_len - h));
}

// Challenges::new(sector_nodes, comm_r_new, k), all challenge_count of them. Throws
// std::invalid_argument for k >= partitions.
std::vector<std::uint32_t> snap_challenges(const SnapParams& p, const Fr& comm_r_new, std::size_t k);

}  // namespace cuzk::filecoin
