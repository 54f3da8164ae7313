// What the Filecoin vanilla-proof encoders share (private to src/filecoin): the names and
// variant of a tree's Merkle proofs, and bincode 1.x's default encoding (little-endian
// integers, u64 lengths) of the values and of merkle/proof.rs's MerkleProof, as PoSt vanilla
// proofs, supraseal's C1 and SnapDeals partition proofs all carry it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/filecoin/vanilla.hpp"

namespace cuzk::filecoin::bincode_detail {

inline const char* kind_name(MerkleProofKind k) {
  switch (k) {
    case MerkleProofKind::Single: return "Single";
    case MerkleProofKind::Sub: return "Sub";
    case MerkleProofKind::Top: return "Top";
  }
  return "?";
}

// The variant a tree's proofs have: Top with a top layer, else Sub with a sub layer, else Single.
inline MerkleProofKind kind_of(const TreeShape& t) {
  return t.top_arity ? MerkleProofKind::Top : t.sub_arity ? MerkleProofKind::Sub : MerkleProofKind::Single;
}

// "8-8-2".
inline std::string shape_name(const TreeShape& t) {
  return std::to_string(t.base_arity) + "-" + std::to_string(t.sub_arity) + "-" + std::to_string(t.top_arity);
}

// The levels after the base path that a variant carries: one per sub/top layer.
inline std::size_t upper_levels(MerkleProofKind k) {
  switch (k) {
    case MerkleProofKind::Single: return 0;
    case MerkleProofKind::Sub: return 1;
    case MerkleProofKind::Top: return 2;
  }
  throw std::invalid_argument("unknown Merkle proof kind " + std::to_string(static_cast<std::uint32_t>(k)));
}

class Writer {
 public:
  explicit Writer(std::size_t reserve = 0) { b_.reserve(reserve); }
  void uint(std::uint64_t v, std::size_t width) {
    for (std::size_t i = 0; i < width; ++i) b_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) { uint(v, 8); }
  void u32(std::uint32_t v) { uint(v, 4); }
  void bytes(const Bytes32& x) { b_.insert(b_.end(), x.begin(), x.end()); }
  void fr(const Fr& x) { bytes(x.to_bytes_le()); }
  void frs(std::span<const Fr> xs) {
    u64(xs.size());
    for (const Fr& x : xs) fr(x);
  }
  // An InclusionPath: its length, then per PathElement the siblings as a Vec and the index.
  void path(std::span<const PathLevel> levels) {
    u64(levels.size());
    for (const PathLevel& lv : levels) {
      frs(lv.siblings);
      u64(lv.index);
    }
  }
  // A MerkleProof: the variant's tag, then Single {root, leaf, path}, Sub {base_path, sub_path,
  // root, leaf} or Top {base_path, sub_path, top_path, root, leaf}. `encoder` names the caller
  // in the std::invalid_argument thrown for a proof with fewer levels than its variant has.
  void merkle_proof(const InclusionProof& p, const char* encoder) {
    const std::size_t upper = upper_levels(p.kind);
    if (p.path.size() < upper)
      throw std::invalid_argument(std::string(encoder) + ": a " + kind_name(p.kind) + " proof of " +
                                  std::to_string(p.path.size()) + " path levels");
    const std::span<const PathLevel> all(p.path);
    u32(static_cast<std::uint32_t>(p.kind));
    if (p.kind == MerkleProofKind::Single) {
      fr(p.root);
      fr(p.leaf);
      path(all);
      return;
    }
    const std::size_t base = all.size() - upper;
    path(all.first(base));
    for (std::size_t l = base; l < all.size(); ++l) path(all.subspan(l, 1));
    fr(p.root);
    fr(p.leaf);
  }
  std::vector<std::uint8_t> take() && { return std::move(b_); }

 private:
  std::vector<std::uint8_t> b_;
};

}  // namespace cuzk::filecoin::bincode_detail
