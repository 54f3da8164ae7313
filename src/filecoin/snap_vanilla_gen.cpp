// Synthetic sector updates and their partition proofs (snap_vanilla_gen.hpp).
#include "cuzk/filecoin/snap_vanilla_gen.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/filecoin/snap_challenges.hpp"
#include "cuzk/filecoin/vanilla_check.hpp"  // comm_r_from_parts

namespace cuzk::filecoin {

namespace {

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A field element below 2^254 (so canonical) from (seed, stream, n).
Fr random_fr(std::uint64_t seed, std::uint64_t stream, std::uint64_t n) {
  Fr::Repr c{};
  std::uint64_t s = splitmix(seed ^ splitmix(stream * 0x100000001b3ull ^ splitmix(n)));
  for (auto& limb : c) limb = s = splitmix(s);
  c[3] &= ~std::uint64_t{0} >> 2;
  return Fr::from_canonical(c);
}

enum Stream : std::uint64_t { kOldLabel = 1, kData = 2, kCommC = 3, kNode = 4 };

}  // namespace

namespace {

// The update of an old replica whose non-zero leaves are `nodes` (every node when dense) with
// labels `old_labels`, by new data `data` on the same nodes (zero elsewhere, as in the old
// replica), as vanilla.rs encode_into does: one rho per value of the h high bits.
SnapTestUpdate encode_update(const SnapParams& p, unsigned h, const Fr& comm_c, const std::vector<std::uint64_t>& nodes,
                             std::vector<Fr> old_labels, std::vector<Fr> data, bool dense) {
  const std::uint64_t n = p.sector_nodes;
  const TreeShape tree_d{2, 0, 0};
  auto build = [&](MerkleHash hash, const TreeShape& shape, std::vector<Fr> values) {
    if (dense) return MerkleTree::dense(hash, shape, std::move(values));
    std::vector<MerkleTree::Entry> set(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) set[i] = {nodes[i], values[i]};
    return MerkleTree::sparse(hash, shape, n, std::move(set));
  };

  SnapPublic pub;
  pub.h = h;
  std::vector<Fr> new_labels(nodes.size());
  MerkleTree tree_d_new = build(MerkleHash::Sha256, tree_d, data);
  pub.comm_d_new = tree_d_new.root();
  MerkleTree tree_r_old = build(MerkleHash::Poseidon, p.tree_r, old_labels);
  pub.comm_r_old = comm_r_from_parts(comm_c, tree_r_old.root());

  const Fr phi = snap_phi(pub.comm_d_new, pub.comm_r_old);
  std::map<std::uint32_t, Fr> rhos;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::uint32_t high = snap_high_bits(p, nodes[i], h);
    auto it = rhos.find(high);
    if (it == rhos.end()) it = rhos.emplace(high, snap_rho(phi, high)).first;
    new_labels[i] = old_labels[i] + data[i] * it->second;
  }
  MerkleTree tree_r_new = build(MerkleHash::Poseidon, p.tree_r, std::move(new_labels));
  pub.comm_r_new = comm_r_from_parts(comm_c, tree_r_new.root());
  return SnapTestUpdate{p, pub, comm_c, std::move(tree_r_old), std::move(tree_d_new), std::move(tree_r_new)};
}

}  // namespace

SnapTestUpdate make_snap_test_update(const SnapParams& p, unsigned h, std::uint64_t seed, std::uint64_t random_leaves) {
  validate_snap_params(p);
  snap_k_and_h_select(p, 0, h);  // refuses an h outside hs
  const std::uint64_t n = p.sector_nodes;
  const bool dense = random_leaves >= n;

  // The nodes that carry data, with their old labels and data.
  std::vector<std::uint64_t> nodes;
  if (dense) {
    nodes.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) nodes[i] = i;
  } else {
    for (std::uint64_t j = 0; j < random_leaves; ++j) nodes.push_back(random_fr(seed, kNode, j).to_canonical()[0] % n);
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  }
  std::vector<Fr> old_labels(nodes.size()), data(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    old_labels[i] = random_fr(seed, kOldLabel, nodes[i]);
    data[i] = random_fr(seed, kData, nodes[i]);
  }
  return encode_update(p, h, random_fr(seed, kCommC, 0), nodes, std::move(old_labels), std::move(data), dense);
}

SnapTestUpdate snap_update_of_sealed(const SealedSector& s, const SnapParams& p, unsigned h, std::uint64_t seed) {
  validate_snap_params(p);
  snap_k_and_h_select(p, 0, h);
  if (s.shape.nodes != p.sector_nodes || !(s.shape.tree == p.tree_r))
    throw std::invalid_argument("the sealed sector has " + std::to_string(s.shape.nodes) +
                                " nodes and another TreeR shape than the update's " + std::to_string(p.sector_nodes));
  const std::uint64_t n = p.sector_nodes;
  std::vector<std::uint64_t> nodes(n);
  std::vector<Fr> replica(n), data(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    nodes[i] = i;
    replica[i] = s.tree_r.leaf(i);
    data[i] = random_fr(seed, kData, i);
  }
  SnapTestUpdate u = encode_update(p, h, s.tree_c.root(), nodes, std::move(replica), std::move(data), true);
  if (u.pub.comm_r_old != s.comm_r()) throw std::logic_error("snap_update_of_sealed: comm_r_old is not the sector's comm_r");
  return u;
}

SnapPartitionProof make_snap_partition_proof(const SnapTestUpdate& u, std::size_t k) {
  const SnapParams& p = u.params;
  SnapPartitionProof out;
  out.comm_c = u.comm_c;
  const std::size_t height = p.apex_leafs_height();
  for (std::size_t j = 0; j < p.apex_leaf_count; ++j)
    out.apex_leafs.push_back(u.tree_d_new.node(height, k * p.apex_leaf_count + j));
  for (std::uint32_t c : snap_challenges(p, u.pub.comm_r_new, k))
    out.challenge_proofs.push_back(
        SnapChallengeProof{u.tree_r_old.proof(c), u.tree_d_new.proof(c), u.tree_r_new.proof(c)});
  return out;
}

}  // namespace cuzk::filecoin
