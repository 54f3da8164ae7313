// Native Merkle trees of Filecoin's shapes, for making vanilla proofs: TreeD (binary SHA-256,
// each digest trimmed to 254 bits: filecoin-hashers Sha256Function::hash2) and the Poseidon trees
// TreeC and TreeR (a base tree of arity 8, then at most a sub-tree and a top-tree level;
// neptune's Poseidon of each level's arity, PoseidonFunction::multi_node). Leaves are not hashed
// (the merkletree crate's leaf() is the identity for Filecoin's hashers).
//
// A tree is held whole (every node of every level) or sparse: only the nodes above the leaves
// that were set, every other node being the root of an all-zero subtree of its level
// (empty_subtree_roots), so a tree of 2^30 leaves with a few thousand set costs a few thousand
// hashes per level. Levels are built in parallel (oneTBB); the values do not depend on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/por.hpp"      // TreeShape, PathLevel
#include "cuzk/filecoin/vanilla.hpp"  // InclusionProof, MerkleProofKind

namespace cuzk::filecoin {

enum class MerkleHash : std::uint8_t { Sha256, Poseidon };

// The merkle/proof.rs ProofData variant of a tree shape.
MerkleProofKind merkle_proof_kind(const TreeShape& shape);

// One node of a level from its children (Sha256: exactly two).
Fr merkle_node(MerkleHash hash, std::span<const Fr> children);

// empty[0] = 0 (a zero leaf); empty[l + 1] = the node over arity_l copies of empty[l]. One more
// entry than `arities`: the last is the root of an all-zero tree.
std::vector<Fr> empty_subtree_roots(MerkleHash hash, std::span<const unsigned> arities);

class MerkleTree {
 public:
  using Entry = std::pair<std::uint64_t, Fr>;  // (index, node)

  // Every leaf given (leaves.size() leaves, a size TreeShape::level_arities accepts).
  static MerkleTree dense(MerkleHash hash, const TreeShape& shape, std::vector<Fr> leaves);
  // `leaves` leaves, zero except `set` (indices distinct, below `leaves`, any order).
  static MerkleTree sparse(MerkleHash hash, const TreeShape& shape, std::uint64_t leaves, std::vector<Entry> set);

  const TreeShape& shape() const { return shape_; }
  std::uint64_t leaves() const { return leaves_; }
  const std::vector<unsigned>& arities() const { return arities_; }  // leaf level upward
  bool is_sparse() const { return sparse_; }

  // Level 0 is the leaves; level arities().size() the root. index < the level's width.
  Fr node(std::size_t level, std::uint64_t index) const;
  Fr leaf(std::uint64_t index) const { return node(0, index); }
  Fr root() const { return node(arities_.size(), 0); }

  // The path of a leaf, leaf level first: per level the arity - 1 siblings and the leaf's
  // running node's place among them (por.hpp's form).
  std::vector<PathLevel> path(std::uint64_t leaf) const;
  // The MerkleProof of a leaf: its kind from the shape, root, leaf and path.
  InclusionProof proof(std::uint64_t leaf) const;

 private:
  MerkleTree(MerkleHash hash, const TreeShape& shape, std::uint64_t leaves, bool sparse);

  TreeShape shape_;
  std::uint64_t leaves_ = 0;
  std::vector<unsigned> arities_;
  bool sparse_ = false;
  std::vector<std::vector<Fr>> dense_;             // per level, every node
  std::vector<std::vector<Entry>> sparse_levels_;  // per level, the nodes above set leaves, by index
  std::vector<Fr> empty_;                          // per level (sparse trees)
};

}  // namespace cuzk::filecoin
