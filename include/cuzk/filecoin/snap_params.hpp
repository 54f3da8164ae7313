// SnapDeals (the empty-sector update, storage-proofs-update): its registered proofs, the numbers
// its partition circuit is made of (constants.rs, vanilla.rs PublicParams) and the partition's
// public inputs (circuit.rs PublicInputs, compound.rs generate_public_inputs).
//
// Per sector size, in nodes of 32 bytes (constants.rs):
//   partitions   1 up to 8 KiB, 2 up to 32 KiB, 4 up to 16 MiB, 16 above
//   challenges   10 per partition up to 16 MiB, 86 above
//   apex leaves  8 per partition up to 8 KiB, 128 above
//   hs           the six values of h the circuit accepts: all 1 up to 32 KiB, 7..12 above; the
//                production h (h_default, filecoin-proofs SectorUpdateConfig) is hs[3]: 1 or 10
//   TreeR        base arity 8, with the sub/top arities of validate_tree_r_shape
// A partition's public inputs: k_and_h_select = k | h_select << log2(partitions), where
// h_select = 2^(index of h in hs), then comm_r_old, comm_d_new, comm_r_new.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/por.hpp"  // TreeShape

namespace cuzk::filecoin {

// filecoin-proofs-api registry.rs RegisteredUpdateProof; the ids are go-state-types
// abi.RegisteredUpdateProof's (and the enum's ordinals).
enum class RegisteredUpdateProof : std::uint8_t {
  StackedDrg2KiBV1 = 0,
  StackedDrg8MiBV1 = 1,
  StackedDrg512MiBV1 = 2,
  StackedDrg32GiBV1 = 3,
  StackedDrg64GiBV1 = 4,
};
inline constexpr std::size_t kNumRegisteredUpdateProofs = 5;

struct UpdateProofInfo {
  RegisteredUpdateProof id;
  std::string_view name;  // filecoin-proofs-api
  std::uint64_t sector_size;
  std::uint64_t nodes;
};
const UpdateProofInfo& update_proof_info(RegisteredUpdateProof p);
std::optional<RegisteredUpdateProof> update_proof_from_id(std::int64_t id);
RegisteredUpdateProof update_proof_from_id_or_throw(std::int64_t id);  // DecodeError naming the id
std::span<const UpdateProofInfo> all_update_proofs();
// The update proof of a sector size (one per size); nullopt for another size.
std::optional<RegisteredUpdateProof> update_proof_of_size(std::uint64_t sector_size);
// The name of a registered update proof's partition circuit, one per sector size: "snap-2kib",
// "snap-8mib", "snap-512mib", "snap-32gib", "snap-64gib" (cuzk's daemon serves circuits by it).
std::string snap_circuit_name(const UpdateProofInfo& info);

inline constexpr std::size_t kSnapHsCount = 6;
using SnapHs = std::array<unsigned, kSnapHsCount>;

// constants.rs, for the allowed sector sizes (1 KiB .. 64 GiB as listed in ALLOWED_SECTOR_SIZES);
// each throws std::invalid_argument for another node count.
bool snap_sector_nodes_allowed(std::uint64_t sector_nodes);
std::size_t snap_partition_count(std::uint64_t sector_nodes);
std::size_t snap_challenge_count(std::uint64_t sector_nodes);
std::size_t snap_apex_leaf_count(std::uint64_t sector_nodes);
SnapHs snap_hs(std::uint64_t sector_nodes);
unsigned snap_h_default(std::uint64_t sector_nodes);
// 2^(index of h in hs); throws std::invalid_argument for an h the sector size does not allow.
std::uint64_t snap_h_select(std::uint64_t sector_nodes, unsigned h);
TreeShape snap_tree_r_shape(std::uint64_t sector_nodes);

// vanilla.rs PublicParams, with the TreeR shape and the hs the circuit is generic over.
struct SnapParams {
  std::uint64_t sector_nodes = 0;
  std::size_t challenge_count = 0;    // per partition
  std::size_t challenge_bit_len = 0;  // log2(sector_nodes): TreeD's height
  std::size_t partition_count = 0;
  std::size_t partition_bit_len = 0;
  std::size_t apex_leaf_count = 0;  // per partition
  std::size_t apex_leaf_bit_len = 0;
  TreeShape tree_r;
  SnapHs hs{};
  bool operator==(const SnapParams&) const = default;

  // The random bits of a challenge (its partition bits are k's) and how many challenges one
  // Poseidon digest gives (Fr::CAPACITY / random bits), as challenges.rs and gen_challenge_bits.
  std::size_t random_bits_per_challenge() const { return challenge_bit_len - partition_bit_len; }
  std::size_t challenges_per_digest() const { return kFrCapacity / random_bits_per_challenge(); }
  std::size_t digests_per_partition() const {
    return (challenge_count + challenges_per_digest() - 1) / challenges_per_digest();
  }
  // TreeD's row of the apex leaves (0 = the data leaves): the TreeD path below the apex tree.
  std::size_t apex_leafs_height() const { return challenge_bit_len - partition_bit_len - apex_leaf_bit_len; }
};

// PublicParams::from_sector_size (in nodes); throws std::invalid_argument for a size that is not allowed.
SnapParams snap_params(std::uint64_t sector_nodes);
SnapParams snap_params(RegisteredUpdateProof p);
// Throws std::invalid_argument when the numbers do not make a circuit (powers of two, bit lengths
// that add up, a TreeR shape of that many leaves). snap_params' results pass; tests may build others.
void validate_snap_params(const SnapParams& p);

// circuit.rs PublicInputs::new: k | h_select << partition_bit_len. Throws std::invalid_argument for
// k >= partitions or an h not in hs.
std::uint64_t snap_k_and_h_select(const SnapParams& p, std::size_t k, unsigned h);

// compound.rs generate_public_inputs for partition k: k_and_h_select, comm_r_old, comm_d_new,
// comm_r_new (the verifier's order; ONE not included).
std::vector<Fr> snap_public_inputs(const SnapParams& p, std::size_t k, unsigned h, const Fr& comm_r_old,
                                   const Fr& comm_d_new, const Fr& comm_r_new);

}  // namespace cuzk::filecoin
