// Native Merkle trees (merkle_tree.hpp): dense levels, or sparse levels of (index, node) sorted by
// index with every missing node its level's empty-subtree root.
#include "cuzk/filecoin/merkle_tree.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/c1_check.hpp"  // tree_d_node
#include "cuzk/filecoin/poseidon_constants.hpp"

namespace cuzk::filecoin {

MerkleProofKind merkle_proof_kind(const TreeShape& shape) {
  if (shape.top_arity) return MerkleProofKind::Top;
  if (shape.sub_arity) return MerkleProofKind::Sub;
  return MerkleProofKind::Single;
}

Fr merkle_node(MerkleHash hash, std::span<const Fr> children) {
  if (hash == MerkleHash::Sha256) {
    if (children.size() != 2) throw std::invalid_argument("merkle_node: SHA-256 trees are binary");
    return tree_d_node(children[0], children[1]);
  }
  return poseidon_hash(poseidon_constants(children.size()), children);
}

std::vector<Fr> empty_subtree_roots(MerkleHash hash, std::span<const unsigned> arities) {
  std::vector<Fr> empty{Fr::zero()};
  for (unsigned a : arities) {
    const std::vector<Fr> kids(a, empty.back());
    empty.push_back(merkle_node(hash, kids));
  }
  return empty;
}

MerkleTree::MerkleTree(MerkleHash hash, const TreeShape& shape, std::uint64_t leaves, bool sparse)
    : shape_(shape), leaves_(leaves), arities_(shape.level_arities(leaves)), sparse_(sparse) {
  if (hash == MerkleHash::Sha256 && shape != TreeShape{2, 0, 0})
    throw std::invalid_argument("MerkleTree: a SHA-256 tree is binary (2-0-0)");
}

MerkleTree MerkleTree::dense(MerkleHash hash, const TreeShape& shape, std::vector<Fr> leaves) {
  MerkleTree t(hash, shape, leaves.size(), false);
  t.dense_.reserve(t.arities_.size() + 1);
  t.dense_.push_back(std::move(leaves));
  for (unsigned a : t.arities_) {
    const std::vector<Fr>& below = t.dense_.back();
    std::vector<Fr> up(below.size() / a);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, up.size(), 256),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t j = r.begin(); j != r.end(); ++j)
                          up[j] = merkle_node(hash, std::span<const Fr>(below).subspan(j * a, a));
                      });
    t.dense_.push_back(std::move(up));
  }
  return t;
}

MerkleTree MerkleTree::sparse(MerkleHash hash, const TreeShape& shape, std::uint64_t leaves, std::vector<Entry> set) {
  MerkleTree t(hash, shape, leaves, true);
  t.empty_ = empty_subtree_roots(hash, t.arities_);
  std::sort(set.begin(), set.end(), [](const Entry& x, const Entry& y) { return x.first < y.first; });
  for (std::size_t i = 0; i < set.size(); ++i) {
    if (set[i].first >= leaves)
      throw std::out_of_range("MerkleTree::sparse: leaf " + std::to_string(set[i].first) + " of a tree of " +
                              std::to_string(leaves));
    if (i > 0 && set[i].first == set[i - 1].first)
      throw std::invalid_argument("MerkleTree::sparse: leaf " + std::to_string(set[i].first) + " set twice");
  }
  t.sparse_levels_.reserve(t.arities_.size() + 1);
  t.sparse_levels_.push_back(std::move(set));
  for (std::size_t l = 0; l < t.arities_.size(); ++l) {
    const unsigned a = t.arities_[l];
    const std::vector<Entry>& below = t.sparse_levels_.back();
    // Each parent's run of children in `below` (sorted, so a parent's children are adjacent).
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < below.size(); ++i)
      if (i == 0 || below[i].first / a != below[i - 1].first / a) starts.push_back(i);
    starts.push_back(below.size());
    std::vector<Entry> up(starts.size() - 1);
    const Fr empty = t.empty_[l];
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, up.size(), 16), [&](const tbb::blocked_range<std::size_t>& r) {
      std::vector<Fr> kids(a);
      for (std::size_t j = r.begin(); j != r.end(); ++j) {
        std::fill(kids.begin(), kids.end(), empty);
        for (std::size_t i = starts[j]; i < starts[j + 1]; ++i) kids[below[i].first % a] = below[i].second;
        up[j] = Entry{below[starts[j]].first / a, merkle_node(hash, kids)};
      }
    });
    t.sparse_levels_.push_back(std::move(up));
  }
  return t;
}

Fr MerkleTree::node(std::size_t level, std::uint64_t index) const {
  if (level > arities_.size()) throw std::out_of_range("MerkleTree: level " + std::to_string(level));
  if (!sparse_) return dense_[level].at(index);
  const std::vector<Entry>& lv = sparse_levels_[level];
  const auto it =
      std::lower_bound(lv.begin(), lv.end(), index, [](const Entry& e, std::uint64_t i) { return e.first < i; });
  return it != lv.end() && it->first == index ? it->second : empty_[level];
}

std::vector<PathLevel> MerkleTree::path(std::uint64_t leaf) const {
  if (leaf >= leaves_)
    throw std::out_of_range("MerkleTree: leaf " + std::to_string(leaf) + " of a tree of " + std::to_string(leaves_));
  std::vector<PathLevel> out(arities_.size());
  std::uint64_t index = leaf;
  for (std::size_t l = 0; l < arities_.size(); ++l) {
    const unsigned a = arities_[l];
    PathLevel& lv = out[l];
    lv.index = static_cast<std::uint32_t>(index % a);
    const std::uint64_t first = index - lv.index;
    lv.siblings.reserve(a - 1);
    for (unsigned k = 0; k < a; ++k)
      if (k != lv.index) lv.siblings.push_back(node(l, first + k));
    index /= a;
  }
  return out;
}

InclusionProof MerkleTree::proof(std::uint64_t leaf) const {
  InclusionProof p;
  p.kind = merkle_proof_kind(shape_);
  p.root = root();
  p.leaf = this->leaf(leaf);
  p.path = path(leaf);
  return p;
}

}  // namespace cuzk::filecoin
