// The SnapDeals circuit's shape checks and blank values (snap_circuit.hpp): circuit.rs
// ChallengeProof::empty / PrivateInputs::empty and the asserts of synthesize.
#include "cuzk/filecoin/snap_circuit.hpp"

#include <utility>

namespace cuzk::filecoin {

namespace {

std::vector<PathLevel> blank_path(const std::vector<unsigned>& arities) {
  std::vector<PathLevel> p;
  p.reserve(arities.size());
  for (unsigned a : arities) p.push_back(PathLevel{std::vector<Fr>(a - 1, Fr::zero()), 0});
  return p;
}

void check_levels(const std::vector<PathLevel>& path, const std::vector<unsigned>& arities, std::size_t ci,
                  const char* which) {
  auto bad = [&](const std::string& what) {
    throw std::invalid_argument("EmptySectorUpdateCircuit: challenge " + std::to_string(ci) + ": " + which + ": " +
                                what);
  };
  if (path.size() != arities.size())
    bad(std::to_string(path.size()) + " levels; the tree has " + std::to_string(arities.size()));
  for (std::size_t l = 0; l < path.size(); ++l)
    if (path[l].siblings.size() + 1 != arities[l])
      bad("level " + std::to_string(l) + " has " + std::to_string(path[l].siblings.size()) + " siblings; arity is " +
          std::to_string(arities[l]));
}

}  // namespace

SnapChallengeValues blank_snap_challenge(const SnapParams& p) {
  SnapChallengeValues v{Fr::zero(), Fr::zero(), Fr::zero(), {}, {}, {}};
  v.path_r_old = blank_path(p.tree_r.level_arities(p.sector_nodes));
  v.path_r_new = v.path_r_old;
  v.path_d_new = blank_path(std::vector<unsigned>(p.challenge_bit_len, 2));
  return v;
}

EmptySectorUpdateCircuit::EmptySectorUpdateCircuit(SnapParams params, SnapPartitionValues values)
    : EmptySectorUpdateCircuit(std::move(params), std::move(values), false) {}

EmptySectorUpdateCircuit EmptySectorUpdateCircuit::blank(const SnapParams& params) {
  SnapPartitionValues v;
  v.k_and_h_select = v.comm_r_old = v.comm_d_new = v.comm_r_new = Fr::zero();
  v.comm_c = v.root_r_old = v.root_r_new = Fr::zero();
  v.apex_leafs.assign(params.apex_leaf_count, Fr::zero());
  v.challenges.assign(params.challenge_count, blank_snap_challenge(params));
  return EmptySectorUpdateCircuit(params, std::move(v), true);
}

EmptySectorUpdateCircuit::EmptySectorUpdateCircuit(SnapParams params, SnapPartitionValues values, bool blank)
    : p_(std::move(params)), v_(std::move(values)) {
  validate_snap_params(p_);
  auto bad = [](const std::string& what) { throw std::invalid_argument("EmptySectorUpdateCircuit: " + what); };
  if (v_.apex_leafs.size() != p_.apex_leaf_count)
    bad(std::to_string(v_.apex_leafs.size()) + " apex leaves; a partition has " + std::to_string(p_.apex_leaf_count));
  if (v_.challenges.size() != p_.challenge_count)
    bad(std::to_string(v_.challenges.size()) + " challenge proofs; a partition has " +
        std::to_string(p_.challenge_count));
  const std::vector<unsigned> r_arities = p_.tree_r.level_arities(p_.sector_nodes);
  const std::vector<unsigned> d_arities(p_.challenge_bit_len, 2);
  for (std::size_t i = 0; i < v_.challenges.size(); ++i) {
    const SnapChallengeValues& c = v_.challenges[i];
    check_levels(c.path_r_old, r_arities, i, "TreeROld path");
    check_levels(c.path_d_new, d_arities, i, "TreeDNew path");
    check_levels(c.path_r_new, r_arities, i, "TreeRNew path");
  }
  // circuit.rs: every challenge's TreeD path ends with the same partition path (challenge 0's).
  const std::size_t top = p_.challenge_bit_len - p_.partition_bit_len;
  for (std::size_t i = 1; i < v_.challenges.size(); ++i)
    for (std::size_t l = top; l < p_.challenge_bit_len; ++l)
      if (v_.challenges[i].path_d_new[l].siblings != v_.challenges[0].path_d_new[l].siblings)
        bad("challenge " + std::to_string(i) + "'s TreeDNew path differs from challenge 0's at partition-tree level " +
            std::to_string(l));
  if (blank) return;
  // circuit.rs: k < partitions, exactly one h_select bit, no bit above them.
  const Fr::Repr kh = v_.k_and_h_select.to_canonical();
  if (kh[1] != 0 || kh[2] != 0 || kh[3] != 0 || kh[0] >> (p_.partition_bit_len + kSnapHsCount) != 0)
    bad("k_and_h_select has bits above its partition and h_select bits");
  const std::uint64_t k = kh[0] & ((std::uint64_t{1} << p_.partition_bit_len) - 1);
  const std::uint64_t h_select = kh[0] >> p_.partition_bit_len;
  if (k >= p_.partition_count) bad("partition index " + std::to_string(k) + " exceeds the partition count");
  if (h_select == 0 || (h_select & (h_select - 1)) != 0) bad("h_select does not have exactly one bit set");
}

}  // namespace cuzk::filecoin
