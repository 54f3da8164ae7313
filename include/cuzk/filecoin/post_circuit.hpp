// The FallbackPoSt circuit (WinningPoSt and WindowPoSt), as storage-proofs-post
// fallback/circuit.rs synthesizes it: sector slots in order; per slot comm_r_last, comm_c,
// comm_r allocated, comm_r made public, comm_r = Poseidon2(comm_c, comm_r_last), then one
// PoRCircuit per challenge (private root = comm_r_last, the leaf index public).
//
// The recorded system depends only on the shape (tree, sector nodes, challenges per sector,
// sectors per partition): a blank circuit of that shape records the same R1CS as any witness.
// Slots share no wire, so the witness may be computed slot by slot in parallel
// (gadgets::circuits::parallel_witness; FallbackPostCircuit models ChallengeCircuit with one
// "challenge" per sector slot) and concatenated: the same assignment (tested).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/hashers.hpp"
#include "cuzk/filecoin/por.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

// What a circuit of one partition looks like.
struct PostShape {
  TreeShape tree;
  std::uint64_t sector_nodes = 0;   // leaves of TreeR (sector size / 32)
  std::size_t challenges = 0;       // per sector
  std::size_t sectors = 0;          // per partition
  bool operator==(const PostShape&) const = default;
};

// The circuit shape of a registered PoSt proof (its fallback::PublicParams).
inline PostShape post_shape(const PoStProofInfo& info) {
  return PostShape{info.tree, info.nodes, info.circuit_challenge_count, info.circuit_sector_count};
}

// The values of one sector slot.
struct PostSectorValues {
  Fr comm_r, comm_c, comm_r_last;
  std::vector<Fr> leafs;                      // one per challenge
  std::vector<std::vector<PathLevel>> paths;  // one per challenge, leaf upward
};

// A slot of the right shape with zero values (the blank circuit's, for recording).
PostSectorValues blank_post_sector(const PostShape& shape);

class FallbackPostCircuit {
 public:
  // `sectors` holds shape.sectors slots (the caller repeats the last real sector to fill a
  // partition, as filecoin-proofs does); each with shape.challenges leafs and paths of the tree.
  FallbackPostCircuit(PostShape shape, std::vector<PostSectorValues> sectors);
  // The blank circuit of a shape (zero values): records the partition's R1CS.
  static FallbackPostCircuit blank(const PostShape& shape);

  const PostShape& shape() const { return shape_; }
  const std::vector<PostSectorValues>& sectors() const { return sectors_; }
  std::size_t num_challenges() const { return shape_.sectors; }  // slots, for parallel_witness

  template <class CS>
  void synthesize_challenge(CS& cs, std::size_t slot) const {
    cs::Namespace ns(cs, [slot] { return "sector_" + std::to_string(slot); });
    synthesize_sector(cs, sectors_.at(slot));
  }
  template <class CS>
  void synthesize(CS& cs) const {
    cs::Namespace ns(cs, "outer namespace");
    for (std::size_t i = 0; i < sectors_.size(); ++i) synthesize_challenge(cs, i);
  }

 private:
  template <class CS>
  void synthesize_sector(CS& cs, const PostSectorValues& s) const {
    AllocatedNum comm_r_last, comm_c, comm_r;
    {
      cs::Namespace ns(cs, "comm_r_last");
      comm_r_last = AllocatedNum::alloc(cs, "num", [&] { return s.comm_r_last; });
    }
    {
      cs::Namespace ns(cs, "comm_c");
      comm_c = AllocatedNum::alloc(cs, "num", [&] { return s.comm_c; });
    }
    {
      cs::Namespace ns(cs, "comm_r");
      comm_r = AllocatedNum::alloc(cs, "num", [&] { return s.comm_r; });
    }
    {
      cs::Namespace ns(cs, "comm_r_input");
      comm_r.inputize(cs);
    }
    AllocatedNum h;
    {
      cs::Namespace ns(cs, "H_comm_c_comm_r_last");
      h = PoseidonHasher::hash2(cs, comm_c, comm_r_last);
    }
    enforce_equal(cs, "enforce_comm_c_comm_r_last_hash_comm_r", comm_r, h);
    for (std::size_t i = 0; i < shape_.challenges; ++i) {
      cs::Namespace ns(cs, [i] { return "challenge_inclusion_" + std::to_string(i); });
      por_circuit<PoseidonHasher>(cs, shape_.tree, shape_.sector_nodes, s.leafs[i], s.paths[i], &comm_r_last,
                                  Fr::zero(), /*private_root=*/true);
    }
  }

  PostShape shape_;
  std::vector<PostSectorValues> sectors_;
};

inline PostSectorValues blank_post_sector(const PostShape& shape) {
  PostSectorValues s{Fr::zero(), Fr::zero(), Fr::zero(), {}, {}};
  s.leafs.assign(shape.challenges, Fr::zero());
  std::vector<PathLevel> path;
  for (unsigned arity : shape.tree.level_arities(shape.sector_nodes))
    path.push_back(PathLevel{std::vector<Fr>(arity - 1, Fr::zero()), 0});
  s.paths.assign(shape.challenges, path);
  return s;
}

inline FallbackPostCircuit::FallbackPostCircuit(PostShape shape, std::vector<PostSectorValues> sectors)
    : shape_(shape), sectors_(std::move(sectors)) {
  if (sectors_.size() != shape_.sectors)
    throw std::invalid_argument("FallbackPoSt: " + std::to_string(sectors_.size()) + " sector slots for a partition of " +
                                std::to_string(shape_.sectors));
  const auto arities = shape_.tree.level_arities(shape_.sector_nodes);
  for (std::size_t k = 0; k < sectors_.size(); ++k) {
    const auto& s = sectors_[k];
    if (s.leafs.size() != shape_.challenges || s.paths.size() != shape_.challenges)
      throw std::invalid_argument("FallbackPoSt: sector slot " + std::to_string(k) + " has " +
                                  std::to_string(s.paths.size()) + " paths; expected " + std::to_string(shape_.challenges));
    for (const auto& p : s.paths) por_detail::check_path(shape_.tree, shape_.sector_nodes, p);
  }
}

inline FallbackPostCircuit FallbackPostCircuit::blank(const PostShape& shape) {
  return FallbackPostCircuit(shape, std::vector<PostSectorValues>(shape.sectors, blank_post_sector(shape)));
}

}  // namespace cuzk::filecoin
