// A decoded C1 partition as the StackedDRG circuit's values (porep_circuit.hpp), the way
// storage-proofs-porep stacked/circuit/params.rs Proof::from and proof.rs
// StackedCompound::circuit take them from the vanilla proofs: the challenge is
// labeling_proofs[0].node, the data leaf is the TreeD proof's leaf, the paths are the TreeD,
// TreeR and c_x TreeC paths, the parent columns keep their rows and TreeC paths; comm_c and
// comm_r_last are the roots of the partition's first proof (what the circuit allocates). The
// labeling and encoding proofs are not circuit inputs: the circuit recomputes them.
// Check the C1 first (c1_check.hpp verify_c1): this conversion checks nothing but the shape.
#pragma once

#include <stdexcept>
#include <vector>

#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_circuit.hpp"

namespace cuzk::filecoin {

inline PorepShape porep_shape_of(const PorepC1Shape& s) {
  return PorepShape{s.tree, s.nodes, s.layers, s.challenges_per_partition};
}

inline StackedCircuit c1_partition_circuit(const SealCommitPhase1& c1, const PorepC1Shape& shape, std::size_t k) {
  validate_c1_shape(c1, shape);
  if (k >= c1.partitions.size()) throw std::out_of_range("c1_partition_circuit: no partition " + std::to_string(k));
  const auto& proofs = c1.partitions[k];
  auto column = [](const ColumnOpening& c) { return PorepColumn{c.rows, c.tree_c.path}; };
  std::vector<PorepChallengeValues> ch;
  ch.reserve(proofs.size());
  for (const PorepVanillaProof& p : proofs) {
    PorepChallengeValues v;
    v.challenge = p.challenge();
    v.data_leaf = p.comm_d_proof.leaf;
    v.comm_d_path = p.comm_d_proof.path;
    v.comm_r_last_path = p.comm_r_last_proof.path;
    v.comm_c_path = p.c_x.tree_c.path;
    for (const ColumnOpening& c : p.drg_parents) v.drg_parents.push_back(column(c));
    for (const ColumnOpening& c : p.exp_parents) v.exp_parents.push_back(column(c));
    ch.push_back(std::move(v));
  }
  const PorepHeaderValues h{c1.replica_id, c1.comm_d, c1.comm_r, proofs.front().comm_r_last_proof.root,
                            proofs.front().c_x.tree_c.root};
  return StackedCircuit(porep_shape_of(shape), h, std::move(ch));
}

// Partition k of a C1 of its registered proof's shape.
inline StackedCircuit c1_partition_circuit(const SealCommitPhase1& c1, std::size_t k) {
  return c1_partition_circuit(c1, c1_shape(c1.registered_proof), k);
}

}  // namespace cuzk::filecoin
