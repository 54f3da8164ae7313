// A sector update's vanilla proofs as files, for SnapDeals test data: the directory that
// `cuzk snap gen-vanilla` and `cuzk-bench gen-vanilla snap` write and that cuzk-bench's
// --snap-vanilla and `cuzk snap prove --vanilla` read:
//   partition-<k>.vproof  one bincode PartitionProof per partition (filecoin-proofs-api's bytes)
//   commitments.txt       "proof NAME", "comm_r_old HEX", "comm_r_new HEX", "comm_d_new HEX"
//                         (64 hex digits: the commitments' 32 bytes in order), one per line
//
// What the generator makes (SYNTHETIC: test data, not an update a node made):
// - up to 8 MiB, an update of a sector sealed in memory by the PoRep generator
//   (porep_vanilla_gen.hpp seal_sector with porep_gen_params(the size's V1_1 seal proof, seed)):
//   the old replica is that sector's, so comm_r_old is its comm_r; the new data is pseudo-random
//   on every node;
// - above, sparse trees: 4,096 pseudo-random nodes carry an old label and data, every other node
//   is zero in the old replica, the data and the new replica (snap_vanilla_gen.hpp), so a 32 GiB
//   update takes seconds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::cli {

struct SnapVanillaSet {
  filecoin::RegisteredUpdateProof proof{};
  filecoin::Bytes32 comm_r_old{}, comm_r_new{}, comm_d_new{};
  std::vector<std::vector<std::uint8_t>> partitions;  // bincode PartitionProof, in order
  std::string origin;  // how it was made: "an update of a 2 KiB sector sealed in memory (...)"
};

// The update for `proof` from `seed` (the sealed sector's data, ticket and the new data; the
// sparse nodes), every partition's vanilla proof encoded.
SnapVanillaSet generate_snap_vanilla(filecoin::RegisteredUpdateProof proof, std::uint64_t seed);

// Writes the directory (created if missing). Throws std::runtime_error when a file cannot be written.
void write_snap_vanilla_dir(const std::string& dir, const SnapVanillaSet& set);

// Prints the files, the proof and the commitments (hex, then as CIDs) on stdout and what the set
// is on stderr.
void print_snap_vanilla(const SnapVanillaSet& set, const std::string& dir);

// Reads it back: commitments.txt and partition-0.vproof ... in order, as many as there are.
// Throws DecodeError naming the file and line (a missing or unknown line, a bad value, no
// partition file). The proofs are not decoded here.
SnapVanillaSet read_snap_vanilla_dir(const std::string& dir);

}  // namespace cuzk::cli
