// Test C1 outputs: a whole small sector sealed by the library's sealer (porep_vanilla_gen.hpp:
// data, TreeD, every SDR label of the real graph, TreeC, TreeR), then its C1 for the challenges
// derived here from the public values (porep_challenges.hpp), not taken from the generator.
// The sealer's labels are written from the Rust create_label (independently of c1_check.hpp's
// sdr_label, which checks them).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/porep_vanilla_gen.hpp"

namespace cuzk::filecoin::test {

struct C1GenParams {
  RegisteredSealProof proof = RegisteredSealProof::StackedDrg2KiBV1_1;
  std::optional<PorepC1Shape> shape;  // default: the proof's
  // The graph's porep id and version (default: the proof's).
  std::optional<PoRepId> graph_porep_id;
  std::optional<ApiVersion> graph_api;
  Bytes32 prover_id{};
  std::uint64_t sector = 0;
  Bytes32 ticket{}, seed{};
  Fr encode_offset = Fr::zero();  // added to every replica node (TreeR rebuilt): breaks the encoding only
  std::uint64_t rng_seed = 1;     // the data
};

struct C1Gen {
  SealCommitPhase1 c1;
  std::vector<std::vector<std::uint64_t>> challenges;
};

inline PorepGenParams porep_params(const C1GenParams& prm) {
  PorepGenParams p;
  p.proof = prm.proof;
  p.prover_id = prm.prover_id;
  p.sector = prm.sector;
  p.ticket = prm.ticket;
  p.seed = prm.seed;
  p.data_seed = prm.rng_seed;
  p.shape = prm.shape;
  p.graph_porep_id = prm.graph_porep_id;
  p.graph_api = prm.graph_api;
  return p;
}

inline C1Gen generate_c1(const C1GenParams& prm) {
  SealedSector s = seal_sector(porep_params(prm));
  if (prm.encode_offset != Fr::zero()) {
    std::vector<Fr> replica(s.shape.nodes);
    for (std::uint64_t v = 0; v < s.shape.nodes; ++v) replica[v] = s.tree_r.leaf(v) + prm.encode_offset;
    s.tree_r = MerkleTree::dense(MerkleHash::Poseidon, s.shape.tree, std::move(replica));
  }
  C1Gen g;
  g.c1 = sealed_sector_c1(s, prm.seed);
  // The per-partition challenges of a registered proof, or interactive ones for a test shape.
  const SealProofInfo& info = seal_proof_info(prm.proof);
  const bool registered = s.shape == c1_shape(prm.proof);
  const Bytes32 rid = g.c1.replica_id.to_bytes_le();
  for (std::size_t k = 0; k < s.shape.partitions; ++k)
    g.challenges.push_back(registered ? porep_challenges(info, rid, prm.seed, g.c1.comm_r.to_bytes_le(), k)
                                      : interactive_porep_challenges(s.shape.nodes, rid, prm.seed,
                                                                     s.shape.challenges_per_partition, k));
  return g;
}

inline MerkleProofKind gen_kind(const TreeShape& t) { return merkle_proof_kind(t); }

// A C1 of the right shape filled with random field elements (not a valid proof): for the decoders'
// speed and the round trips of the big shapes.
inline SealCommitPhase1 random_c1(RegisteredSealProof proof, std::uint64_t seed) {
  const PorepC1Shape s = c1_shape(proof);
  std::mt19937_64 rng(seed);
  auto path = [&](const TreeShape& t) {
    InclusionProof p;
    p.kind = gen_kind(t);
    p.root = Fr::random(rng);
    p.leaf = Fr::random(rng);
    for (unsigned a : t.level_arities(s.nodes)) {
      PathLevel lv{{}, static_cast<std::uint32_t>(rng() % a)};
      for (unsigned j = 0; j + 1 < a; ++j) lv.siblings.push_back(Fr::random(rng));
      p.path.push_back(std::move(lv));
    }
    return p;
  };
  auto column = [&] {
    ColumnOpening c;
    c.index = static_cast<std::uint32_t>(rng() % s.nodes);
    for (std::size_t l = 0; l < s.layers; ++l) c.rows.push_back(Fr::random(rng));
    c.tree_c = path(s.tree);
    return c;
  };
  auto label = [&](std::uint32_t layer) {
    LabelingProof l;
    for (std::size_t j = 0; j < kSdrLabelParents; ++j) l.parents.push_back(Fr::random(rng));
    l.layer_index = layer;
    l.node = rng() % s.nodes;
    return l;
  };
  SealCommitPhase1 c1;
  c1.registered_proof = proof;
  c1.comm_r = Fr::random(rng);
  c1.comm_d = Fr::random(rng);
  c1.replica_id = Fr::random(rng);
  for (auto& b : c1.seed) b = static_cast<std::uint8_t>(rng());
  for (auto& b : c1.ticket) b = static_cast<std::uint8_t>(rng());
  c1.partitions.resize(s.partitions);
  for (auto& part : c1.partitions)
    for (std::size_t i = 0; i < s.challenges_per_partition; ++i) {
      PorepVanillaProof p;
      p.comm_d_proof = path(TreeShape{2, 0, 0});
      p.comm_r_last_proof = path(s.tree);
      p.c_x = column();
      for (std::size_t j = 0; j < kDrgDegree; ++j) p.drg_parents.push_back(column());
      for (std::size_t j = 0; j < kExpDegree; ++j) p.exp_parents.push_back(column());
      for (std::size_t l = 1; l <= s.layers; ++l) p.labeling_proofs.push_back(label(static_cast<std::uint32_t>(l)));
      p.encoding_proof = label(static_cast<std::uint32_t>(s.layers));
      part.push_back(std::move(p));
    }
  return c1;
}

}  // namespace cuzk::filecoin::test
