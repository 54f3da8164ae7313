// PoRep C1 outputs (SealCommitPhase1, c1_output.hpp) made here from SYNTHETIC test sectors, for
// tests, the CLI and load generation: never a sealed sector of a real miner, but proofs that
// verify_c1 (c1_check.hpp) accepts and that satisfy the StackedDRG circuit, with the public
// inputs a verifier derives from the C1's replica id, comm_d, comm_r and seed.
//
// Two ways to make one:
//
// 1. Sealed (seal_sector, sealed_sector_c1): a whole sector sealed in memory as rust-fil-proofs
//    seals it. Data: node i is SHA-256("cuzk/porep-gen/data" ‖ u64_le(data_seed) ‖ u64_le(i))
//    with byte 31 &= 0x3f. TreeD over the data (binary SHA-256, digests trimmed to 254 bits);
//    comm_d its root; replica_id = generate_replica_id(prover_id, sector, ticket, comm_d,
//    porep_id) (porep_id.hpp); the labels of every layer over the SDR graph (storage-proofs-porep
//    stacked/vanilla/create_label/single.rs create_label and create_label_exp): label(l, v) =
//    SHA-256(replica_id ‖ u32_be(l) ‖ u64_be(v) ‖ 20 zero bytes ‖ 37 parent labels) with byte 31
//    &= 0x3f, where node 0 hashes no parents and the 37 are graph.rs copy_parents_data's order:
//    layer 1: the 6 DRG parents' layer-1 labels six times, then the first again; layer l > 1: the
//    6 DRG parents' layer-l labels and the 8 expander parents' layer-(l-1) labels (14), twice,
//    then the first 9 of them. A layer is computed node by node (a node's DRG parents are earlier
//    nodes of the same layer, its predecessor among them); the parents of all nodes are computed
//    first, in parallel. TreeC over the column hashes (Poseidon of the node's labels in every
//    layer: hash.rs hash_single_column), TreeR over the replica (data + last layer's label, in
//    Fr: encode.rs), both of TreeR's shape; comm_r = Poseidon2(comm_c, comm_r_last). Then per
//    partition its challenges (porep_challenges.hpp: interactive from the seed, synthetic and
//    non-interactive from comm_r) and each challenge's vanilla proof as StackedDrg::prove_layers
//    and Proof::from_parts lay it out. Any registered proof up to 512 MiB. On 2 cores: 8 MiB in
//    about 6 s (labels 0.7 s of it, sequential per layer); 512 MiB in about 6 minutes and 4.8 GB.
//
// 2. Sparse (sparse_porep_c1): consistent for the challenged nodes only, for any size (32 GiB:
//    10 partitions x 18 challenges in 0.4 s on 2 cores). The data is all zero (a committed-capacity
//    sector: comm_d is the empty sector's, e.g. the well-known 32 GiB CC commD); every node
//    that is not challenged but a parent of one gets a pseudo-random column (rows
//    SHA-256("cuzk/porep-gen/column" ‖ u64_le(data_seed) ‖ u64_le(node) ‖ u32_le(layer)) trimmed);
//    a challenged node's labels are computed from its parents' rows, layer by layer and node by
//    node ascending (so a challenged node that is another's parent is consistent with both);
//    TreeD, TreeC and TreeR are sparse trees (merkle_tree.hpp) holding just those leaves, every
//    other subtree being the root of an all-zero one. Interactive proofs only (V1, V1_1): the
//    synthetic and non-interactive challenges depend on comm_r, which depends on the challenged
//    columns, so only a sealed sector has them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/merkle_tree.hpp"
#include "cuzk/filecoin/porep_id.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {

struct PorepGenParams {
  RegisteredSealProof proof = RegisteredSealProof::StackedDrg2KiBV1_1;
  Bytes32 prover_id{};          // filecoin-ffi's prover id (prover_id_from_actor)
  std::uint64_t sector = 0;     // the sector number
  Bytes32 ticket{};             // the sealing randomness (replica id)
  Bytes32 seed{};               // the interactive challenge seed (every C1 carries one); not all zero
  std::uint64_t data_seed = 1;  // the data (sealed) or the parents' columns (sparse)
  // For tests: another shape than the proof's (test trees; challenges are then interactive, of
  // the shape's count) and another graph than the proof's (porep id, ApiVersion).
  std::optional<PorepC1Shape> shape;
  std::optional<PoRepId> graph_porep_id;
  std::optional<ApiVersion> graph_api;
};

// filecoin-ffi toProverID: the ID address's payload (the actor id as an unsigned LEB128 varint),
// zero-padded to 32 bytes. Actor 1000 (f01000) gives e8 07 00 ...
Bytes32 prover_id_from_actor(std::uint64_t actor_id);

// What `cuzk-bench gen-vanilla porep --seed N` seals: prover f01000, sector 1, ticket and seed
// SHA-256("cuzk/porep-gen/ticket" or "cuzk/porep-gen/seed" ‖ u64_le(seed)), data_seed = seed.
PorepGenParams porep_gen_params(RegisteredSealProof proof, std::uint64_t seed);

// The shape and graph the parameters seal with.
PorepC1Shape porep_gen_shape(const PorepGenParams& p);
SdrGraph porep_gen_graph(const PorepGenParams& p);

// The nodes partition k challenges: porep_challenges (porep_challenges.hpp) for the proof's own
// shape, interactive_porep_challenges of the shape's count for a test shape.
std::vector<std::uint64_t> porep_gen_challenges(const PorepGenParams& p, const Fr& replica_id, const Bytes32& seed,
                                                const Fr& comm_r, std::size_t k);

// create_label.rs: the label of `node` in `layer` (1-based) from its DRG parents' labels in this
// layer (6) and its expander parents' labels in the layer below (8; none in layer 1). Node 0
// hashes no parents (its lists are ignored).
Bytes32 sdr_create_label(const Bytes32& replica_id, std::uint32_t layer, std::uint64_t node,
                         std::span<const Bytes32> drg, std::span<const Bytes32> exp);
// The 37 labels it hashes, in order: what a LabelingProof holds as `parents`.
std::vector<Fr> sdr_hashed_parents(std::span<const Fr> drg, std::span<const Fr> exp);

// A whole sector sealed in memory (method 1).
struct SealedSector {
  struct Timings {  // seconds per stage
    double data = 0, tree_d = 0, parents = 0, labels = 0, tree_c = 0, tree_r = 0;
  };
  PorepGenParams params;  // what it was sealed with (params.seed is not used)
  PorepC1Shape shape;
  SdrGraph graph;
  std::vector<Fr> data;                      // node values
  std::vector<std::vector<Bytes32>> labels;  // labels[l - 1][node], as the layer files hold them
  Fr replica_id;
  MerkleTree tree_d, tree_c, tree_r;
  Timings timings;

  Fr label(std::size_t layer, std::uint64_t node) const { return Fr::from_bytes_le(labels.at(layer - 1).at(node)); }
  std::vector<Fr> column(std::uint64_t node) const;  // its label in layer 1, 2, ...
  Fr comm_d() const { return tree_d.root(); }
  Fr comm_r() const;
};

// Throws std::invalid_argument above 2^24 nodes (512 MiB).
SealedSector seal_sector(const PorepGenParams& p);
// The C1 of a sealed sector for an interactive seed (also carried by synthetic and NI C1s), its
// challenges from porep_gen_challenges. The sector's trees are used as they are: a test may
// replace one (e.g. TreeR over a wrong encoding) to make a C1 the checks refuse.
SealCommitPhase1 sealed_sector_c1(const SealedSector& s, const Bytes32& seed);

// Method 2. Throws std::invalid_argument for a synthetic or non-interactive proof's own shape.
SealCommitPhase1 sparse_porep_c1(const PorepGenParams& p);

enum class PorepGenMode : std::uint8_t {
  Auto,    // sealed up to 8 MiB and for synthetic/NI proofs, sparse above
  Sealed,  // method 1
  Sparse,  // method 2
};
PorepGenMode resolve_porep_gen_mode(const PorepGenParams& p, PorepGenMode mode);
SealCommitPhase1 generate_porep_c1(const PorepGenParams& p, PorepGenMode mode = PorepGenMode::Auto);

}  // namespace cuzk::filecoin
