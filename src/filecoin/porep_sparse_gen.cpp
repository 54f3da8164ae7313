// A PoRep C1 consistent for the challenged nodes only (porep_vanilla_gen.hpp, method 2): a
// committed-capacity sector (all-zero data) whose TreeC holds the columns of the challenged nodes
// and their parents and whose TreeR holds the challenged nodes' replica, every other subtree
// empty.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/porep_vanilla_gen.hpp"
#include "cuzk/filecoin/poseidon_constants.hpp"
#include "porep_gen_detail.hpp"

namespace cuzk::filecoin {

namespace {

// The columns the C1 opens, by node (sorted).
class Columns {
 public:
  explicit Columns(std::vector<std::uint64_t> nodes) : nodes_(std::move(nodes)), rows_(nodes_.size()) {}

  std::size_t size() const { return nodes_.size(); }
  std::uint64_t node(std::size_t i) const { return nodes_[i]; }
  std::vector<Fr>& rows_at(std::size_t i) { return rows_[i]; }
  const std::vector<Fr>& rows_at(std::size_t i) const { return rows_[i]; }
  std::size_t find(std::uint64_t node) const {
    const auto it = std::lower_bound(nodes_.begin(), nodes_.end(), node);
    if (it == nodes_.end() || *it != node)
      throw std::logic_error("sparse C1: no column for node " + std::to_string(node));
    return static_cast<std::size_t>(it - nodes_.begin());
  }
  const std::vector<Fr>& rows(std::uint64_t node) const { return rows_[find(node)]; }
  std::vector<Fr>& rows(std::uint64_t node) { return rows_[find(node)]; }

 private:
  std::vector<std::uint64_t> nodes_;
  std::vector<std::vector<Fr>> rows_;
};

template <class T>
void sort_unique(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

SealCommitPhase1 sparse_porep_c1(const PorepGenParams& p) {
  const SealProofInfo& info = seal_proof_info(p.proof);
  const PorepC1Shape shape = porep_gen_shape(p);
  if (shape == c1_shape(p.proof) && info.feature != SealFeature::None)
    throw std::invalid_argument("sparse_porep_c1: " + std::string(info.name) +
                                "'s challenges are derived from comm_r, which commits to the challenged columns: "
                                "only a sealed sector has them (interactive proofs only: V1, V1_1)");
  const std::uint64_t n = shape.nodes;
  const std::size_t layers = shape.layers;

  // All-zero data: TreeD is empty.
  const MerkleTree tree_d = MerkleTree::sparse(MerkleHash::Sha256, TreeShape{2, 0, 0}, n, {});
  const Bytes32 rid = replica_id(p.prover_id, p.sector, p.ticket, tree_d.root().to_bytes_le(), porep_id(p.proof));
  const Fr rid_fr = Fr::from_bytes_le(rid);
  const SdrGraph graph = porep_gen_graph(p);

  // The challenged nodes (interactive: comm_r does not enter) and their parents.
  std::vector<std::uint64_t> challenged;
  for (std::size_t k = 0; k < shape.partitions; ++k)
    for (std::uint64_t c : porep_gen_challenges(p, rid_fr, p.seed, Fr::zero(), k)) challenged.push_back(c);
  sort_unique(challenged);
  std::vector<std::array<std::uint32_t, kSdrDegree>> parents(challenged.size());
  tbb::parallel_for(std::size_t{0}, challenged.size(),
                    [&](std::size_t i) { parents[i] = graph.parents(static_cast<std::uint32_t>(challenged[i])); });
  std::vector<std::uint64_t> opened = challenged;
  for (const auto& ps : parents) opened.insert(opened.end(), ps.begin(), ps.end());
  sort_unique(opened);

  // Pseudo-random columns for the parents that are not challenged.
  Columns cols(opened);
  tbb::parallel_for(std::size_t{0}, cols.size(), [&](std::size_t i) {
    const std::uint64_t v = cols.node(i);
    if (std::binary_search(challenged.begin(), challenged.end(), v)) return;
    std::vector<Fr>& rows = cols.rows_at(i);
    for (std::size_t l = 1; l <= layers; ++l)
      rows.push_back(
          porep_gen_detail::seeded_fr("cuzk/porep-gen/column", p.data_seed, v, static_cast<std::uint32_t>(l)));
  });
  // The challenged nodes' labels from their parents' rows, layer by layer, node by node
  // ascending: a DRG parent is an earlier node, an expander parent's row is of the layer below.
  for (std::size_t l = 1; l <= layers; ++l) {
    std::array<Bytes32, kDrgDegree> drg;
    std::array<Bytes32, kExpDegree> exp;
    for (std::size_t i = 0; i < challenged.size(); ++i) {
      const auto& ps = parents[i];
      for (std::size_t j = 0; j < kDrgDegree; ++j) drg[j] = cols.rows(ps[j]).at(l - 1).to_bytes_le();
      for (std::size_t j = 0; l > 1 && j < kExpDegree; ++j)
        exp[j] = cols.rows(ps[kDrgDegree + j]).at(l - 2).to_bytes_le();
      const Bytes32 label = sdr_create_label(rid, static_cast<std::uint32_t>(l), challenged[i], drg,
                                             l > 1 ? std::span<const Bytes32>(exp) : std::span<const Bytes32>());
      cols.rows(challenged[i]).push_back(Fr::from_bytes_le(label));
    }
  }

  // TreeC over the opened columns' hashes; TreeR over the challenged replica nodes (0 + key).
  std::vector<MerkleTree::Entry> c_leaves(cols.size());
  const PoseidonConstants& column_constants = poseidon_constants(layers);
  tbb::parallel_for(std::size_t{0}, cols.size(), [&](std::size_t i) {
    c_leaves[i] = {cols.node(i), poseidon_hash(column_constants, cols.rows_at(i))};
  });
  std::vector<MerkleTree::Entry> r_leaves;
  for (std::uint64_t c : challenged) r_leaves.emplace_back(c, cols.rows(c).back());
  const MerkleTree tree_c = MerkleTree::sparse(MerkleHash::Poseidon, shape.tree, n, std::move(c_leaves));
  const MerkleTree tree_r = MerkleTree::sparse(MerkleHash::Poseidon, shape.tree, n, std::move(r_leaves));

  const porep_gen_detail::SectorView view{
      p, shape, graph, tree_d, tree_c, tree_r, [&cols](std::uint64_t node) { return cols.rows(node); }, rid_fr};
  return porep_gen_detail::assemble_c1(view, p.seed);
}

}  // namespace cuzk::filecoin
