// FallbackPoSt public inputs and partition layout (method in post_public_inputs.hpp).
#include "cuzk/filecoin/post_public_inputs.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/post_challenges.hpp"

namespace cuzk::filecoin {

FallbackPoStParams fallback_post_params(const PoStProofInfo& info) {
  return FallbackPoStParams{info.sector_size, info.circuit_challenge_count, info.circuit_sector_count,
                            info.api_version};
}

std::vector<Fr> partition_public_inputs(const FallbackPoStParams& params, const Bytes32& randomness,
                                        std::span<const PublicSector> partition_sectors, std::size_t partition_index) {
  require_safe_commitment(randomness, "randomness");
  if (partition_sectors.empty()) throw std::invalid_argument("partition_public_inputs: no sectors");
  if (partition_sectors.size() > params.sector_count)
    throw std::invalid_argument("partition_public_inputs: " + std::to_string(partition_sectors.size()) +
                                " sectors for a partition of " + std::to_string(params.sector_count));
  const std::size_t per_sector = 1 + params.challenge_count;
  std::vector<Fr> inputs;
  inputs.reserve(per_sector * params.sector_count);
  for (std::size_t i = 0; i < partition_sectors.size(); ++i) {
    const PublicSector& s = partition_sectors[i];
    inputs.push_back(s.comm_r);
    const std::size_t sector_index = partition_index * params.sector_count + i;
    for (std::size_t n = 0; n < params.challenge_count; ++n) {
      const std::uint64_t idx = challenge_index(params.api_version, sector_index, params.challenge_count, n);
      inputs.push_back(Fr::from_u64(leaf_challenge(randomness, s.id, idx, params.nodes())));
    }
  }
  // Too few sectors: repeat the last sector's inputs (compound.rs "duplicate last one").
  while (inputs.size() < per_sector * params.sector_count) {
    const std::size_t from = inputs.size() - per_sector;
    for (std::size_t j = 0; j < per_sector; ++j) inputs.push_back(inputs[from + j]);
  }
  return inputs;
}

std::vector<Fr> generate_public_inputs(const FallbackPoStParams& params, const Bytes32& randomness,
                                       std::span<const PublicSector> sectors, std::size_t partition_index) {
  if (params.sector_count == 0) throw std::invalid_argument("generate_public_inputs: sector_count is 0");
  const std::size_t first = partition_index * params.sector_count;
  if (first >= sectors.size())
    throw std::invalid_argument("generate_public_inputs: invalid number of sectors/partition index (" +
                                std::to_string(sectors.size()) + " sectors, partition " +
                                std::to_string(partition_index) + ")");
  const std::size_t n = std::min(params.sector_count, sectors.size() - first);
  return partition_public_inputs(params, randomness, sectors.subspan(first, n), partition_index);
}

std::vector<Fr> post_public_inputs(const PoStProofInfo& info, const Bytes32& randomness,
                                   std::span<const PublicSector> sectors, std::size_t partition_index) {
  const FallbackPoStParams params = fallback_post_params(info);
  if (info.type == PoStType::Window) return generate_public_inputs(params, randomness, sectors, partition_index);
  if (sectors.size() != info.sector_count)
    throw std::invalid_argument("post_public_inputs: WinningPoSt proves " + std::to_string(info.sector_count) +
                                " sector, not " + std::to_string(sectors.size()));
  if (partition_index != 0) throw std::invalid_argument("post_public_inputs: WinningPoSt has one partition");
  // verify_winning_post: for each of param_sector_count slots, every replica.
  std::vector<PublicSector> repeated;
  repeated.reserve(params.sector_count * sectors.size());
  for (std::size_t k = 0; k < params.sector_count / sectors.size(); ++k)
    repeated.insert(repeated.end(), sectors.begin(), sectors.end());
  return generate_public_inputs(params, randomness, repeated, 0);
}

std::vector<PartitionSlot> partition_slots(const PoStProofInfo& info, std::size_t num_proofs) {
  if (num_proofs == 0) throw std::invalid_argument("partition_slots: no vanilla proofs");
  std::vector<PartitionSlot> slots;
  slots.reserve(info.circuit_sector_count);
  if (info.type == PoStType::Winning) {
    if (num_proofs != info.sector_count)
      throw std::invalid_argument("partition_slots: WinningPoSt takes " + std::to_string(info.sector_count) +
                                  " vanilla proof, not " + std::to_string(num_proofs));
    for (std::size_t n = 0; n < info.challenge_count; ++n) slots.push_back({0, n, 1});
  } else {
    if (num_proofs > info.sector_count)
      throw std::invalid_argument("partition_slots: " + std::to_string(num_proofs) +
                                  " vanilla proofs for a partition of " + std::to_string(info.sector_count));
    for (std::size_t i = 0; i < num_proofs; ++i) slots.push_back({i, 0, info.challenge_count});
  }
  while (slots.size() < info.circuit_sector_count) slots.push_back(slots.back());
  return slots;
}

}  // namespace cuzk::filecoin
