// A synthetic sector update, consistent end to end, for tests: an old replica (TreeROld's leaves)
// and new data (TreeDNew's leaves), the new replica encoded from them as vanilla.rs encode_into
// does (label_r_new = label_r_old + data · rho(phi, node's h high bits), phi = H(comm_d_new,
// comm_r_old)), TreeRNew over it, comm_r_old / comm_r_new = Poseidon2(comm_c, root), and the
// partition proofs vanilla.rs prove_inner makes from those trees.
//
// Leaves are pseudo-random in (seed, node). With `random_leaves` below the sector's nodes the
// trees are sparse (merkle_tree.hpp): only that many nodes, spread over the sector, carry data
// and an old label, every other node being zero in all three (0 = 0 + 0·rho), so a 32 GiB update
// costs a few thousand hashes. Otherwise every node is random (dense trees, for small sizes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "cuzk/filecoin/merkle_tree.hpp"
#include "cuzk/filecoin/porep_vanilla_gen.hpp"  // SealedSector
#include "cuzk/filecoin/snap_check.hpp"  // SnapPublic
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/snap_vanilla.hpp"

namespace cuzk::filecoin {

struct SnapTestUpdate {
  SnapParams params;
  SnapPublic pub;  // comm_r_old, comm_d_new, comm_r_new, h
  Fr comm_c;
  MerkleTree tree_r_old, tree_d_new, tree_r_new;
};

SnapTestUpdate make_snap_test_update(const SnapParams& p, unsigned h, std::uint64_t seed,
                                     std::uint64_t random_leaves = std::numeric_limits<std::uint64_t>::max());

// The update of a sector sealed by the PoRep generator (porep_vanilla_gen.hpp seal_sector): its
// replica (TreeR's leaves) is the old replica, its comm_c the update's, so comm_r_old is the
// sector's comm_r; the new data is pseudo-random in `seed` on every node. Throws
// std::invalid_argument when the sector's size or TreeR shape is not the update's.
SnapTestUpdate snap_update_of_sealed(const SealedSector& s, const SnapParams& p, unsigned h, std::uint64_t seed);

// prove_inner for partition k: comm_c, the partition's apex leaves (TreeDNew's row at
// apex_leafs_height, leaves k·apex_leaf_count onward), and per challenge the three Merkle proofs.
SnapPartitionProof make_snap_partition_proof(const SnapTestUpdate& u, std::size_t k);

}  // namespace cuzk::filecoin
