// The registered proof tables. Sources: filecoin-proofs-api registry.rs (names, versions,
// sector sizes, PoStConfig), filecoin-proofs constants.rs (counts, shapes, partitions,
// layers), go-state-types abi/sector.go (the Go names and numbers).
#include "cuzk/filecoin/registered_proof.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "cuzk/error.hpp"

namespace cuzk::filecoin {

namespace {

constexpr std::size_t kWinningPostChallengeCount = 66;  // WINNING_POST_CHALLENGE_COUNT
constexpr std::size_t kWinningPostSectorCount = 1;      // WINNING_POST_SECTOR_COUNT
constexpr std::size_t kWindowPostChallengeCount = 10;   // WINDOW_POST_CHALLENGE_COUNT

// WINDOW_POST_SECTOR_COUNT (must match the miner actor's partition sizes).
std::size_t window_post_sector_count(std::uint64_t sector_size) {
  switch (sector_size) {
    case kSectorSize32GiB: return 2349;
    case kSectorSize64GiB: return 2300;
    default: return 2;
  }
}

// POREP_PARTITIONS; NI-PoRep: get_porep_non_interactive_partitions.
std::size_t porep_partitions(std::uint64_t sector_size, SealFeature f) {
  const bool big = sector_size >= kSectorSize32GiB;
  if (f == SealFeature::NonInteractivePoRep) return big ? 126 : 13;
  return big ? 10 : 1;
}

std::size_t layers(std::uint64_t sector_size) { return sector_size >= kSectorSize32GiB ? 11 : 2; }

constexpr std::array<std::uint64_t, 5> kPublishedSizes = {kSectorSize2KiB, kSectorSize8MiB, kSectorSize512MiB,
                                                          kSectorSize32GiB, kSectorSize64GiB};
constexpr std::array<std::string_view, 5> kSizeNames = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};

// Names are stored once, for the lifetime of the program (the tables hand out string_views).
struct NameStore {
  std::array<std::string, kNumRegisteredPoStProofs> post, post_go;
  std::array<std::string, kNumRegisteredSealProofs> seal, seal_go;
};

const NameStore& names() {
  static const NameStore n = [] {
    NameStore s;
    for (std::size_t i = 0; i < 5; ++i) {
      const std::string z(kSizeNames[i]);
      s.post[i] = s.post_go[i] = "StackedDrgWinning" + z + "V1";
      s.post[5 + i] = s.post_go[5 + i] = "StackedDrgWindow" + z + "V1";
      s.post[10 + i] = "StackedDrgWindow" + z + "V1_2";
      s.post_go[10 + i] = "StackedDrgWindow" + z + "V1_1";
      s.seal[i] = s.seal_go[i] = "StackedDrg" + z + "V1";
      s.seal[5 + i] = s.seal_go[5 + i] = "StackedDrg" + z + "V1_1";
      s.seal[10 + i] = s.seal_go[10 + i] = "StackedDrg" + z + "V1_1_Feat_SyntheticPoRep";
      s.seal[15 + i] = "StackedDrg" + z + "V1_2_Feat_NonInteractivePoRep";
      s.seal_go[15 + i] = "StackedDrg" + z + "V1_2_Feat_NiPoRep";
    }
    return s;
  }();
  return n;
}

const std::array<PoStProofInfo, kNumRegisteredPoStProofs>& post_table() {
  static const auto table = [] {
    std::array<PoStProofInfo, kNumRegisteredPoStProofs> t{};
    for (std::size_t id = 0; id < kNumRegisteredPoStProofs; ++id) {
      const std::uint64_t size = kPublishedSizes[id % 5];
      const bool winning = id < 5;
      PoStProofInfo& p = t[id];
      p.id = static_cast<RegisteredPoStProof>(id);
      p.name = names().post[id];
      p.go_name = names().post_go[id];
      p.type = winning ? PoStType::Winning : PoStType::Window;
      p.api_version = id < 10 ? ApiVersion::V1_0_0 : ApiVersion::V1_2_0;
      p.sector_size = size;
      p.nodes = size / kNodeSize;
      p.tree = tree_shape_for_sector_size(size);
      if (winning) {
        p.challenge_count = kWinningPostChallengeCount;
        p.sector_count = kWinningPostSectorCount;
        // winning_post_setup_params: param_sector_count = challenge_count / sector_count,
        // param_challenge_count = challenge_count / param_sector_count.
        p.circuit_sector_count = p.challenge_count / p.sector_count;
        p.circuit_challenge_count = p.challenge_count / p.circuit_sector_count;
      } else {
        p.challenge_count = kWindowPostChallengeCount;
        p.sector_count = window_post_sector_count(size);
        p.circuit_sector_count = p.sector_count;
        p.circuit_challenge_count = p.challenge_count;
      }
    }
    return t;
  }();
  return table;
}

const std::array<SealProofInfo, kNumRegisteredSealProofs>& seal_table() {
  static const auto table = [] {
    std::array<SealProofInfo, kNumRegisteredSealProofs> t{};
    for (std::size_t id = 0; id < kNumRegisteredSealProofs; ++id) {
      const std::uint64_t size = kPublishedSizes[id % 5];
      SealProofInfo& s = t[id];
      s.id = static_cast<RegisteredSealProof>(id);
      s.name = names().seal[id];
      s.go_name = names().seal_go[id];
      // registry.rs RegisteredSealProof::version: the SyntheticPoRep kinds are V1_2_0 despite
      // their "V1_1" names.
      s.api_version = id < 5 ? ApiVersion::V1_0_0 : id < 10 ? ApiVersion::V1_1_0 : ApiVersion::V1_2_0;
      s.feature = id < 10   ? SealFeature::None
                  : id < 15 ? SealFeature::SyntheticPoRep
                            : SealFeature::NonInteractivePoRep;
      s.sector_size = size;
      s.nodes = size / kNodeSize;
      s.tree = tree_shape_for_sector_size(size);
      s.porep_partitions = porep_partitions(size, s.feature);
      s.layers = layers(size);
      s.winning_post = static_cast<RegisteredPoStProof>(id % 5);
    }
    return t;
  }();
  return table;
}

// A sector size as circuit names spell it: "2kib", "8mib", "32gib".
std::string size_name(std::uint64_t b) {
  return b >= (std::uint64_t{1} << 30)   ? std::to_string(b >> 30) + "gib"
         : b >= (std::uint64_t{1} << 20) ? std::to_string(b >> 20) + "mib"
                                         : std::to_string(b >> 10) + "kib";
}

}  // namespace

std::string_view to_string(ApiVersion v) {
  switch (v) {
    case ApiVersion::V1_0_0: return "1.0.0";
    case ApiVersion::V1_1_0: return "1.1.0";
    case ApiVersion::V1_2_0: return "1.2.0";
  }
  return "?";
}

TreeShape tree_shape_for_sector_size(std::uint64_t sector_size) {
  constexpr std::uint64_t k4KiB = std::uint64_t{1} << 12, k16KiB = std::uint64_t{1} << 14,
                          k32KiB = std::uint64_t{1} << 15, k16MiB = std::uint64_t{1} << 24,
                          k1GiB = std::uint64_t{1} << 30;
  switch (sector_size) {
    case kSectorSize2KiB:
    case kSectorSize8MiB:
    case kSectorSize512MiB: return TreeShape{8, 0, 0};
    case k4KiB:
    case k16MiB:
    case k1GiB: return TreeShape{8, 2, 0};
    case k16KiB:
    case kSectorSize32GiB: return TreeShape{8, 8, 0};
    case k32KiB:
    case kSectorSize64GiB: return TreeShape{8, 8, 2};
    default: throw std::invalid_argument("unsupported sector size " + std::to_string(sector_size));
  }
}

std::string post_circuit_name(const PoStProofInfo& info) {
  return std::string(info.type == PoStType::Winning ? "winning-post-" : "window-post-") + size_name(info.sector_size);
}

std::string porep_circuit_name(const SealProofInfo& info) {
  return "porep-" + size_name(info.sector_size) + (info.feature == SealFeature::NonInteractivePoRep ? "-ni" : "");
}

const PoStProofInfo& post_proof_info(RegisteredPoStProof p) { return post_table().at(static_cast<std::size_t>(p)); }
const SealProofInfo& seal_proof_info(RegisteredSealProof p) { return seal_table().at(static_cast<std::size_t>(p)); }
std::span<const PoStProofInfo> all_post_proofs() { return post_table(); }
std::span<const SealProofInfo> all_seal_proofs() { return seal_table(); }

std::optional<RegisteredPoStProof> post_proof_from_id(std::int64_t id) {
  if (id < 0 || id >= static_cast<std::int64_t>(kNumRegisteredPoStProofs)) return std::nullopt;
  return static_cast<RegisteredPoStProof>(id);
}

std::optional<RegisteredSealProof> interactive_seal_proof_of_size(std::uint64_t sector_size) {
  for (const SealProofInfo& info : all_seal_proofs())
    if (info.sector_size == sector_size && info.api_version == ApiVersion::V1_1_0 && info.feature == SealFeature::None)
      return info.id;
  return std::nullopt;
}

std::optional<RegisteredSealProof> seal_proof_from_id(std::int64_t id) {
  if (id < 0 || id >= static_cast<std::int64_t>(kNumRegisteredSealProofs)) return std::nullopt;
  return static_cast<RegisteredSealProof>(id);
}

RegisteredPoStProof post_proof_from_id_or_throw(std::int64_t id) {
  if (auto p = post_proof_from_id(id)) return *p;
  throw DecodeError("unknown registered PoSt proof " + std::to_string(id) + " (registered: 0..14)");
}

RegisteredSealProof seal_proof_from_id_or_throw(std::int64_t id) {
  if (auto p = seal_proof_from_id(id)) return *p;
  throw DecodeError("unknown registered seal proof " + std::to_string(id) + " (registered: 0..19)");
}

RegisteredPoStProof window_post_for_seal(RegisteredSealProof p, bool v1_2) {
  const std::size_t size_index = static_cast<std::size_t>(p) % 5;
  return static_cast<RegisteredPoStProof>((v1_2 ? 10 : 5) + size_index);
}

}  // namespace cuzk::filecoin
