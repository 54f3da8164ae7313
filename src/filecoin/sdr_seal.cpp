// A whole small sector sealed in memory (porep_vanilla_gen.hpp, method 1), and its C1.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <array>
#include <chrono>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/porep_vanilla_gen.hpp"
#include "cuzk/filecoin/poseidon_constants.hpp"
#include "porep_gen_detail.hpp"

namespace cuzk::filecoin {

namespace {

constexpr std::uint64_t kMaxSealedNodes = std::uint64_t{1} << 24;  // 512 MiB

class Stopwatch {
 public:
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - t_).count();
    t_ = now;
    return s;
  }

 private:
  std::chrono::steady_clock::time_point t_ = std::chrono::steady_clock::now();
};

template <class F>
void parallel_nodes(std::uint64_t n, F&& f) {
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, 1024), [&](const tbb::blocked_range<std::uint64_t>& r) {
    for (std::uint64_t v = r.begin(); v != r.end(); ++v) f(v);
  });
}

}  // namespace

std::vector<Fr> SealedSector::column(std::uint64_t node) const {
  std::vector<Fr> rows;
  rows.reserve(labels.size());
  for (const auto& layer : labels) rows.push_back(Fr::from_bytes_le(layer.at(node)));
  return rows;
}

Fr SealedSector::comm_r() const { return poseidon_hash2(tree_c.root(), tree_r.root()); }

SealedSector seal_sector(const PorepGenParams& p) {
  const SealProofInfo& info = seal_proof_info(p.proof);
  const PorepC1Shape shape = porep_gen_shape(p);
  const std::uint64_t n = shape.nodes;
  if (n > kMaxSealedNodes) {
    std::string why = "seal_sector: " + std::to_string(n) +
                      " nodes; sectors are sealed in memory up to 2^24 nodes "
                      "(512 MiB)";
    if (info.feature != SealFeature::None)
      why += "; and " + std::string(info.name) +
             "'s challenges depend on comm_r, so the sparse generator cannot make its C1 either";
    else
      why += "; the sparse generator makes C1s of any size";
    throw std::invalid_argument(why);
  }
  if (n < 2) throw std::invalid_argument("seal_sector: a sector of fewer than 2 nodes");
  if (shape.layers < 1 || shape.layers > 16) throw std::invalid_argument("seal_sector: 1 to 16 layers");
  const std::size_t layers = shape.layers;
  Stopwatch clock;
  SealedSector::Timings t;

  std::vector<Fr> data(n);
  parallel_nodes(
      n, [&](std::uint64_t v) { data[v] = porep_gen_detail::seeded_fr("cuzk/porep-gen/data", p.data_seed, v); });
  t.data = clock.lap();

  MerkleTree tree_d = MerkleTree::dense(MerkleHash::Sha256, TreeShape{2, 0, 0}, data);
  const Bytes32 rid = replica_id(p.prover_id, p.sector, p.ticket, tree_d.root().to_bytes_le(), porep_id(p.proof));
  t.tree_d = clock.lap();

  SdrGraph graph = porep_gen_graph(p);
  std::vector<std::uint32_t> cache = graph.parent_cache();  // node v's 14 parents at 14 v
  t.parents = clock.lap();

  // create_labels_for_encoding: layer by layer, node by node.
  std::vector<std::vector<Bytes32>> labels(layers, std::vector<Bytes32>(n));
  std::array<Bytes32, kDrgDegree> drg;
  std::array<Bytes32, kExpDegree> exp;
  for (std::size_t l = 1; l <= layers; ++l) {
    std::vector<Bytes32>& cur = labels[l - 1];
    const std::vector<Bytes32>* below = l > 1 ? &labels[l - 2] : nullptr;
    const auto layer = static_cast<std::uint32_t>(l);
    cur[0] = sdr_create_label(rid, layer, 0, {}, {});
    for (std::uint64_t v = 1; v < n; ++v) {
      const std::uint32_t* ps = cache.data() + v * kSdrDegree;
      for (std::size_t j = 0; j < kDrgDegree; ++j) drg[j] = cur[ps[j]];
      if (below)
        for (std::size_t j = 0; j < kExpDegree; ++j) exp[j] = (*below)[ps[kDrgDegree + j]];
      cur[v] = sdr_create_label(rid, layer, v, drg, below ? std::span<const Bytes32>(exp) : std::span<const Bytes32>());
    }
  }
  cache = {};
  t.labels = clock.lap();

  std::vector<Fr> column_hashes(n);
  const PoseidonConstants& column_constants = poseidon_constants(layers);
  parallel_nodes(n, [&](std::uint64_t v) {
    std::array<Fr, 16> rows;
    for (std::size_t l = 0; l < layers; ++l) rows[l] = Fr::from_bytes_le(labels[l][v]);
    column_hashes[v] = poseidon_hash(column_constants, std::span<const Fr>(rows.data(), layers));
  });
  MerkleTree tree_c = MerkleTree::dense(MerkleHash::Poseidon, shape.tree, std::move(column_hashes));
  t.tree_c = clock.lap();

  std::vector<Fr> replica(n);
  parallel_nodes(n, [&](std::uint64_t v) { replica[v] = data[v] + Fr::from_bytes_le(labels[layers - 1][v]); });
  MerkleTree tree_r = MerkleTree::dense(MerkleHash::Poseidon, shape.tree, std::move(replica));
  t.tree_r = clock.lap();

  return SealedSector{p,
                      shape,
                      std::move(graph),
                      std::move(data),
                      std::move(labels),
                      Fr::from_bytes_le(rid),
                      std::move(tree_d),
                      std::move(tree_c),
                      std::move(tree_r),
                      t};
}

SealCommitPhase1 sealed_sector_c1(const SealedSector& s, const Bytes32& seed) {
  const porep_gen_detail::SectorView view{
      s.params,    s.shape, s.graph, s.tree_d, s.tree_c, s.tree_r, [&s](std::uint64_t node) { return s.column(node); },
      s.replica_id};
  return porep_gen_detail::assemble_c1(view, seed);
}

}  // namespace cuzk::filecoin
