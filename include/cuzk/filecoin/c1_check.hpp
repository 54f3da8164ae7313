// Is a decoded C1 output (c1_output.hpp) a proof the StackedDRG circuit can satisfy, for the
// public values it claims? Checked before any GPU work; the first failure throws DecodeError
// naming the partition, the challenge, its node, the field and the field's byte offset.
//
// The checks, in order:
//   1. comm_d, comm_r and seed are not all zero (filecoin-proofs api/seal.rs
//      seal_commit_phase2_circuit_proofs refuses them);
//   2. if the caller gives prover id and sector number: replica_id is generate_replica_id of them,
//      the ticket, comm_d and the registered proof's porep id (porep_id.hpp);
//   3. comm_r = Poseidon2(comm_c, comm_r_last), comm_c and comm_r_last being the roots of the first
//      challenge's c_x column proof and TreeR proof (StackedDrg::verify_all_partitions); every
//      other challenge of every partition has the same roots, and every column proof's root is
//      comm_c (ReplicaColumnProof::verify);
//   4. per challenge, whose node is labeling_proofs[0].node (what the circuit takes):
//      - the TreeD path (binary SHA-256, digests trimmed to 254 bits) hashes the data leaf to its
//        root, which is comm_d; the TreeR path hashes to comm_r_last; both open the node;
//      - c_x is the node's column; every column's TreeC leaf is its hash (Poseidon of arity =
//        layers: stacked/vanilla/hash.rs hash_single_column), its path hashes to comm_c and opens
//        the column's node (ColumnProof::verify);
//      - the node is the partition's challenge (porep_challenges.hpp: from replica_id and seed,
//        interactive; from replica_id, comm_r and seed, synthetic; from replica_id and comm_r,
//        non-interactive), so the circuit's public inputs will be the verifier's;
//      - the DRG and expander columns are the node's parents in the proof's SDR graph
//        (sdr_graph.hpp: its porep id and api version);
//      - labeling proof l (1-based) is for layer l and the node, its parents are the parent
//        columns' labels as StackedDrg::prove_layers / Proof::from_parts lay them out (layer 1:
//        the 6 DRG parents' layer-1 labels; layer l > 1: the DRG parents' layer-l and the
//        expander parents' layer-(l-1) labels; repeated to 37), and SHA-256(replica_id ‖ l as
//        u32 BE ‖ node as u64 BE ‖ 20 zero bytes ‖ parents), trimmed to 254 bits, is c_x's row l
//        (LabelingProof::verify);
//      - the encoding proof repeats the last layer's labeling proof, and its key plus the data
//        leaf is the TreeR leaf (EncodingProof::verify, encode.rs).
// The vanilla verifier itself checks less (not the TreeD and TreeR path hashes, nor that the
// labeling proofs use the columns' labels); the circuit recomputes all of it, so a C1 that
// passes the vanilla check but fails these gives an unsatisfiable circuit.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/filecoin/c1_output.hpp"

namespace cuzk::filecoin {

struct C1CheckOptions {
  // For check 2: both or neither.
  std::optional<Bytes32> prover_id;
  std::optional<std::uint64_t> sector_number;
  // The challenged nodes of partition k in order, and the 14 parents of a node (DRG first,
  // StackedBucketGraph::parents). Left empty, verify_c1(c1, options) derives them for the
  // registered proof (porep_challenges.hpp porep_challenges, sdr_graph.hpp SdrGraph), and
  // verify_c1(c1, shape, options) does not compare them.
  std::function<std::vector<std::uint64_t>(std::size_t partition)> challenges;
  std::function<void(std::uint64_t node, std::span<std::uint32_t, kSdrDegree> out)> parents;
};

// All checks for the registered proof's shape (the decoders have already enforced it).
void verify_c1(const SealCommitPhase1& c1, const C1CheckOptions& options = {});
// The same for another shape (test trees); challenges and parents only where options has them.
void verify_c1(const SealCommitPhase1& c1, const PorepC1Shape& shape, const C1CheckOptions& options);

// The pieces, for generators and tests.
// LabelingProof::create_label / EncodingProof::create_key.
Fr sdr_label(const Fr& replica_id, std::uint32_t layer, std::uint64_t node, std::span<const Fr> parents);
// hash_single_column: Poseidon over the rows (2 or 11 of them).
Fr sdr_column_hash(std::span<const Fr> rows);
// The binary SHA-256 node hash of TreeD (Sha256Function::hash2: digest byte 31 &= 0x3f).
Fr tree_d_node(const Fr& left, const Fr& right);
// A TreeD path's root: the leaf hashed up with tree_d_node.
Fr tree_d_path_root(const InclusionProof& p);
// The 37 parent labels of `layer` (1-based) that Proof::from_parts takes from the parent columns.
std::vector<Fr> sdr_label_parents(const PorepVanillaProof& p, std::size_t layer);

}  // namespace cuzk::filecoin
