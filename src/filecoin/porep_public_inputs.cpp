// StackedDRG public inputs (porep_public_inputs.hpp).
#include "cuzk/filecoin/porep_public_inputs.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/porep_challenges.hpp"

namespace cuzk::filecoin {

std::vector<Fr> porep_public_inputs(const Fr& replica_id, const Fr& comm_d, const Fr& comm_r,
                                    std::span<const std::uint64_t> challenges, const SdrGraph& graph) {
  std::vector<Fr> in{replica_id, comm_d, comm_r};
  in.reserve(3 + challenges.size() * (4 + kSdrDegree));
  for (std::uint64_t c : challenges) {
    if (c >= graph.nodes())
      throw std::out_of_range("porep_public_inputs: challenge " + std::to_string(c) + " of a graph of " +
                              std::to_string(graph.nodes()) + " nodes");  // PoR: "Challenge out of range"
    const Fr index = Fr::from_u64(c);
    in.push_back(index);  // TreeD
    for (std::uint32_t parent : graph.parents(static_cast<std::uint32_t>(c))) in.push_back(Fr::from_u64(parent));
    in.push_back(index);  // the challenge
    in.push_back(index);  // TreeR
    in.push_back(index);  // TreeC
  }
  return in;
}

std::vector<Fr> porep_public_inputs(RegisteredSealProof proof, const Fr& replica_id, const Fr& comm_d, const Fr& comm_r,
                                    const Bytes32& seed, std::size_t k, const SdrGraph* graph) {
  const SealProofInfo& info = seal_proof_info(proof);
  const std::vector<std::uint64_t> challenges =
      porep_challenges(info, replica_id.to_bytes_le(), seed, comm_r.to_bytes_le(), k);
  std::optional<SdrGraph> own;
  if (!graph) graph = &own.emplace(info);
  return porep_public_inputs(replica_id, comm_d, comm_r, challenges, *graph);
}

}  // namespace cuzk::filecoin
