// Parameter file names (method in parameter_names.hpp). The identifier formats, verbatim from
// the Rust format strings:
//   FallbackPoSt (storage-proofs-post fallback/vanilla.rs):
//     FallbackPoSt::PublicParams{sector_size: S, challenge_count: C, sector_count: N}
//   StackedDrg (storage-proofs-porep stacked/vanilla/params.rs, graph.rs, core drgraph.rs):
//     layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8
//     base_graph: drgraph::BucketGraph{size: NODES; degree: 6; hasher: poseidon_hasher} },
//     challenges: LayerChallenges { layers: L, max_count: K }, tree: <tree display> }
//     (one line; K = challenges per partition, ceil(minimum challenges / partitions): 2 for the
//     small sizes, ceil(176 / 10) = 18 for 32/64 GiB; NI-PoRep's ceil(26 / 13), ceil(2253 / 126)
//     give the same, so every seal proof of a size shares its files)
//   EmptySectorUpdate (storage-proofs-update vanilla.rs):
//     empty_sector_update::PublicParams{ sector_nodes: NODES }
#include "cuzk/filecoin/parameter_names.hpp"

#include <openssl/sha.h>

namespace cuzk::filecoin {

namespace {

std::string sha256_hex(const std::string& s) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::uint8_t d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const std::uint8_t*>(s.data()), s.size(), d);
  std::string out;
  for (std::uint8_t b : d) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

// parameters.rs select_challenges: ceil(minimum challenges / partitions);
// constants.rs get_porep_(non_)interactive_minimum_challenges.
std::size_t porep_challenges_per_partition(const SealProofInfo& info) {
  const bool big = info.sector_size >= kSectorSize32GiB;
  const std::size_t minimum = info.feature == SealFeature::NonInteractivePoRep ? (big ? 2253 : 26) : (big ? 176 : 2);
  return (minimum + info.porep_partitions - 1) / info.porep_partitions;
}

// parameter_cache.rs: v<VERSION>-<id>.<ext>.
std::string file_name(std::string_view id, std::string_view ext) {
  std::string s = "v";
  s += std::to_string(kParameterVersion);
  s += '-';
  s += id;
  s += '.';
  s += ext;
  return s;
}

constexpr unsigned kDrgBaseDegree = 6;    // storage-proofs-core drgraph.rs BASE_DEGREE
constexpr unsigned kExpansionDegree = 8;  // storage-proofs-porep stacked graph.rs EXP_DEGREE

}  // namespace

std::string tree_display(const TreeShape& tree) {
  return "merkletree-poseidon_hasher-" + std::to_string(tree.base_arity) + "-" + std::to_string(tree.sub_arity) + "-" +
         std::to_string(tree.top_arity);
}

std::string post_parameter_set_identifier(const PoStProofInfo& info) {
  return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(info.sector_size) +
         ", challenge_count: " + std::to_string(info.circuit_challenge_count) +
         ", sector_count: " + std::to_string(info.circuit_sector_count) + "}";
}

std::string porep_parameter_set_identifier(const SealProofInfo& info) {
  return "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: " +
         std::to_string(kExpansionDegree) + " base_graph: drgraph::BucketGraph{size: " + std::to_string(info.nodes) +
         "; degree: " + std::to_string(kDrgBaseDegree) +
         "; hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: " + std::to_string(info.layers) +
         ", max_count: " + std::to_string(porep_challenges_per_partition(info)) +
         " }, tree: " + tree_display(info.tree) + " }";
}

std::string update_parameter_set_identifier(std::uint64_t sector_size) {
  return "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(sector_size / kNodeSize) + " }";
}

std::string post_cache_identifier(const PoStProofInfo& info) {
  return "proof-of-spacetime-fallback-" + tree_display(info.tree) + "-" +
         sha256_hex(post_parameter_set_identifier(info));
}

std::string porep_cache_identifier(const SealProofInfo& info) {
  return "stacked-proof-of-replication-" + tree_display(info.tree) + "-sha256_hasher-" +
         sha256_hex(porep_parameter_set_identifier(info));
}

std::string update_cache_identifier(std::uint64_t sector_size, bool poseidon_variant) {
  return std::string(poseidon_variant ? "empty-sector-update-poseidon-" : "empty-sector-update-") +
         tree_display(tree_shape_for_sector_size(sector_size)) + "-" +
         sha256_hex(update_parameter_set_identifier(sector_size));
}

std::string params_file_name(std::string_view id) { return file_name(id, "params"); }
std::string vk_file_name(std::string_view id) { return file_name(id, "vk"); }
std::string meta_file_name(std::string_view id) { return file_name(id, "meta"); }

std::filesystem::path parameter_cache_dir(const std::optional<std::string>& env_value) {
  return env_value ? std::filesystem::path(*env_value) : std::filesystem::path(kDefaultParameterCacheDir);
}

std::filesystem::path parameter_cache_dir(const char* env_value) {
  return parameter_cache_dir(env_value ? std::optional<std::string>(env_value) : std::nullopt);
}

}  // namespace cuzk::filecoin
