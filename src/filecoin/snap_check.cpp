// SnapDeals vanilla proof checks and the circuit's values (what and why in snap_check.hpp).
#include "cuzk/filecoin/snap_check.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_check.hpp"  // tree_d_node, tree_d_path_root
#include "cuzk/filecoin/snap_challenges.hpp"
#include "cuzk/filecoin/vanilla_check.hpp"  // inclusion_path_root, comm_r_from_parts

namespace cuzk::filecoin {

namespace {

std::string hex(const Fr& x) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : x.to_bytes_le()) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

[[noreturn]] void fail(const SnapParams& p, std::size_t k, const std::string& what) {
  throw DecodeError("SnapDeals partition " + std::to_string(k) + " (sector of " + std::to_string(p.sector_nodes) +
                    " nodes): " + what);
}

// MerkleProofTrait::path_index: the insertion indices folded from the top level down, each step
// multiplying by the tree's base arity (the Rust's formula; it is the leaf index for every
// allowed TreeR shape, whose top level only exists over a sub level of the base arity).
std::uint64_t path_index(const InclusionProof& p, unsigned base_arity) {
  std::uint64_t acc = 0;
  for (auto it = p.path.rbegin(); it != p.path.rend(); ++it) acc = acc * base_arity + it->index;
  return acc;
}

// The node a TreeD path reaches after its first `levels` levels.
Fr tree_d_node_at(const InclusionProof& p, std::size_t levels) {
  Fr cur = p.leaf;
  for (std::size_t l = 0; l < levels; ++l) {
    const PathLevel& lv = p.path[l];
    cur = lv.index == 0 ? tree_d_node(cur, lv.siblings[0]) : tree_d_node(lv.siblings[0], cur);
  }
  return cur;
}

}  // namespace

Fr snap_commitment(const Bytes32& bytes, const char* what) {
  Fr::Repr c{};
  for (std::size_t i = 0; i < 32; ++i) c[i / 8] |= std::uint64_t{bytes[i]} << (8 * (i % 8));
  if (ff::big::cmp(c, Fr::kModulus) >= 0)
    throw DecodeError(std::string(what) + " is not a canonical field element (>= r)");
  return Fr::from_canonical(c);
}

void verify_snap_partition_proof(const SnapParams& p, const SnapPublic& pub, std::size_t k,
                                 const SnapPartitionProof& proof) {
  // 1, 2.
  if (k >= p.partition_count)
    fail(p, k, "the partition index exceeds the partition count " + std::to_string(p.partition_count));
  if (std::find(p.hs.begin(), p.hs.end(), pub.h) == p.hs.end())
    fail(p, k, "h = " + std::to_string(pub.h) + " is not allowed for the sector size");
  if (proof.apex_leafs.size() != p.apex_leaf_count)
    fail(p, k, std::to_string(proof.apex_leafs.size()) + " apex leaves; expected " + std::to_string(p.apex_leaf_count));
  if (proof.challenge_proofs.size() != p.challenge_count)
    fail(p, k,
         std::to_string(proof.challenge_proofs.size()) + " challenge proofs; expected " +
             std::to_string(p.challenge_count));
  const std::vector<unsigned> r_arities = p.tree_r.level_arities(p.sector_nodes);
  for (std::size_t i = 0; i < proof.challenge_proofs.size(); ++i) {
    const SnapChallengeProof& c = proof.challenge_proofs[i];
    auto shape_ok = [](const InclusionProof& ip, const std::vector<unsigned>& arities) {
      if (ip.path.size() != arities.size()) return false;
      for (std::size_t l = 0; l < arities.size(); ++l)
        if (ip.path[l].siblings.size() + 1 != arities[l] || ip.path[l].index >= arities[l]) return false;
      return true;
    };
    if (!shape_ok(c.proof_r_old, r_arities) || !shape_ok(c.proof_r_new, r_arities) ||
        !shape_ok(c.proof_d_new, std::vector<unsigned>(p.challenge_bit_len, 2)))
      fail(p, k, "challenge proof " + std::to_string(i) + " has a path of the wrong shape for the sector size");
  }

  // 3.
  const Fr& root_r_old = proof.challenge_proofs[0].proof_r_old.root;
  const Fr& root_r_new = proof.challenge_proofs[0].proof_r_new.root;
  if (comm_r_from_parts(proof.comm_c, root_r_old) != pub.comm_r_old)
    fail(p, k,
         "Poseidon2(comm_c, root_r_old) = " + hex(comm_r_from_parts(proof.comm_c, root_r_old)) +
             " is not comm_r_old = " + hex(pub.comm_r_old) + " (root_r_old is challenge 0's TreeROld root)");
  if (comm_r_from_parts(proof.comm_c, root_r_new) != pub.comm_r_new)
    fail(p, k,
         "Poseidon2(comm_c, root_r_new) = " + hex(comm_r_from_parts(proof.comm_c, root_r_new)) +
             " is not comm_r_new = " + hex(pub.comm_r_new) + " (root_r_new is challenge 0's TreeRNew root)");

  // 4. The apex tree, row by row (row 0: the apex leaves), then challenge 0's partition path.
  std::vector<std::vector<Fr>> apex_tree{proof.apex_leafs};
  for (std::size_t r = 0; r < p.apex_leaf_bit_len; ++r) {
    const std::vector<Fr>& below = apex_tree.back();
    std::vector<Fr> row(below.size() / 2);
    for (std::size_t j = 0; j < row.size(); ++j) row[j] = tree_d_node(below[2 * j], below[2 * j + 1]);
    apex_tree.push_back(std::move(row));
  }
  const std::size_t apex_height = p.apex_leafs_height();
  const std::size_t partition_from = p.challenge_bit_len - p.partition_bit_len;
  {
    const InclusionProof& d0 = proof.challenge_proofs[0].proof_d_new;
    Fr cur = apex_tree.back().at(0);
    for (std::size_t l = 0; l < p.partition_bit_len; ++l) {
      const Fr& sib = d0.path[partition_from + l].siblings[0];
      cur = ((k >> l) & 1) == 0 ? tree_d_node(cur, sib) : tree_d_node(sib, cur);
    }
    if (cur != pub.comm_d_new)
      fail(p, k,
           "the apex leaves (byte " + std::to_string(proof.apex_leafs_offset) +
               ") with challenge 0's partition path hash to " + hex(cur) + ", not comm_d_new = " + hex(pub.comm_d_new));
  }

  // 5.
  const Fr phi = snap_phi(pub.comm_d_new, pub.comm_r_old);
  const std::vector<std::uint32_t> challenges = snap_challenges(p, pub.comm_r_new, k);
  for (std::size_t i = 0; i < challenges.size(); ++i) {
    const std::uint32_t c = challenges[i];
    const SnapChallengeProof& cp = proof.challenge_proofs[i];
    auto bad = [&](const char* which, const InclusionProof& ip, const std::string& what) {
      fail(p, k,
           "challenge " + std::to_string(i) + " (node " + std::to_string(c) + "): " + which + " (byte " +
               std::to_string(ip.offset) + "): " + what);
    };
    // a, b, c.
    struct Named {
      const char* name;
      const InclusionProof& ip;
      unsigned base_arity;
      const Fr& root;
      const char* root_name;
    };
    const Named proofs[3] = {{"proof_r_old", cp.proof_r_old, p.tree_r.base_arity, root_r_old, "root_r_old"},
                             {"proof_d_new", cp.proof_d_new, 2, pub.comm_d_new, "comm_d_new"},
                             {"proof_r_new", cp.proof_r_new, p.tree_r.base_arity, root_r_new, "root_r_new"}};
    for (const Named& n : proofs) {
      const std::uint64_t idx = path_index(n.ip, n.base_arity);
      if (idx != c) bad(n.name, n.ip, "opens leaf " + std::to_string(idx) + ", not the challenged node");
      if (n.ip.root != n.root)
        bad(n.name, n.ip, "its root " + hex(n.ip.root) + " is not " + n.root_name + " = " + hex(n.root));
      const Fr computed = &n.ip == &cp.proof_d_new ? tree_d_path_root(n.ip) : inclusion_path_root(n.ip);
      if (computed != n.ip.root)
        bad(n.name, n.ip, "the leaf hashed up the path gives " + hex(computed) + ", not its root " + hex(n.ip.root));
    }
    // d.
    const Fr rho = snap_rho(phi, snap_high_bits(p, c, pub.h));
    const Fr label = cp.proof_r_old.leaf + cp.proof_d_new.leaf * rho;
    if (label != cp.proof_r_new.leaf)
      bad("proof_r_new", cp.proof_r_new,
          "its leaf " + hex(cp.proof_r_new.leaf) + " is not label_r_old + label_d_new * rho = " + hex(label));
    // e.
    for (std::size_t l = 0; l < p.apex_leaf_bit_len; ++l) {
      const Fr& sib = cp.proof_d_new.path[apex_height + l].siblings[0];
      const std::vector<Fr>& row = apex_tree[l];
      if (std::find(row.begin(), row.end(), sib) == row.end())
        bad("proof_d_new", cp.proof_d_new,
            "its sibling at TreeD level " + std::to_string(apex_height + l) + " is not a node of apex tree row " +
                std::to_string(l));
    }
    // f.
    const std::size_t apex_index = (c >> apex_height) & (p.apex_leaf_count - 1);
    const Fr at_apex = tree_d_node_at(cp.proof_d_new, apex_height);
    if (at_apex != proof.apex_leafs[apex_index])
      bad("proof_d_new", cp.proof_d_new,
          "its path reaches " + hex(at_apex) + " at the apex leaves' level, not apex leaf " +
              std::to_string(apex_index) + " = " + hex(proof.apex_leafs[apex_index]));
    for (std::size_t l = partition_from; l < p.challenge_bit_len; ++l)
      if (cp.proof_d_new.path[l].siblings[0] != proof.challenge_proofs[0].proof_d_new.path[l].siblings[0])
        bad("proof_d_new", cp.proof_d_new,
            "its sibling at TreeD level " + std::to_string(l) + " differs from challenge 0's (the partition path)");
  }
}

void verify_snap_partition_proofs(const SnapParams& p, const SnapPublic& pub,
                                  std::span<const SnapPartitionProof> proofs) {
  if (proofs.size() != p.partition_count)
    throw DecodeError("SnapDeals: " + std::to_string(proofs.size()) + " partition proofs; the sector size has " +
                      std::to_string(p.partition_count) + " partitions");
  for (std::size_t k = 0; k < proofs.size(); ++k) verify_snap_partition_proof(p, pub, k, proofs[k]);
}

SnapPartitionValues snap_partition_values(const SnapParams& p, const SnapPublic& pub, std::size_t k,
                                          const SnapPartitionProof& proof) {
  SnapPartitionValues v;
  v.k_and_h_select = Fr::from_u64(snap_k_and_h_select(p, k, pub.h));
  v.comm_r_old = pub.comm_r_old;
  v.comm_d_new = pub.comm_d_new;
  v.comm_r_new = pub.comm_r_new;
  v.comm_c = proof.comm_c;
  if (proof.challenge_proofs.empty()) throw std::invalid_argument("snap_partition_values: no challenge proofs");
  v.root_r_old = proof.challenge_proofs[0].proof_r_old.root;
  v.root_r_new = proof.challenge_proofs[0].proof_r_new.root;
  v.apex_leafs = proof.apex_leafs;
  v.challenges.reserve(proof.challenge_proofs.size());
  for (const SnapChallengeProof& c : proof.challenge_proofs)
    v.challenges.push_back(SnapChallengeValues{c.proof_r_old.leaf, c.proof_d_new.leaf, c.proof_r_new.leaf,
                                               c.proof_r_old.path, c.proof_d_new.path, c.proof_r_new.path});
  return v;
}

EmptySectorUpdateCircuit snap_partition_circuit(const SnapParams& p, const SnapPublic& pub, std::size_t k,
                                                std::span<const std::uint8_t> bytes) {
  const SnapPartitionProof proof = decode_snap_partition_proof(bytes, p);
  verify_snap_partition_proof(p, pub, k, proof);
  return EmptySectorUpdateCircuit(p, snap_partition_values(p, pub, k, proof));
}

}  // namespace cuzk::filecoin
