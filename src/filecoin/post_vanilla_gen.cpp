// Synthetic PoSt vanilla proofs (method in post_vanilla_gen.hpp), each sector's TreeR a sparse
// MerkleTree (merkle_tree.hpp) over its challenged leaves.
#include "cuzk/filecoin/post_vanilla_gen.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>

#include "cuzk/filecoin/merkle_tree.hpp"
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

FallbackPoStSectorProof make_sector_proof(const PoStProofInfo& info, const Bytes32& randomness, std::uint64_t sector_id,
                                          std::size_t sector_index, std::uint64_t seed) {
  const std::vector<std::uint64_t> challenges = sector_leaf_challenges(info, randomness, sector_id, sector_index);
  std::vector<std::uint64_t> set = challenges;
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  std::vector<MerkleTree::Entry> leaves;
  leaves.reserve(set.size());
  for (std::uint64_t c : set) leaves.emplace_back(c, pseudo_random_fr(seed, sector_id, Stream::Leaf, c));
  const MerkleTree tree = MerkleTree::sparse(MerkleHash::Poseidon, info.tree, info.nodes, std::move(leaves));

  FallbackPoStSectorProof out;
  out.sector_id = sector_id;
  SectorProof& s = out.sectors.emplace_back();
  s.comm_c = pseudo_random_fr(seed, sector_id, Stream::CommC, 0);
  s.comm_r_last = tree.root();
  out.comm_r = poseidon_hash2(s.comm_c, s.comm_r_last);
  s.inclusion_proofs.reserve(challenges.size());
  for (std::uint64_t c : challenges) s.inclusion_proofs.push_back(tree.proof(c));
  return out;
}

}  // namespace

FallbackPoStSectorProof synthetic_sector_proof(const PoStProofInfo& info, const Bytes32& randomness,
                                               std::uint64_t sector_id, std::size_t sector_index, std::uint64_t seed) {
  return make_sector_proof(info, randomness, sector_id, sector_index, seed);
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

  std::vector<SyntheticSector> out(sector_ids.size());
  auto make = [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const FallbackPoStSectorProof p =
          make_sector_proof(info, randomness, sector_ids[i], partition_index * info.sector_count + i, seed);
      out[i] = SyntheticSector{p.sector_id, p.comm_r, encode_vanilla_proof(p)};
    }
  };
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, sector_ids.size()), make);
  return out;
}

}  // namespace cuzk::filecoin
