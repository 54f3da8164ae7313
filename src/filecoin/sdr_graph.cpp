// The SDR graph and its parent cache (sdr_graph.hpp).
#include "cuzk/filecoin/sdr_graph.hpp"

#include <openssl/evp.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "cuzk/filecoin/chacha.hpp"
#include "le_bytes.hpp"

namespace cuzk::filecoin {

using detail::put_u64_le;

static_assert(std::endian::native == std::endian::little, "the parent cache is hashed as little-endian u32 words");

namespace {

constexpr std::string_view kDrSampleTag = "Filecoin_DRSample";  // crypto/mod.rs DRSAMPLE_DST
constexpr std::string_view kFeistelTag = "Filecoin_Feistel";    // crypto/mod.rs FEISTEL_DST

struct Sha256 {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
  Sha256() {
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
      throw std::runtime_error("SHA-256 init failed");
  }
  void update(const void* data, std::size_t len) {
    if (EVP_DigestUpdate(ctx.get(), data, len) != 1) throw std::runtime_error("SHA-256 update failed");
  }
  Bytes32 finish() {
    Bytes32 out;
    unsigned len = 0;
    if (EVP_DigestFinal_ex(ctx.get(), out.data(), &len) != 1 || len != 32)
      throw std::runtime_error("SHA-256 final failed");
    return out;
  }
};

}  // namespace

Bytes32 derive_porep_domain_seed(std::string_view tag, const PoRepId& porep_id) {
  Sha256 h;
  h.update(tag.data(), tag.size());
  h.update(porep_id.data(), porep_id.size());
  return h.finish();
}

std::array<std::uint8_t, 28> derive_drg_seed(const PoRepId& porep_id) {
  const Bytes32 raw = derive_porep_domain_seed(kDrSampleTag, porep_id);
  std::array<std::uint8_t, 28> seed;
  std::copy_n(raw.begin(), 28, seed.begin());
  return seed;
}

std::array<std::uint64_t, 4> derive_feistel_keys(const PoRepId& porep_id) {
  const Bytes32 raw = derive_porep_domain_seed(kFeistelTag, porep_id);
  std::array<std::uint64_t, 4> keys{};
  for (int k = 0; k < 4; ++k)
    for (int i = 7; i >= 0; --i) keys[k] = (keys[k] << 8) | raw[8 * k + i];
  return keys;
}

SdrGraph::SdrGraph(std::uint64_t nodes, const PoRepId& porep_id, ApiVersion api_version)
    : nodes_(nodes),
      api_version_(api_version),
      drg_seed_(derive_drg_seed(porep_id)),
      feistel_keys_(derive_feistel_keys(porep_id)),
      feistel_(feistel_precompute(nodes * kExpDegree)) {
  // graph.rs new: nodes fit a u32 (which also keeps 5 * nodes far below drgraph.rs's 2^54 bound).
  if (nodes == 0 || nodes > 0xffffffffu) throw std::invalid_argument("SdrGraph: nodes must be 1..2^32-1");
}

SdrGraph::SdrGraph(const SealProofInfo& info) : SdrGraph(info.nodes, porep_id(info.id), info.api_version) {}

void SdrGraph::drg_parents(std::uint32_t node, std::span<std::uint32_t, kDrgDegree> out) const {
  if (node >= nodes_) throw std::out_of_range("SdrGraph: node out of range");
  if (node < 2) {  // node 0 refers to itself, node 1 to node 0
    std::fill(out.begin(), out.end(), 0u);
    return;
  }
  std::array<std::uint8_t, 32> seed;
  std::copy(drg_seed_.begin(), drg_seed_.end(), seed.begin());
  for (int i = 0; i < 4; ++i) seed[28 + i] = static_cast<std::uint8_t>(node >> (8 * i));
  ChaChaRng rng = ChaChaRng::chacha8(seed);

  constexpr std::uint64_t m_prime = kDrgDegree - 1;
  const std::uint64_t metagraph_node = std::uint64_t{node} * m_prime;
  // As the Rust computes it: f64 log2, rounded up (exact for these magnitudes).
  const auto n_buckets = static_cast<std::uint64_t>(std::ceil(std::log2(static_cast<double>(metagraph_node))));

  const bool legacy = api_version_ == ApiVersion::V1_0_0;
  const std::size_t first_sampled = legacy ? 0 : 1;
  for (std::size_t k = 0; k < m_prime; ++k) {
    const std::uint64_t bucket_index = rng.next_u64() % n_buckets + 1;
    const std::uint64_t largest = std::min(metagraph_node, std::uint64_t{1} << bucket_index);
    const std::uint64_t smallest = std::max<std::uint64_t>(2, largest >> 1);
    const std::uint64_t n_distances = largest - smallest + 1;
    const std::uint64_t distance = smallest + rng.next_u64() % n_distances;
    const auto mapped = static_cast<std::uint32_t>((metagraph_node - distance) / m_prime);
    out[first_sampled + k] = mapped == node ? node - 1 : mapped;
  }
  out[legacy ? m_prime : 0] = node - 1;  // the immediate predecessor
}

std::uint32_t SdrGraph::expander_parent(std::uint32_t node, std::uint32_t i) const {
  const std::uint64_t a = std::uint64_t{node} * kExpDegree + i;
  const std::uint64_t t = feistel_permute(nodes_ * kExpDegree, a, feistel_keys_, feistel_);
  if (api_version_ == ApiVersion::V1_0_0)
    return static_cast<std::uint32_t>(t) / std::uint32_t{kExpDegree};  // truncated first
  return static_cast<std::uint32_t>(t / kExpDegree);  // < nodes, so it fits (the Rust's try_from never fails)
}

void SdrGraph::expander_parents(std::uint32_t node, std::span<std::uint32_t, kExpDegree> out) const {
  if (node >= nodes_) throw std::out_of_range("SdrGraph: node out of range");
  for (std::uint32_t i = 0; i < kExpDegree; ++i) out[i] = expander_parent(node, i);
}

void SdrGraph::parents(std::uint32_t node, std::span<std::uint32_t, kSdrDegree> out) const {
  drg_parents(node, out.first<kDrgDegree>());
  expander_parents(node, out.last<kExpDegree>());
}

std::array<std::uint32_t, kSdrDegree> SdrGraph::parents(std::uint32_t node) const {
  std::array<std::uint32_t, kSdrDegree> out;
  parents(node, out);
  return out;
}

void SdrGraph::parent_cache_range(std::uint64_t first, std::uint64_t count, std::span<std::uint32_t> out) const {
  if (first > nodes_ || count > nodes_ - first) throw std::out_of_range("SdrGraph: cache range past the last node");
  if (out.size() < count * kSdrDegree) throw std::invalid_argument("SdrGraph: output smaller than count * 14 words");
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, count, 512), [&](const tbb::blocked_range<std::uint64_t>& r) {
    for (std::uint64_t k = r.begin(); k != r.end(); ++k)
      parents(static_cast<std::uint32_t>(first + k), out.subspan(k * kSdrDegree).first<kSdrDegree>());
  });
}

std::vector<std::uint32_t> SdrGraph::parent_cache() const {
  std::vector<std::uint32_t> out(nodes_ * kSdrDegree);
  parent_cache_range(0, nodes_, out);
  return out;
}

void SdrGraph::for_each_cache_chunk(
    std::uint64_t chunk_nodes, const std::function<void(std::uint64_t, std::span<const std::uint32_t>)>& fn) const {
  if (chunk_nodes == 0) throw std::invalid_argument("SdrGraph: chunk of 0 nodes");
  chunk_nodes = std::min(chunk_nodes, nodes_);
  std::vector<std::uint32_t> buf(chunk_nodes * kSdrDegree);
  for (std::uint64_t first = 0; first < nodes_; first += chunk_nodes) {
    const std::uint64_t count = std::min(chunk_nodes, nodes_ - first);
    parent_cache_range(first, count, buf);
    fn(first, std::span<const std::uint32_t>(buf.data(), count * kSdrDegree));
  }
}

Bytes32 SdrGraph::parent_cache_digest() const {
  Sha256 h;
  for_each_cache_chunk(std::uint64_t{1} << 16, [&](std::uint64_t, std::span<const std::uint32_t> entries) {
    h.update(entries.data(), entries.size_bytes());
  });
  return h.finish();
}

std::string SdrGraph::identifier(std::string_view hasher_name) const {
  // graph.rs StackedGraph::new and drgraph.rs BucketGraph's ParameterSetMetadata::identifier.
  return "stacked_graph::StackedGraph{expansion_degree: " + std::to_string(kExpDegree) +
         " base_graph: drgraph::BucketGraph{size: " + std::to_string(nodes_) +
         "; degree: " + std::to_string(kDrgDegree) + "; hasher: " + std::string(hasher_name) + "} }";
}

std::string SdrGraph::parent_cache_id(std::string_view hasher_name) const {
  Sha256 h;
  h.update(hasher_name.data(), hasher_name.size());
  const std::string id = identifier(hasher_name);
  h.update(id.data(), id.size());
  for (std::uint64_t key : feistel_keys_) {
    std::uint8_t b[8];
    put_u64_le(b, key);
    h.update(b, 8);
  }
  const auto entries = static_cast<std::uint32_t>(nodes_);
  const std::uint8_t e[4] = {static_cast<std::uint8_t>(entries), static_cast<std::uint8_t>(entries >> 8),
                             static_cast<std::uint8_t>(entries >> 16), static_cast<std::uint8_t>(entries >> 24)};
  h.update(e, 4);
  const Bytes32 d = h.finish();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "v";  // (built piecewise: GCC 12 warns falsely on "literal" + std::string&&)
  out += std::to_string(kParentCacheVersion);
  out += "-sdr-parent-";
  for (std::uint8_t b : d) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

}  // namespace cuzk::filecoin
