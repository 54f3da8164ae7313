// Proofs of retrievability (Merkle inclusion) as storage-proofs-core gadgets/por.rs makes them:
// PoRCircuit (the leaf index exposed as packed public inputs) and por_no_challenge_input (the
// index given as bits the caller allocated). Trees are Filecoin's: a base tree of arity
// base_arity, then at most one sub-tree level and one top-tree level. The hash is a policy
// (Hasher::hash_multi_leaf(cs, children)): Poseidon for the Poseidon trees, SHA-256 for TreeD.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/insertion.hpp"
#include "cuzk/filecoin/multipack.hpp"

namespace cuzk::filecoin {

template <class H, class CS>
concept MerkleHasher = requires(CS& cs, std::span<const AllocatedNum> children) {
  { H::hash_multi_leaf(cs, children) } -> std::same_as<AllocatedNum>;
};

// A tree's arities (0: no such level). Binary SHA-256 TreeD is {2, 0, 0}; 32 GiB TreeR {8, 8, 0}.
struct TreeShape {
  unsigned base_arity = 8, sub_arity = 0, top_arity = 0;
  bool operator==(const TreeShape&) const = default;

  // Levels of the base tree for a tree of `leaves` leaves (storage-proofs-core base_path_length).
  std::size_t base_levels(std::uint64_t leaves) const;
  // Arity of every level of a path, leaf upward.
  std::vector<unsigned> level_arities(std::uint64_t leaves) const;
  // Index bits of a path (log2 of leaves).
  std::size_t index_bits(std::uint64_t leaves) const;
};

inline unsigned log2_exact(std::uint64_t v, const char* what) {
  if (v == 0 || (v & (v - 1)) != 0) throw std::invalid_argument(std::string(what) + " must be a power of two");
  unsigned k = 0;
  while ((std::uint64_t{1} << k) != v) ++k;
  return k;
}

inline std::size_t TreeShape::base_levels(std::uint64_t leaves) const {
  std::uint64_t base_leaves = leaves;
  if (sub_arity) base_leaves /= sub_arity;
  if (top_arity) base_leaves /= top_arity;
  const unsigned bits = log2_exact(base_leaves, "base tree leaves");
  const unsigned per = log2_exact(base_arity, "base arity");
  if (bits % per != 0) throw std::invalid_argument("base tree leaves are not a power of the base arity");
  return bits / per;
}

inline std::vector<unsigned> TreeShape::level_arities(std::uint64_t leaves) const {
  std::vector<unsigned> a(base_levels(leaves), base_arity);
  if (sub_arity) a.push_back(sub_arity);
  if (top_arity) a.push_back(top_arity);
  return a;
}

inline std::size_t TreeShape::index_bits(std::uint64_t leaves) const { return log2_exact(leaves, "leaves"); }

// One level of an authentication path's values: the siblings (arity - 1) and where the
// running node goes among them. A blank circuit (recording) uses zero values.
struct PathLevel {
  std::vector<Fr> siblings;
  std::uint32_t index = 0;
};

namespace por_detail {

// One sub-path (base, sub or top levels) of PoRCircuit: per level ("merkle tree hash i") the
// index bits, the siblings, the insertion and the hash.
template <class Hasher, class CS>
AllocatedNum sub_path(CS& cs, AllocatedNum cur, std::span<const PathLevel> levels, unsigned arity,
                      std::vector<Boolean>& bits_out) {
  if (levels.empty()) return cur;
  const unsigned nbits = log2_exact(arity, "arity");
  std::vector<Boolean> bits;
  std::vector<AllocatedNum> siblings;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const PathLevel& lv = levels[i];
    cs::Namespace ns(cs, [i] { return "merkle tree hash " + std::to_string(i); });
    bits.clear();
    for (unsigned b = 0; b < nbits; ++b) {
      cs::Namespace nb(cs, [b] { return "index bit " + std::to_string(b); });
      bits.emplace_back(AllocatedBit::alloc(cs, "boolean", ((lv.index >> b) & 1) != 0));
    }
    bits_out.insert(bits_out.end(), bits.begin(), bits.end());
    siblings.clear();
    for (unsigned s = 0; s + 1 < arity; ++s) {
      cs::Namespace ne(cs, [s] { return "path element " + std::to_string(s); });
      siblings.push_back(AllocatedNum::alloc(cs, "num", [&] { return lv.siblings[s]; }));
    }
    std::vector<AllocatedNum> preimage = insert(cs, cur, bits, siblings);
    cs::Namespace nh(cs, "computation of commitment hash");
    cur = Hasher::hash_multi_leaf(cs, std::span<const AllocatedNum>(preimage));
  }
  return cur;
}

inline void check_path(const TreeShape& shape, std::uint64_t leaves, std::span<const PathLevel> path) {
  const auto arities = shape.level_arities(leaves);
  if (path.size() != arities.size())
    throw std::invalid_argument("Merkle path has " + std::to_string(path.size()) + " levels; the tree has " +
                                std::to_string(arities.size()));
  for (std::size_t i = 0; i < path.size(); ++i)
    if (path[i].siblings.size() + 1 != arities[i])
      throw std::invalid_argument("Merkle path level " + std::to_string(i) + " has " +
                                  std::to_string(path[i].siblings.size()) + " siblings; arity is " +
                                  std::to_string(arities[i]));
}

}  // namespace por_detail

namespace por_detail {

// PoRCircuit::synthesize from the allocated leaf on: the base, sub and top sub-paths, the index
// bits packed into public inputs ("path"), then computed root·1 = root; root() gives the root
// (allocating it when it is not the caller's: "root_value"), inputized unless private.
template <class Hasher, class CS, class RootFn>
void por_body(CS& cs, const TreeShape& shape, std::uint64_t leaves, AllocatedNum cur, std::span<const PathLevel> path,
              RootFn&& root, bool private_root) {
  check_path(shape, leaves, path);
  const std::size_t nbase = shape.base_levels(leaves);
  std::vector<Boolean> bits;
  bits.reserve(shape.index_bits(leaves));
  {
    cs::Namespace ns(cs, "base");
    cur = sub_path<Hasher>(cs, cur, path.subspan(0, nbase), shape.base_arity, bits);
  }
  {
    cs::Namespace ns(cs, "sub");
    cur = sub_path<Hasher>(cs, cur, path.subspan(nbase, shape.sub_arity ? 1 : 0), shape.sub_arity, bits);
  }
  {
    cs::Namespace ns(cs, "top");
    cur = sub_path<Hasher>(cs, cur, path.subspan(nbase + (shape.sub_arity ? 1 : 0), shape.top_arity ? 1 : 0),
                           shape.top_arity, bits);
  }
  {
    cs::Namespace ns(cs, "path");
    pack_into_inputs(cs, std::span<const Boolean>(bits));
  }
  const AllocatedNum rt = root();
  enforce_equal(cs, "enforce root is correct", cur, rt);
  if (!private_root) {
    cs::Namespace ns(cs, "root");
    rt.inputize(cs);
  }
}

}  // namespace por_detail

// PoRCircuit::synthesize. The leaf is allocated here ("value"); the root is the caller's
// (an allocated number: the por.rs Root::Var case) unless `root_value` is given, which is then
// allocated ("root_value"). The index bits are exposed as packed public inputs ("path"); with
// !private_root the root is exposed too ("root").
template <class Hasher, class CS>
void por_circuit(CS& cs, const TreeShape& shape, std::uint64_t leaves, const Fr& leaf, std::span<const PathLevel> path,
                 const AllocatedNum* root_var, const Fr& root_value, bool private_root) {
  AllocatedNum cur;
  {
    cs::Namespace ns(cs, "value");
    cur = AllocatedNum::alloc(cs, "num", [&] { return leaf; });
  }
  por_detail::por_body<Hasher>(cs, shape, leaves, cur, path, [&] {
    if (root_var) return *root_var;
    cs::Namespace ns(cs, "root_value");
    return AllocatedNum::alloc(cs, "num", [&] { return root_value; });
  }, private_root);
}

// storage-proofs-porep's enforce_inclusion: PoRCircuit with an allocated leaf and an allocated,
// private root (both Root::Var: nothing allocated for them).
template <class Hasher, class CS>
void enforce_inclusion(CS& cs, const TreeShape& shape, std::uint64_t leaves, std::span<const PathLevel> path,
                       const AllocatedNum& root, const AllocatedNum& leaf) {
  por_detail::por_body<Hasher>(cs, shape, leaves, leaf, path, [&] { return root; }, /*private_root=*/true);
}

// por_no_challenge_input: the path hashed from an allocated leaf with the caller's index bits
// (little-endian, consumed level by level) and allocated siblings; then computed·1 = root.
template <class Hasher, class CS>
void por_no_challenge_input(CS& cs, const TreeShape& shape, std::span<const AllocatedBit> challenge_bits,
                            const AllocatedNum& leaf, std::span<const std::vector<AllocatedNum>> path_values,
                            const AllocatedNum& root) {
  const std::size_t extra = (shape.sub_arity ? 1 : 0) + (shape.top_arity ? 1 : 0);
  if (path_values.size() < extra) throw std::invalid_argument("por_no_challenge_input: path too short");
  const std::size_t nbase = path_values.size() - extra;
  std::vector<unsigned> arities(nbase, shape.base_arity);
  if (shape.sub_arity) arities.push_back(shape.sub_arity);
  if (shape.top_arity) arities.push_back(shape.top_arity);
  AllocatedNum cur = leaf;
  std::size_t next_bit = 0;
  std::vector<Boolean> index;
  for (std::size_t height = 0; height < arities.size(); ++height) {
    const unsigned arity = arities[height];
    const auto& siblings = path_values[height];
    if (siblings.size() + 1 != arity) throw std::invalid_argument("por_no_challenge_input: path element has the wrong sibling count");
    const unsigned nbits = log2_exact(arity, "arity");
    if (next_bit + nbits > challenge_bits.size()) throw std::invalid_argument("por_no_challenge_input: too few challenge bits");
    index.assign(challenge_bits.begin() + next_bit, challenge_bits.begin() + next_bit + nbits);
    next_bit += nbits;
    std::vector<AllocatedNum> preimage;
    {
      cs::Namespace ns(cs, [height] { return "merkle proof insert (height=" + std::to_string(height) + ")"; });
      preimage = insert(cs, cur, index, siblings);
    }
    cs::Namespace ns(cs, [height] { return "merkle proof hash (height=" + std::to_string(height) + ")"; });
    cur = Hasher::hash_multi_leaf(cs, std::span<const AllocatedNum>(preimage));
  }
  if (next_bit != challenge_bits.size()) throw std::invalid_argument("por_no_challenge_input: challenge bit-length and tree arity do not agree");
  cs.enforce("calculated root == provided root", cur.variable(), Variable::one(), root.variable());
}

}  // namespace cuzk::filecoin
