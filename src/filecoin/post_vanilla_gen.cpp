// Synthetic PoSt vanilla proofs (method in post_vanilla_gen.hpp). A sparse tree keeps, per level,
// only the nodes above a challenged leaf (sorted by index); any other node is the level's empty
// node, the root of an all-zero subtree.
#include "cuzk/filecoin/post_vanilla_gen.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>

#include "cuzk/filecoin/poseidon_constants.hpp"
#include "cuzk/filecoin/post_challenges.hpp"

namespace cuzk::filecoin {

namespace {

// SplitMix64 (Steele, Lea, Flood 2014): a small generator whose whole state is one word, so each
// value can be seeded from its own coordinates.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t state) : s_(state) {}
  std::uint64_t operator()() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t s_;
};

// What each pseudo-random value is for, so the comm_c of a sector and a leaf of it never share a
// stream.
enum class Stream : std::uint64_t { CommC = 1, Leaf = 2 };

// A uniform Fr from (seed, sector id, stream, index).
Fr pseudo_random_fr(std::uint64_t seed, std::uint64_t sector_id, Stream stream, std::uint64_t index) {
  SplitMix64 mix(seed);
  std::uint64_t state = mix();
  for (std::uint64_t word : {sector_id, static_cast<std::uint64_t>(stream), index}) state = SplitMix64(state ^ word)();
  SplitMix64 rng(state);
  return Fr::random(rng);
}

// The tree's levels (leaf level first) and each level's empty node: empty[0] = 0, empty[l + 1] the
// hash of arity_l copies of empty[l].
struct TreeModel {
  std::vector<unsigned> arities;
  std::vector<const PoseidonConstants*> constants;  // per level
  std::vector<Fr> empty;

  explicit TreeModel(const PoStProofInfo& info) : arities(info.tree.level_arities(info.nodes)) {
    empty.push_back(Fr::zero());
    for (unsigned a : arities) {
      constants.push_back(&poseidon_constants(a));
      const std::vector<Fr> kids(a, empty.back());
      empty.push_back(poseidon_hash(*constants.back(), kids));
    }
  }
  std::size_t levels() const { return arities.size(); }
};

using Level = std::vector<std::pair<std::uint64_t, Fr>>;  // (index, node), sorted by index

class SparseTree {
 public:
  // `leaves`: the non-zero leaves, sorted by index, distinct.
  SparseTree(const TreeModel& model, Level leaves) : m_(model) {
    nodes_.reserve(m_.levels() + 1);
    nodes_.push_back(std::move(leaves));
    std::vector<Fr> kids;
    for (std::size_t l = 0; l < m_.levels(); ++l) {
      const unsigned arity = m_.arities[l];
      const Level& below = nodes_[l];
      Level up;
      kids.resize(arity);
      for (std::size_t i = 0; i < below.size();) {
        const std::uint64_t parent = below[i].first / arity;
        std::fill(kids.begin(), kids.end(), m_.empty[l]);
        for (; i < below.size() && below[i].first / arity == parent; ++i)
          kids[below[i].first % arity] = below[i].second;
        up.emplace_back(parent, poseidon_hash(*m_.constants[l], kids));
      }
      nodes_.push_back(std::move(up));
    }
  }

  const Fr& node(std::size_t level, std::uint64_t index) const {
    const Level& lv = nodes_[level];
    auto it = std::lower_bound(lv.begin(), lv.end(), index, [](const auto& e, std::uint64_t i) { return e.first < i; });
    return it != lv.end() && it->first == index ? it->second : m_.empty[level];
  }
  const Fr& root() const { return node(m_.levels(), 0); }

  // The leaf's path, leaf level first: per level the arity - 1 siblings and the running node's place.
  std::vector<PathLevel> path(std::uint64_t leaf) const {
    std::vector<PathLevel> out(m_.levels());
    std::uint64_t index = leaf;
    for (std::size_t l = 0; l < m_.levels(); ++l) {
      const unsigned arity = m_.arities[l];
      PathLevel& lv = out[l];
      lv.index = static_cast<std::uint32_t>(index % arity);
      const std::uint64_t first = index - lv.index;
      lv.siblings.reserve(arity - 1);
      for (unsigned k = 0; k < arity; ++k)
        if (k != lv.index) lv.siblings.push_back(node(l, first + k));
      index /= arity;
    }
    return out;
  }

 private:
  const TreeModel& m_;
  std::vector<Level> nodes_;
};

MerkleProofKind proof_kind(const TreeShape& t) {
  if (t.top_arity) return MerkleProofKind::Top;
  if (t.sub_arity) return MerkleProofKind::Sub;
  return MerkleProofKind::Single;
}

FallbackPoStSectorProof make_sector_proof(const PoStProofInfo& info, const TreeModel& model, const Bytes32& randomness,
                                          std::uint64_t sector_id, std::size_t sector_index, std::uint64_t seed) {
  const std::vector<std::uint64_t> challenges = sector_leaf_challenges(info, randomness, sector_id, sector_index);
  std::vector<std::uint64_t> set = challenges;
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  Level leaves;
  leaves.reserve(set.size());
  for (std::uint64_t c : set) leaves.emplace_back(c, pseudo_random_fr(seed, sector_id, Stream::Leaf, c));
  const SparseTree tree(model, std::move(leaves));

  FallbackPoStSectorProof out;
  out.sector_id = sector_id;
  SectorProof& s = out.sectors.emplace_back();
  s.comm_c = pseudo_random_fr(seed, sector_id, Stream::CommC, 0);
  s.comm_r_last = tree.root();
  out.comm_r = poseidon_hash2(s.comm_c, s.comm_r_last);
  const MerkleProofKind kind = proof_kind(info.tree);
  s.inclusion_proofs.reserve(challenges.size());
  for (std::uint64_t c : challenges) {
    InclusionProof& p = s.inclusion_proofs.emplace_back();
    p.kind = kind;
    p.root = s.comm_r_last;
    p.leaf = tree.node(0, c);
    p.path = tree.path(c);
  }
  return out;
}

}  // namespace

FallbackPoStSectorProof synthetic_sector_proof(const PoStProofInfo& info, const Bytes32& randomness,
                                               std::uint64_t sector_id, std::size_t sector_index, std::uint64_t seed) {
  const TreeModel model(info);
  return make_sector_proof(info, model, randomness, sector_id, sector_index, seed);
}

std::vector<SyntheticSector> generate_post_vanilla_proofs(RegisteredPoStProof proof, const Bytes32& randomness,
                                                          std::span<const std::uint64_t> sector_ids,
                                                          std::size_t partition_index, std::uint64_t seed) {
  const PoStProofInfo& info = post_proof_info(proof);
  const std::string name(info.name);
  if (sector_ids.empty()) throw std::invalid_argument("generate_post_vanilla_proofs: no sectors for " + name);
  if (sector_ids.size() > info.sector_count)
    throw std::invalid_argument("generate_post_vanilla_proofs: " + std::to_string(sector_ids.size()) +
                                " sectors for one " + name + " SNARK of at most " + std::to_string(info.sector_count));
  if (info.type == PoStType::Winning && partition_index != 0)
    throw std::invalid_argument("generate_post_vanilla_proofs: WinningPoSt has one partition, not partition " +
                                std::to_string(partition_index));
  std::unordered_set<std::uint64_t> seen;
  for (std::uint64_t id : sector_ids)
    if (!seen.insert(id).second)
      throw std::invalid_argument("generate_post_vanilla_proofs: sector " + std::to_string(id) + " listed twice");
  require_safe_commitment(randomness, "randomness");

  const TreeModel model(info);
  std::vector<SyntheticSector> out(sector_ids.size());
  auto make = [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const FallbackPoStSectorProof p = make_sector_proof(info, model, randomness, sector_ids[i],
                                                          partition_index * info.sector_count + i, seed);
      out[i] = SyntheticSector{p.sector_id, p.comm_r, encode_vanilla_proof(p)};
    }
  };
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, sector_ids.size()), make);
  return out;
}

}  // namespace cuzk::filecoin
