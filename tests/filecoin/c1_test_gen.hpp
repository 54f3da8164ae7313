// Test C1 outputs: a whole small sector sealed natively (data, TreeD, every SDR label of the real
// graph, TreeC, TreeR), then its C1 for the derived challenges, laid out as
// StackedDrg::prove_layers lays it out. Written from the Rust (not from the library's checker):
// labels hash replica_id ‖ layer u32 BE ‖ node u64 BE ‖ zeros to 64 bytes ‖ the parents' labels
// (layer 1: the 6 DRG parents of this layer, repeated to 37; later layers: the 6 DRG parents of
// this layer and the 8 expander parents of the layer below, repeated to 37), trimmed to 254 bits;
// node 0 hashes no parents (create_label.rs); the replica is data + last layer's label.
#pragma once

#include <openssl/sha.h>

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/porep_id.hpp"
#include "cuzk/filecoin/poseidon_constants.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "filecoin/merkle_native.hpp"

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
  Fr encode_offset = Fr::zero();  // added to every replica node: breaks the encoding only
  std::uint64_t rng_seed = 1;
};

struct C1Gen {
  SealCommitPhase1 c1;
  std::vector<std::vector<std::uint64_t>> challenges;
};

inline Fr gen_label(const Fr& replica_id, std::uint32_t layer, std::uint64_t node, const std::vector<Fr>& parents) {
  std::vector<std::uint8_t> msg(64, 0);
  const auto rid = replica_id.to_bytes_le();
  std::copy(rid.begin(), rid.end(), msg.begin());
  for (int b = 0; b < 4; ++b) msg[32 + b] = static_cast<std::uint8_t>(layer >> (24 - 8 * b));
  for (int b = 0; b < 8; ++b) msg[36 + b] = static_cast<std::uint8_t>(node >> (56 - 8 * b));
  for (const Fr& p : parents) {
    const auto pb = p.to_bytes_le();
    msg.insert(msg.end(), pb.begin(), pb.end());
  }
  Bytes32 d;
  SHA256(msg.data(), msg.size(), d.data());
  d[31] &= 0x3f;
  return Fr::from_bytes_le(d);
}

inline MerkleProofKind gen_kind(const TreeShape& t) {
  return t.top_arity ? MerkleProofKind::Top : t.sub_arity ? MerkleProofKind::Sub : MerkleProofKind::Single;
}

inline C1Gen generate_c1(const C1GenParams& prm) {
  const SealProofInfo& info = seal_proof_info(prm.proof);
  const PorepC1Shape shape = prm.shape.value_or(c1_shape(prm.proof));
  const std::uint64_t n = shape.nodes;
  const std::size_t layers = shape.layers;
  std::mt19937_64 rng(prm.rng_seed);

  std::vector<Fr> data(n);
  for (auto& d : data) d = Fr::random(rng);
  const NativeTree tree_d(TreeShape{2, 0, 0}.level_arities(n), data, sha256_node);
  const Fr comm_d = tree_d.root();
  const Fr rid =
      Fr::from_bytes_le(replica_id(prm.prover_id, prm.sector, prm.ticket, comm_d.to_bytes_le(), porep_id(prm.proof)));

  const SdrGraph graph(n, prm.graph_porep_id.value_or(porep_id(prm.proof)), prm.graph_api.value_or(info.api_version));
  std::vector<std::vector<Fr>> labels(layers + 1, std::vector<Fr>(n));  // labels[layer][node], layer 1..
  auto parent_labels = [&](std::size_t layer, std::uint64_t v) {
    const auto ps = graph.parents(static_cast<std::uint32_t>(v));
    std::vector<Fr> base;
    for (std::size_t i = 0; i < kDrgDegree; ++i) base.push_back(labels[layer][ps[i]]);
    if (layer > 1)
      for (std::size_t i = 0; i < kExpDegree; ++i) base.push_back(labels[layer - 1][ps[kDrgDegree + i]]);
    std::vector<Fr> full;
    while (full.size() < kSdrLabelParents) full.push_back(base[full.size() % base.size()]);
    return full;
  };
  for (std::size_t l = 1; l <= layers; ++l)
    for (std::uint64_t v = 0; v < n; ++v)
      labels[l][v] = gen_label(rid, static_cast<std::uint32_t>(l), v, v == 0 ? std::vector<Fr>{} : parent_labels(l, v));

  auto column_rows = [&](std::uint64_t v) {
    std::vector<Fr> rows;
    for (std::size_t l = 1; l <= layers; ++l) rows.push_back(labels[l][v]);
    return rows;
  };
  std::vector<Fr> c_leaves(n), r_leaves(n);
  for (std::uint64_t v = 0; v < n; ++v) {
    c_leaves[v] = poseidon_hash(poseidon_constants(layers), column_rows(v));
    r_leaves[v] = data[v] + labels[layers][v] + prm.encode_offset;
  }
  const auto arities = shape.tree.level_arities(n);
  const NativeTree tree_c(arities, c_leaves, poseidon_node), tree_r(arities, r_leaves, poseidon_node);

  C1Gen g;
  SealCommitPhase1& c1 = g.c1;
  c1.registered_proof = prm.proof;
  c1.comm_d = comm_d;
  c1.comm_r = poseidon_hash2(tree_c.root(), tree_r.root());
  c1.replica_id = rid;
  c1.seed = prm.seed;
  c1.ticket = prm.ticket;

  auto opening = [&](const NativeTree& t, std::uint64_t v) {
    InclusionProof p;
    p.kind = gen_kind(shape.tree);
    p.root = t.root();
    p.leaf = t.leaf(v);
    p.path = t.path(v);
    return p;
  };
  auto column = [&](std::uint64_t v) {
    ColumnOpening c;
    c.index = static_cast<std::uint32_t>(v);
    c.rows = column_rows(v);
    c.tree_c = opening(tree_c, v);
    return c;
  };
  // The per-partition challenges of a registered proof, or interactive ones for a test shape.
  const bool registered = shape == c1_shape(prm.proof);
  for (std::size_t k = 0; k < shape.partitions; ++k) {
    g.challenges.push_back(
        registered ? porep_challenges(info, rid.to_bytes_le(), prm.seed, c1.comm_r.to_bytes_le(), k)
                   : interactive_porep_challenges(n, rid.to_bytes_le(), prm.seed, shape.challenges_per_partition, k));
    auto& part = c1.partitions.emplace_back();
    for (std::uint64_t c : g.challenges.back()) {
      PorepVanillaProof p;
      p.comm_d_proof.kind = MerkleProofKind::Single;
      p.comm_d_proof.root = comm_d;
      p.comm_d_proof.leaf = data[c];
      p.comm_d_proof.path = tree_d.path(c);
      p.comm_r_last_proof = opening(tree_r, c);
      p.c_x = column(c);
      const auto ps = graph.parents(static_cast<std::uint32_t>(c));
      for (std::size_t i = 0; i < kDrgDegree; ++i) p.drg_parents.push_back(column(ps[i]));
      for (std::size_t i = 0; i < kExpDegree; ++i) p.exp_parents.push_back(column(ps[kDrgDegree + i]));
      for (std::size_t l = 1; l <= layers; ++l)
        p.labeling_proofs.push_back(LabelingProof{parent_labels(l, c), static_cast<std::uint32_t>(l), c, 0});
      p.encoding_proof = p.labeling_proofs.back();
      part.push_back(std::move(p));
    }
  }
  return g;
}

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
