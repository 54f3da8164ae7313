// What the two PoRep C1 generators share (porep_vanilla_gen.hpp): pseudo-random values from a
// seed and the assembly of the vanilla proofs from a sector's trees and columns.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/porep_vanilla_gen.hpp"

namespace cuzk::filecoin::porep_gen_detail {

// SHA-256(tag ‖ u64_le(seed) ‖ u64_le(a) [‖ u32_le(b)]), byte 31 &= 0x3f: a field element.
Fr seeded_fr(std::string_view tag, std::uint64_t seed, std::uint64_t a);
Fr seeded_fr(std::string_view tag, std::uint64_t seed, std::uint64_t a, std::uint32_t b);

// A sector as the C1 opens it.
struct SectorView {
  const PorepGenParams& params;
  const PorepC1Shape& shape;
  const SdrGraph& graph;
  const MerkleTree& tree_d;
  const MerkleTree& tree_c;
  const MerkleTree& tree_r;
  std::function<std::vector<Fr>(std::uint64_t node)> column;  // the node's label in layer 1, 2, ...
  Fr replica_id;
};

// The C1: every partition's challenges (porep_gen_challenges with the trees' comm_r), each
// challenge's proof (in parallel), the public values.
SealCommitPhase1 assemble_c1(const SectorView& s, const Bytes32& seed);

}  // namespace cuzk::filecoin::porep_gen_detail
