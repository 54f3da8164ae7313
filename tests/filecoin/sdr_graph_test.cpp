// The SDR graph against the official parent cache digests (rust-fil-proofs
// storage-proofs-porep/parent_cache.json, in data/): the graph's name (cache.rs cache_path) must
// be the manifest's key for each V1 and V1_1 seal proof, and the SHA-256 of the generated cache
// must be the manifest's digest (2 KiB and 8 MiB here; 512 MiB with CUZK_SDR_512MIB=1). Then
// the properties the Rust tests assert (drgraph.rs graph_bucket, graph.rs pathology, high parent
// bits and histogram tests, cache.rs reads) and the porep ids of registry.rs test_porep_id.
#include "cuzk/filecoin/sdr_graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cuzk/filecoin/porep_id.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {
namespace {

const nlohmann::json& manifest() {
  static const nlohmann::json j = [] {
    std::ifstream in(std::string(CUZK_FILECOIN_DATA) + "/parent_cache.json");
    if (!in) throw std::runtime_error("cannot open parent_cache.json");
    return nlohmann::json::parse(in);
  }();
  return j;
}

std::string hex(const Bytes32& b) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t x : b) {
    s.push_back(kHex[x >> 4]);
    s.push_back(kHex[x & 15]);
  }
  return s;
}

// registry.rs test_porep_id: the id's first byte, then 31 zero bytes (nonce 0).
TEST(PoRepId, RegisteredProofs) {
  for (const SealProofInfo& info : all_seal_proofs()) {
    const PoRepId id = porep_id(info.id);
    PoRepId expected{};
    expected[0] = static_cast<std::uint8_t>(info.id);
    EXPECT_EQ(id, expected) << info.name;
  }
  EXPECT_EQ(porep_id(RegisteredSealProof::StackedDrg64GiBV1_2_Feat_NonInteractivePoRep)[0], 0x13);
  const PoRepId n = make_porep_id(0x0102030405060708ull, 0x1112131415161718ull);
  EXPECT_EQ(n[0], 0x08);
  EXPECT_EQ(n[7], 0x01);
  EXPECT_EQ(n[8], 0x18);
  EXPECT_EQ(n[15], 0x11);
  EXPECT_EQ(n[16], 0);
}

// A size alone names the interactive V1_1 proof (what the generators make); other sizes none.
TEST(PoRepId, InteractiveSealProofOfSize) {
  EXPECT_EQ(interactive_seal_proof_of_size(std::uint64_t{32} << 30), RegisteredSealProof::StackedDrg32GiBV1_1);
  EXPECT_EQ(interactive_seal_proof_of_size(2048), RegisteredSealProof::StackedDrg2KiBV1_1);
  EXPECT_EQ(interactive_seal_proof_of_size(std::uint64_t{64} << 30), RegisteredSealProof::StackedDrg64GiBV1_1);
  EXPECT_FALSE(interactive_seal_proof_of_size(4096));
  EXPECT_FALSE(interactive_seal_proof_of_size(0));
}

// The manifest's 10 entries are exactly the graphs of seal proofs 0..9 (V1 and V1_1 of each
// size), under the name cache.rs gives them, with their sector sizes. The synthetic and
// non-interactive proofs (10..19) have porep ids of their own, so graphs of their own, which the
// manifest does not list.
TEST(SdrGraph, ManifestNamesTheV1AndV11Graphs) {
  std::set<std::string> named;
  for (const SealProofInfo& info : all_seal_proofs()) {
    const std::string id = SdrGraph(info).parent_cache_id();
    const bool listed = manifest().contains(id);
    if (info.feature == SealFeature::None) {
      ASSERT_TRUE(listed) << info.name << " -> " << id;
      EXPECT_EQ(manifest()[id]["sector_size"].get<std::uint64_t>(), info.sector_size) << info.name;
      named.insert(id);
    } else {
      EXPECT_FALSE(listed) << info.name;
    }
  }
  EXPECT_EQ(named.size(), manifest().size());
}

void expect_official_digest(RegisteredSealProof p) {
  const SealProofInfo& info = seal_proof_info(p);
  const SdrGraph g(info);
  const auto t0 = std::chrono::steady_clock::now();
  const Bytes32 d = g.parent_cache_digest();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ parent cache ] %s: %llu nodes in %.3f s\n", std::string(info.name).c_str(),
              static_cast<unsigned long long>(info.nodes), s);
  EXPECT_EQ(hex(d), manifest()[g.parent_cache_id()]["digest"].get<std::string>()) << info.name;
}

TEST(SdrGraph, OfficialDigest2KiB) {
  expect_official_digest(RegisteredSealProof::StackedDrg2KiBV1);
  expect_official_digest(RegisteredSealProof::StackedDrg2KiBV1_1);
}

TEST(SdrGraph, OfficialDigest8MiB) {
  expect_official_digest(RegisteredSealProof::StackedDrg8MiBV1);
  expect_official_digest(RegisteredSealProof::StackedDrg8MiBV1_1);
}

// 2^24 nodes: minutes on two cores. Opt-in.
TEST(SdrGraph, OfficialDigest512MiB) {
  if (!std::getenv("CUZK_SDR_512MIB")) GTEST_SKIP() << "set CUZK_SDR_512MIB=1 to check the 512 MiB caches";
  expect_official_digest(RegisteredSealProof::StackedDrg512MiBV1);
  expect_official_digest(RegisteredSealProof::StackedDrg512MiBV1_1);
}

PoRepId porep_id_byte0(std::uint8_t b) {
  PoRepId id{};
  id[0] = b;
  return id;
}

// drgraph.rs graph_bucket: nodes 0 and 1 have only node 0 as parent; no node is its own
// parent; the predecessor is the last DRG parent in V1_0_0 and the first from V1_1_0 on; the
// same node gives the same parents. Also: every DRG parent precedes its node.
TEST(SdrGraph, DrgParentsProperties) {
  for (auto [id, v] :
       {std::pair{porep_id_byte0(0), ApiVersion::V1_0_0}, std::pair{porep_id_byte0(5), ApiVersion::V1_2_0}}) {
    for (std::uint64_t size : {4, 16, 256, 2048}) {
      const SdrGraph g(size, id, v);
      std::array<std::uint32_t, kDrgDegree> p, q;
      g.drg_parents(0, p);
      EXPECT_EQ(p, (std::array<std::uint32_t, kDrgDegree>{}));
      g.drg_parents(1, p);
      EXPECT_EQ(p, (std::array<std::uint32_t, kDrgDegree>{}));
      for (std::uint32_t i = 1; i < size; ++i) {
        g.drg_parents(i, p);
        g.drg_parents(i, q);
        ASSERT_EQ(p, q);
        for (std::uint32_t x : p) ASSERT_LT(x, i) << "node " << i;
        ASSERT_EQ(v == ApiVersion::V1_0_0 ? p[kDrgDegree - 1] : p[0], i - 1) << "node " << i;
      }
    }
  }
  EXPECT_THROW(SdrGraph(16, porep_id_byte0(5), ApiVersion::V1_1_0)
                   .drg_parents(16, std::span<std::uint32_t, 6>(std::array<std::uint32_t, 6>{}.data(), 6)),
               std::out_of_range);
}

// graph.rs test_graph_distribution_pathology: the legacy (V1_0_0) expander of 32 GiB and 64 GiB
// never reaches the upper half of the layer in the first 1000 nodes; V1_1_0 and V1_2_0 do.
TEST(SdrGraph, LegacyExpanderPathology) {
  const std::uint64_t n32 = std::uint64_t{1} << 30, n64 = std::uint64_t{1} << 31;
  struct Case {
    std::uint8_t id;
    std::uint64_t nodes;
    ApiVersion v;
  };
  for (const Case& c :
       {Case{3, n32, ApiVersion::V1_0_0}, Case{4, n64, ApiVersion::V1_0_0}, Case{8, n32, ApiVersion::V1_1_0},
        Case{9, n64, ApiVersion::V1_1_0}, Case{8, n32, ApiVersion::V1_2_0}, Case{9, n64, ApiVersion::V1_2_0}}) {
    const SdrGraph g(c.nodes, porep_id_byte0(c.id), c.v);
    bool large = false;
    for (std::uint32_t i = 0; i < 1000 && !large; ++i) {
      std::array<std::uint32_t, kExpDegree> p;
      g.expander_parents(i, p);
      large = std::any_of(p.begin(), p.end(), [&](std::uint32_t x) { return x >= c.nodes / 2; });
    }
    EXPECT_EQ(large, c.v != ApiVersion::V1_0_0) << int(c.id);
  }
}

// graph.rs test_high_parent_bits (64 GiB, porep id 5, V1_2_0: one of the first 3 nodes has an
// expander parent >= 2^29) and test_exp_parent_histogram (10000 nodes spread over the layer,
// their parents in 32 bins: each bin within 40% of uniform).
TEST(SdrGraph, ExpanderSpread64GiB) {
  const std::uint64_t n = std::uint64_t{1} << 31;
  const SdrGraph g(n, make_porep_id(5), ApiVersion::V1_2_0);
  bool high = false;
  for (std::uint32_t v = 0; v < 3; ++v) {
    std::array<std::uint32_t, kExpDegree> p;
    g.expander_parents(v, p);
    high = high || std::any_of(p.begin(), p.end(), [](std::uint32_t x) { return x >= (1u << 29); });
  }
  EXPECT_TRUE(high);

  constexpr std::size_t kSamples = 10000, kBins = 32;
  const std::uint64_t per_bin = n / kBins;
  const std::size_t uniform = kSamples * kExpDegree / kBins;
  const auto max_allowed = static_cast<std::size_t>(1.4f * uniform) - 1;
  const auto min_allowed = static_cast<std::size_t>(0.6f * uniform) + 1;
  std::array<std::size_t, kBins> hist{};
  for (std::size_t s = 0; s < kSamples; ++s) {
    std::array<std::uint32_t, kExpDegree> p;
    g.expander_parents(static_cast<std::uint32_t>(s * n / kSamples), p);
    for (std::uint32_t x : p) ++hist[x / per_bin];
  }
  for (std::size_t b = 0; b < kBins; ++b) {
    EXPECT_GE(hist[b], min_allowed) << "bin " << b;
    EXPECT_LE(hist[b], max_allowed) << "bin " << b;
  }
}

// The expander is a permutation of the 8n edge slots collapsed to nodes: from V1_1_0 on (no
// truncation), every node is an expander parent exactly 8 times over the whole graph.
TEST(SdrGraph, ExpanderParentsCoverEachNodeEightTimes) {
  const SdrGraph g(seal_proof_info(RegisteredSealProof::StackedDrg2KiBV1_1));
  std::vector<int> count(g.nodes(), 0);
  for (std::uint32_t v = 0; v < g.nodes(); ++v) {
    std::array<std::uint32_t, kExpDegree> p;
    g.expander_parents(v, p);
    for (std::uint32_t x : p) ++count[x];
  }
  EXPECT_TRUE(std::all_of(count.begin(), count.end(), [](int c) { return c == 8; }));
}

// cache.rs test_read_full_range / test_read_partial_range: the cache (whole, a range, chunked)
// holds each node's on-demand parents.
TEST(SdrGraph, CacheEntriesAreTheParents) {
  for (auto [id, v] : {std::pair{PoRepId{}, ApiVersion::V1_0_0}, std::pair{porep_id_byte0(1), ApiVersion::V1_1_0}}) {
    const SdrGraph g(48, id, v);
    const std::vector<std::uint32_t> cache = g.parent_cache();
    ASSERT_EQ(cache.size(), 48 * kSdrDegree);
    for (std::uint32_t node = 0; node < 48; ++node) {
      const auto p = g.parents(node);
      ASSERT_TRUE(std::equal(p.begin(), p.end(), cache.begin() + node * kSdrDegree)) << node;
    }
    std::vector<std::uint32_t> part(10 * kSdrDegree);
    g.parent_cache_range(30, 10, part);
    EXPECT_TRUE(std::equal(part.begin(), part.end(), cache.begin() + 30 * kSdrDegree));
    std::vector<std::uint32_t> chunked;
    g.for_each_cache_chunk(7, [&](std::uint64_t first, std::span<const std::uint32_t> e) {
      EXPECT_EQ(first * kSdrDegree, chunked.size());
      chunked.insert(chunked.end(), e.begin(), e.end());
    });
    EXPECT_EQ(chunked, cache);
    EXPECT_THROW(g.parent_cache_range(40, 9, part), std::out_of_range);
  }
}

// The 32 GiB graphs on demand: the parents of a few nodes anywhere in the layer, in range, DRG
// parents before their node (the whole cache, 56 GiB, is not generated here).
TEST(SdrGraph, OnDemand32GiB) {
  for (auto p : {RegisteredSealProof::StackedDrg32GiBV1, RegisteredSealProof::StackedDrg32GiBV1_1}) {
    const SdrGraph g(seal_proof_info(p));
    ASSERT_EQ(g.nodes(), std::uint64_t{1} << 30);
    for (std::uint32_t node : {0u, 1u, 2u, 1000u, (1u << 29) + 7, (1u << 30) - 1}) {
      const auto par = g.parents(node);
      for (std::size_t k = 0; k < kSdrDegree; ++k) {
        ASSERT_LT(par[k], g.nodes());
        if (k < kDrgDegree) {
          ASSERT_TRUE(par[k] < node || node < 2);
        }
      }
    }
  }
}

}  // namespace
}  // namespace cuzk::filecoin
