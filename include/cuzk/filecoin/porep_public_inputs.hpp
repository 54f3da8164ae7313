// The public inputs of a StackedDRG (PoRep) partition circuit, as a verifier derives them from
// the chain's data alone: storage-proofs-porep stacked/circuit/proof.rs
// StackedCompound::generate_public_inputs. In order:
//   replica_id, comm_d, comm_r; then per challenge of the partition (porep_challenges.hpp):
//     the challenge (TreeD inclusion: PoRCompound::generate_public_inputs with a private root is
//     the leaf index alone), its 6 DRG parents, its 8 expander parents (their TreeC inclusions:
//     the parent's index), the challenge (the UInt64 input), the challenge again (TreeR
//     inclusion) and again (TreeC inclusion of its column);
// 3 + 18 per challenge in all. The parents are the SDR graph's (sdr_graph.hpp: the base graph's
// DRG parents, then the expander parents), the same order the circuit allocates its inputs in
// (porep_circuit.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {

// For given challenges over a given graph (any shape, test trees included).
std::vector<Fr> porep_public_inputs(const Fr& replica_id, const Fr& comm_d, const Fr& comm_r,
                                    std::span<const std::uint64_t> challenges, const SdrGraph& graph);

// Partition k of a registered proof: its challenges from the seed (interactive; synthetic: the
// seed selects among the synthetic challenges of replica_id and comm_r) or from comm_r
// (non-interactive), over the proof's graph. `graph` may be given to avoid rebuilding it (it must
// be SdrGraph(seal_proof_info(proof))).
std::vector<Fr> porep_public_inputs(RegisteredSealProof proof, const Fr& replica_id, const Fr& comm_d, const Fr& comm_r,
                                    const Bytes32& seed, std::size_t k, const SdrGraph* graph = nullptr);

}  // namespace cuzk::filecoin
