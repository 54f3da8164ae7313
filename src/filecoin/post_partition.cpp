// prepare_post_partition (post_partition.hpp).
#include "cuzk/filecoin/post_partition.hpp"

#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/vanilla.hpp"
#include "cuzk/filecoin/vanilla_check.hpp"

namespace cuzk::filecoin {

namespace {

// The values of one sector slot: a run of one vanilla proof's inclusion proofs.
PostSectorValues slot_values(const FallbackPoStSectorProof& p, const PartitionSlot& slot) {
  const SectorProof& sp = p.sector();
  PostSectorValues v;
  v.comm_r = p.comm_r;
  v.comm_c = sp.comm_c;
  v.comm_r_last = sp.comm_r_last;
  for (std::size_t n = slot.first_inclusion; n < slot.first_inclusion + slot.inclusion_count; ++n) {
    v.leafs.push_back(sp.inclusion_proofs.at(n).leaf);
    v.paths.push_back(sp.inclusion_proofs.at(n).path);
  }
  return v;
}

}  // namespace

PostPartition prepare_post_partition(const PostPartitionInputs& in) {
  const PoStProofInfo& info = post_proof_info(in.proof);
  require_safe_commitment(in.randomness, "randomness");
  if (info.type == PoStType::Winning && in.partition_index != 0)
    throw DecodeError(std::string(info.name) + ": WinningPoSt has one partition; partition_index must be 0, not " +
                      std::to_string(in.partition_index));
  std::vector<FallbackPoStSectorProof> proofs = decode_partition_vanilla_proofs(in.vanilla_proofs, in.proof);
  if (in.sector_ids) {
    if (in.sector_ids->size() != proofs.size())
      throw DecodeError(std::to_string(in.sector_ids->size()) + " sector ids for " + std::to_string(proofs.size()) +
                        " vanilla proofs");
    for (std::size_t i = 0; i < proofs.size(); ++i)
      if ((*in.sector_ids)[i] != proofs[i].sector_id)
        throw DecodeError("sector " + std::to_string(i) + " is " + std::to_string((*in.sector_ids)[i]) +
                          " but its vanilla proof is of sector " + std::to_string(proofs[i].sector_id));
  }
  verify_partition_vanilla_proofs(info, proofs, in.randomness, in.partition_index);

  std::vector<PublicSector> sectors;
  for (const auto& p : proofs) sectors.push_back(PublicSector{p.sector_id, p.comm_r});
  std::vector<Fr> inputs =
      info.type == PoStType::Window
          ? partition_public_inputs(fallback_post_params(info), in.randomness, sectors, in.partition_index)
          : post_public_inputs(info, in.randomness, sectors, 0);
  std::vector<PostSectorValues> slots;
  for (const PartitionSlot& s : partition_slots(info, proofs.size())) slots.push_back(slot_values(proofs[s.proof], s));
  return PostPartition{&info, std::move(sectors), std::move(inputs), FallbackPostCircuit(post_shape(info), std::move(slots))};
}

}  // namespace cuzk::filecoin
