// Filecoin's registered proofs: the numbered proof kinds a node names in its requests
// (RegisteredPoStProof, RegisteredSealProof) and, per kind, the numbers the circuits and
// the vanilla proofs depend on.
//
// Numbering: the ids are the values of go-state-types abi.RegisteredPoStProof /
// abi.RegisteredSealProof (what Lotus and Curio send), which are also the variant ordinals of
// filecoin-proofs-api's enums (registry.rs). One naming difference: Go's
// StackedDrgWindow*V1_1 (10..14) is filecoin-proofs-api's StackedDrgWindow*V1_2, which runs with
// ApiVersion V1_2_0 (filecoin-ffi rust/src/proofs/types.rs maps one to the other: "WindowPoSt
// uses V1_2 to fix the grindability issue"). Here the variants carry the filecoin-proofs-api
// names; PoStProofInfo::go_name has the Go one. Example: 8 = StackedDrgWindow32GiBV1 in both.
//
// Numbers per PoSt kind (filecoin-proofs constants.rs and filecoin-proofs-api registry.rs
// RegisteredPoStProof::as_v1_config): WinningPoSt: 66 challenges (WINNING_POST_CHALLENGE_COUNT),
// 1 sector (WINNING_POST_SECTOR_COUNT); WindowPoSt: 10 challenges per sector
// (WINDOW_POST_CHALLENGE_COUNT), WINDOW_POST_SECTOR_COUNT sectors per partition (2 for 2 KiB,
// 8 MiB, 512 MiB; 2349 for 32 GiB; 2300 for 64 GiB). The circuit's own parameters (fallback
// PublicParams) differ for WinningPoSt: parameters.rs winning_post_setup_params turns 66
// challenges of 1 sector into 66 "sectors" of 1 challenge each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/filecoin/por.hpp"  // TreeShape

namespace cuzk::filecoin {

// storage-proofs-core api_version.rs. PoSt challenge derivation depends on it
// (storage-proofs-post fallback/utils.rs get_challenge_index).
enum class ApiVersion : std::uint8_t { V1_0_0, V1_1_0, V1_2_0 };
std::string_view to_string(ApiVersion v);

enum class PoStType : std::uint8_t { Winning, Window };

// Ids as go-state-types abi.RegisteredPoStProof numbers them.
enum class RegisteredPoStProof : std::uint8_t {
  StackedDrgWinning2KiBV1 = 0,
  StackedDrgWinning8MiBV1 = 1,
  StackedDrgWinning512MiBV1 = 2,
  StackedDrgWinning32GiBV1 = 3,
  StackedDrgWinning64GiBV1 = 4,
  StackedDrgWindow2KiBV1 = 5,
  StackedDrgWindow8MiBV1 = 6,
  StackedDrgWindow512MiBV1 = 7,
  StackedDrgWindow32GiBV1 = 8,
  StackedDrgWindow64GiBV1 = 9,
  StackedDrgWindow2KiBV1_2 = 10,  // Go: StackedDrgWindow2KiBV1_1
  StackedDrgWindow8MiBV1_2 = 11,
  StackedDrgWindow512MiBV1_2 = 12,
  StackedDrgWindow32GiBV1_2 = 13,
  StackedDrgWindow64GiBV1_2 = 14,
};
inline constexpr std::size_t kNumRegisteredPoStProofs = 15;

// Ids as go-state-types abi.RegisteredSealProof numbers them; they are also the porep_id's
// first 8 bytes (filecoin-proofs-api REGISTERED_PROOF_IDS).
enum class RegisteredSealProof : std::uint8_t {
  StackedDrg2KiBV1 = 0,
  StackedDrg8MiBV1 = 1,
  StackedDrg512MiBV1 = 2,
  StackedDrg32GiBV1 = 3,
  StackedDrg64GiBV1 = 4,
  StackedDrg2KiBV1_1 = 5,
  StackedDrg8MiBV1_1 = 6,
  StackedDrg512MiBV1_1 = 7,
  StackedDrg32GiBV1_1 = 8,
  StackedDrg64GiBV1_1 = 9,
  StackedDrg2KiBV1_1_Feat_SyntheticPoRep = 10,
  StackedDrg8MiBV1_1_Feat_SyntheticPoRep = 11,
  StackedDrg512MiBV1_1_Feat_SyntheticPoRep = 12,
  StackedDrg32GiBV1_1_Feat_SyntheticPoRep = 13,
  StackedDrg64GiBV1_1_Feat_SyntheticPoRep = 14,
  StackedDrg2KiBV1_2_Feat_NonInteractivePoRep = 15,  // Go: ..._Feat_NiPoRep
  StackedDrg8MiBV1_2_Feat_NonInteractivePoRep = 16,
  StackedDrg512MiBV1_2_Feat_NonInteractivePoRep = 17,
  StackedDrg32GiBV1_2_Feat_NonInteractivePoRep = 18,
  StackedDrg64GiBV1_2_Feat_NonInteractivePoRep = 19,
};
inline constexpr std::size_t kNumRegisteredSealProofs = 20;

enum class SealFeature : std::uint8_t { None, SyntheticPoRep, NonInteractivePoRep };

// Sector sizes in bytes (filecoin-proofs constants.rs). The five published ones, then the
// test sizes with_shape also knows.
inline constexpr std::uint64_t kSectorSize2KiB = std::uint64_t{1} << 11;
inline constexpr std::uint64_t kSectorSize8MiB = std::uint64_t{1} << 23;
inline constexpr std::uint64_t kSectorSize512MiB = std::uint64_t{1} << 29;
inline constexpr std::uint64_t kSectorSize32GiB = std::uint64_t{1} << 35;
inline constexpr std::uint64_t kSectorSize64GiB = std::uint64_t{1} << 36;
inline constexpr std::uint64_t kNodeSize = 32;  // storage-proofs-core util.rs NODE_SIZE

// The shape of TreeR (TreeRLast) for a sector size: filecoin-proofs constants.rs SectorShape*
// (base arity 8; Sub2: 4 KiB, 16 MiB, 1 GiB; Sub8: 16 KiB, 32 GiB; Top2: 32 KiB, 64 GiB;
// Base: 2 KiB, 8 MiB, 512 MiB). Throws std::invalid_argument for other sizes.
TreeShape tree_shape_for_sector_size(std::uint64_t sector_size);

struct PoStProofInfo {
  RegisteredPoStProof id;
  std::string_view name;     // filecoin-proofs-api
  std::string_view go_name;  // go-state-types abi
  PoStType type;
  ApiVersion api_version;
  std::uint64_t sector_size;  // bytes
  std::uint64_t nodes;        // sector_size / 32: leaves of TreeR
  TreeShape tree;
  // PoStConfig (what a node's request means): challenges per sector (WinningPoSt: all 66 of
  // its one sector) and sectors per partition (WinningPoSt: the sectors proved, 1).
  std::size_t challenge_count;
  std::size_t sector_count;
  // The circuit's parameters (fallback::PublicParams; parameters.rs *_setup_params): sector
  // slots per partition and challenges per slot. WindowPoSt: as above; WinningPoSt: 66 and 1.
  std::size_t circuit_sector_count;
  std::size_t circuit_challenge_count;
};

struct SealProofInfo {
  RegisteredSealProof id;
  std::string_view name;     // filecoin-proofs-api
  std::string_view go_name;  // go-state-types abi
  ApiVersion api_version;
  SealFeature feature;
  std::uint64_t sector_size;
  std::uint64_t nodes;
  TreeShape tree;
  std::size_t porep_partitions;      // constants.rs POREP_PARTITIONS / get_porep_non_interactive_partitions
  std::size_t layers;                // constants.rs LAYERS
  RegisteredPoStProof winning_post;  // go-state-types SealProofInfos.WinningPoStProof
};

const PoStProofInfo& post_proof_info(RegisteredPoStProof p);
// The name of a PoSt proof's circuit ("winning-post-32gib", "window-post-2kib"): one per type and
// sector size (WindowPoSt V1 and V1_2 share theirs); cuzk's daemon serves circuits by it.
std::string post_circuit_name(const PoStProofInfo& info);
// The name of a seal proof's PoRep circuit ("porep-32gib", "porep-2kib-ni"): one per sector size
// (V1, V1_1 and synthetic PoRep share it), and its own for non-interactive PoRep.
std::string porep_circuit_name(const SealProofInfo& info);
const SealProofInfo& seal_proof_info(RegisteredSealProof p);
std::span<const PoStProofInfo> all_post_proofs();
std::span<const SealProofInfo> all_seal_proofs();
// The interactive PoRep of a sector size as sealed today (V1_1, no feature: "StackedDrg32GiBV1_1"),
// what the generators and benchmarks make when given only a size; nullopt for another size.
std::optional<RegisteredSealProof> interactive_seal_proof_of_size(std::uint64_t sector_size);

// From the numbers on the wire; std::nullopt for an id that is not registered.
std::optional<RegisteredPoStProof> post_proof_from_id(std::int64_t id);
std::optional<RegisteredSealProof> seal_proof_from_id(std::int64_t id);
// The same, throwing DecodeError that names the id.
RegisteredPoStProof post_proof_from_id_or_throw(std::int64_t id);
RegisteredSealProof seal_proof_from_id_or_throw(std::int64_t id);

// The WindowPoSt kind a seal proof's sectors are proved with: V1 before network version 19,
// V1_2 (Go V1_1) from it on (go-state-types RegisteredWindowPoStProofByNetworkVersion).
RegisteredPoStProof window_post_for_seal(RegisteredSealProof p, bool v1_2);

}  // namespace cuzk::filecoin
