// The SDR graph of Filecoin's PoRep: per node, 6 DRG parents (bucket sampling,
// storage-proofs-core drgraph.rs BucketGraph) then 8 expander parents (a Feistel permutation,
// storage-proofs-porep stacked/vanilla/graph.rs StackedGraph), and the parent cache that lists
// them for every node (stacked/vanilla/cache.rs).
//
// Seeds (storage-proofs-core crypto/mod.rs derive_porep_domain_seed): SHA-256(tag ‖ porep_id)
// with tag "Filecoin_DRSample" (the DRG seed is its first 28 bytes) or "Filecoin_Feistel" (the
// four Feistel keys are its four u64 little-endian words).
//
// DRG parents of node v (BucketGraph::parents; m = 6, m' = 5):
//   v = 0, 1: all six are 0.
//   else: a ChaCha8Rng seeded with drg_seed ‖ u32_le(v) (chacha.hpp); the metagraph node
//   w = 5v; buckets = ceil(log2(w)); five times: bucket = next_u64 % buckets + 1,
//   hi = min(w, 2^bucket), lo = max(2, hi / 2), distance = lo + next_u64 % (hi - lo + 1),
//   parent = (w - distance) / 5, replaced by v - 1 if it is v itself. The immediate predecessor
//   v - 1 is the sixth parent: last for ApiVersion 1.0.0 (the five sampled ones are 0..4), first
//   for 1.1.0 and 1.2.0 (the sampled ones are 1..5). Nothing is sorted.
// Expander parents of node v (StackedGraph::correspondent, i = 0..7):
//   t = feistel_permute(8n, 8v + i, keys) (feistel.hpp); parent = t / 8, except ApiVersion 1.0.0,
//   which truncates t to u32 before dividing (the legacy graphs' "pathology": for 32 GiB and
//   64 GiB, whose 8n exceeds 2^32, parents never fall in the upper part of the layer).
// Parent cache (cache.rs ParentCache::generate): node by node its 14 parents as u32
// little-endian (56 bytes per node); its SHA-256 is the digest in parent_cache.json, under the
// name cache_path gives it: "v28-sdr-parent-" + hex SHA-256(hasher name ‖ graph identifier ‖
// the four Feistel keys as u64 LE ‖ u32_le(nodes)), the hasher being TreeR's (Poseidon for every
// registered seal proof).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/feistel.hpp"
#include "cuzk/filecoin/fr.hpp"  // Bytes32
#include "cuzk/filecoin/porep_id.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

inline constexpr std::size_t kDrgDegree = 6;                        // drgraph.rs BASE_DEGREE
inline constexpr std::size_t kExpDegree = 8;                        // graph.rs EXP_DEGREE
inline constexpr std::size_t kSdrDegree = kDrgDegree + kExpDegree;  // graph.rs DEGREE
inline constexpr int kParentCacheVersion = 28;                      // parameter_cache.rs VERSION

// crypto/mod.rs derive_porep_domain_seed and its two uses.
Bytes32 derive_porep_domain_seed(std::string_view tag, const PoRepId& porep_id);
std::array<std::uint8_t, 28> derive_drg_seed(const PoRepId& porep_id);      // drgraph.rs
std::array<std::uint64_t, 4> derive_feistel_keys(const PoRepId& porep_id);  // graph.rs

class SdrGraph {
 public:
  // Throws std::invalid_argument unless 1 <= nodes <= 2^32 - 1.
  SdrGraph(std::uint64_t nodes, const PoRepId& porep_id, ApiVersion api_version);
  // The graph a registered seal proof seals with: its nodes, porep_id(info.id), its ApiVersion.
  explicit SdrGraph(const SealProofInfo& info);

  std::uint64_t nodes() const { return nodes_; }
  ApiVersion api_version() const { return api_version_; }
  const std::array<std::uint8_t, 28>& drg_seed() const { return drg_seed_; }
  const std::array<std::uint64_t, 4>& feistel_keys() const { return feistel_keys_; }

  // One node's parents, computed on demand (no cache). node < nodes(), else std::out_of_range.
  void drg_parents(std::uint32_t node, std::span<std::uint32_t, kDrgDegree> out) const;
  void expander_parents(std::uint32_t node, std::span<std::uint32_t, kExpDegree> out) const;
  // Its parent cache entry: the DRG parents, then the expander parents.
  void parents(std::uint32_t node, std::span<std::uint32_t, kSdrDegree> out) const;
  std::array<std::uint32_t, kSdrDegree> parents(std::uint32_t node) const;

  // The cache entries of nodes [first, first + count) into out (count * 14 words), in parallel.
  void parent_cache_range(std::uint64_t first, std::uint64_t count, std::span<std::uint32_t> out) const;
  // The whole cache in memory (nodes * 56 bytes: 56 GiB for 32 GiB sectors).
  std::vector<std::uint32_t> parent_cache() const;
  // Visits the cache in order, chunk_nodes entries at a time (the last chunk may be shorter),
  // each chunk generated in parallel; `fn(first_node, entries)`. Memory: one chunk.
  void for_each_cache_chunk(std::uint64_t chunk_nodes,
                            const std::function<void(std::uint64_t, std::span<const std::uint32_t>)>& fn) const;
  // SHA-256 of the cache's bytes (cache.rs), streamed chunk by chunk.
  Bytes32 parent_cache_digest() const;
  // cache.rs cache_path's file stem, e.g. "v28-sdr-parent-3f0eef38...", the key of
  // parent_cache.json. `hasher_name` is Hasher::name() of TreeR's hasher.
  std::string parent_cache_id(std::string_view hasher_name = "poseidon_hasher") const;
  // ParameterSetMetadata::identifier of the StackedGraph.
  std::string identifier(std::string_view hasher_name = "poseidon_hasher") const;

 private:
  std::uint32_t expander_parent(std::uint32_t node, std::uint32_t i) const;

  std::uint64_t nodes_;
  ApiVersion api_version_;
  std::array<std::uint8_t, 28> drg_seed_;
  std::array<std::uint64_t, 4> feistel_keys_;
  FeistelPrecomputed feistel_;
};

}  // namespace cuzk::filecoin
