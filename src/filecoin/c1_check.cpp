// C1 output checks (what and why in c1_check.hpp). The challenges are checked in parallel; the
// first failure in (partition, challenge) order is the one reported, so the message does not
// depend on scheduling.
#include "cuzk/filecoin/c1_check.hpp"

#include <openssl/sha.h>
#include <tbb/parallel_for.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/porep_id.hpp"
#include "cuzk/filecoin/poseidon_constants.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "cuzk/filecoin/vanilla_check.hpp"

namespace cuzk::filecoin {

namespace {

// The wire form (32 bytes little-endian), in hex.
std::string hex(const Bytes32& b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t x : b) {
    s.push_back(kDigits[x >> 4]);
    s.push_back(kDigits[x & 15]);
  }
  return s;
}
std::string hex(const Fr& x) { return hex(x.to_bytes_le()); }

Fr trimmed_digest(const std::uint8_t* msg, std::size_t len) {
  Bytes32 d;
  SHA256(msg, len, d.data());
  d[31] &= 0x3f;  // fr32 bytes_into_fr_repr_safe / Sha256Domain::trim_to_fr32
  return Fr::from_bytes_le(d);
}

// One challenge's proof under check.
class ChallengeCheck {
 public:
  ChallengeCheck(const SealCommitPhase1& c1, const PorepC1Shape& shape, std::size_t k, std::size_t i,
                 const PorepVanillaProof& p)
      : c1_(c1), shape_(shape), k_(k), i_(i), p_(p) {}

  [[noreturn]] void fail(const std::string& field, std::size_t offset, const std::string& what) const {
    throw DecodeError("C1 (" + std::string(seal_proof_info(c1_.registered_proof).name) + "), partition " +
                      std::to_string(k_) + ", challenge " + std::to_string(i_) + " (node " +
                      std::to_string(p_.challenge()) + "): " + field + " (byte " + std::to_string(offset) +
                      "): " + what);
  }

  // A Poseidon tree path: the leaf hashes up to its root, the root is `root`, the path opens `node`.
  void poseidon_path(const std::string& field, const InclusionProof& ip, const Fr& root, const char* root_name,
                     std::uint64_t node) const {
    if (ip.root != root) fail(field, ip.offset, "root " + hex(ip.root) + " != " + root_name + " " + hex(root));
    const std::uint64_t at = inclusion_leaf_index(ip);
    if (at != node)
      fail(field, ip.offset, "the path opens node " + std::to_string(at) + ", not " + std::to_string(node));
    const Fr h = inclusion_path_root(ip);
    if (h != ip.root) fail(field, ip.offset, "the leaf hashed up the path gives " + hex(h) + ", not the root");
  }

  void column(const std::string& field, const ColumnOpening& c, const Fr& comm_c) const {
    const Fr h = sdr_column_hash(c.rows);
    if (h != c.tree_c.leaf)
      fail(field, c.offset,
           "the column's hash " + hex(h) + " != its TreeC leaf " + hex(c.tree_c.leaf) + " (Poseidon of " +
               std::to_string(c.rows.size()) + " rows)");
    poseidon_path(field + ".inclusion_proof", c.tree_c, comm_c, "comm_c", c.index);
  }

  void run(const Fr& comm_c, const Fr& comm_r_last, const std::vector<std::uint64_t>* challenges,
           const C1CheckOptions& opt) const {
    const std::uint64_t node = p_.challenge();
    if (node >= shape_.nodes)
      fail("labeling_proofs[0].node", p_.labeling_proofs.front().offset,
           "node " + std::to_string(node) + " is outside the sector's " + std::to_string(shape_.nodes));
    if (challenges && (*challenges)[i_] != node)
      fail("labeling_proofs[0].node", p_.labeling_proofs.front().offset,
           "the proof is for node " + std::to_string(node) + "; the seed challenges node " +
               std::to_string((*challenges)[i_]));

    // TreeD.
    const InclusionProof& d = p_.comm_d_proof;
    if (d.root != c1_.comm_d) fail("comm_d_proofs", d.offset, "root " + hex(d.root) + " != comm_d " + hex(c1_.comm_d));
    if (inclusion_leaf_index(d) != node)
      fail("comm_d_proofs", d.offset, "the path opens node " + std::to_string(inclusion_leaf_index(d)));
    const Fr hd = tree_d_path_root(d);
    if (hd != d.root)
      fail("comm_d_proofs", d.offset, "the leaf hashed up the path (SHA-256) gives " + hex(hd) + ", not the root");

    // TreeR and the columns.
    poseidon_path("comm_r_last_proof", p_.comm_r_last_proof, comm_r_last, "comm_r_last", node);
    if (p_.c_x.index != node)
      fail("replica_column_proofs.c_x.column.index", p_.c_x.offset,
           "the column of node " + std::to_string(p_.c_x.index) + ", not the challenged node");
    column("replica_column_proofs.c_x", p_.c_x, comm_c);
    std::array<std::uint32_t, kSdrDegree> parents{};
    if (opt.parents) opt.parents(node, parents);
    for (std::size_t g = 0; g < 2; ++g) {
      const auto& cols = g == 0 ? p_.drg_parents : p_.exp_parents;
      for (std::size_t j = 0; j < cols.size(); ++j) {
        const std::string field =
            std::string(g == 0 ? "replica_column_proofs.drg_parents[" : "replica_column_proofs.exp_parents[") +
            std::to_string(j) + "]";
        const std::uint32_t want = parents[g * kDrgDegree + j];
        if (opt.parents && cols[j].index != want)
          fail(field + ".column.index", cols[j].offset,
               "the column of node " + std::to_string(cols[j].index) + "; the graph's parent is node " +
                   std::to_string(want));
        column(field, cols[j], comm_c);
      }
    }

    // Labels, layer by layer, from the parent columns.
    for (std::size_t l = 1; l <= shape_.layers; ++l) {
      const LabelingProof& lp = p_.labeling_proofs[l - 1];
      const std::string field = "labeling_proofs[" + std::to_string(l - 1) + "]";
      if (lp.layer_index != l)
        fail(field, lp.offset, "layer_index " + std::to_string(lp.layer_index) + "; expected " + std::to_string(l));
      if (lp.node != node)
        fail(field, lp.offset, "node " + std::to_string(lp.node) + "; the challenge is " + std::to_string(node));
      const std::vector<Fr> want = sdr_label_parents(p_, l);
      for (std::size_t j = 0; j < want.size(); ++j)
        if (lp.parents[j] != want[j])
          fail(field + ".parents[" + std::to_string(j) + "]", lp.offset,
               hex(lp.parents[j]) + " is not the parent columns' label " + hex(want[j]));
      const Fr label = sdr_label(c1_.replica_id, lp.layer_index, lp.node, lp.parents);
      if (label != p_.c_x.rows[l - 1])
        fail(field, lp.offset,
             "the label SHA-256(replica_id, layer, node, parents) is " + hex(label) + "; c_x's row " +
                 std::to_string(l) + " is " + hex(p_.c_x.rows[l - 1]));
    }

    // Encoding: the last layer's label is the key; data + key is the replica node.
    const LabelingProof& ep = p_.encoding_proof;
    const LabelingProof& last = p_.labeling_proofs.back();
    if (ep.layer_index != last.layer_index || ep.node != last.node || ep.parents != last.parents)
      fail("encoding_proof", ep.offset, "does not repeat the last layer's labeling proof");
    const Fr key = sdr_label(c1_.replica_id, ep.layer_index, ep.node, ep.parents);
    const Fr encoded = key + d.leaf;
    if (encoded != p_.comm_r_last_proof.leaf)
      fail("encoding_proof", ep.offset,
           "key + data leaf = " + hex(encoded) + " != the TreeR leaf " + hex(p_.comm_r_last_proof.leaf));
  }

 private:
  const SealCommitPhase1& c1_;
  const PorepC1Shape& shape_;
  std::size_t k_, i_;
  const PorepVanillaProof& p_;
};

[[noreturn]] void fail_c1(const SealCommitPhase1& c1, const std::string& what) {
  throw DecodeError("C1 (" + std::string(seal_proof_info(c1.registered_proof).name) + "): " + what);
}

}  // namespace

Fr sdr_label(const Fr& replica_id, std::uint32_t layer, std::uint64_t node, std::span<const Fr> parents) {
  std::vector<std::uint8_t> msg(64 + 32 * parents.size(), 0);
  replica_id.to_bytes_le(std::span<std::uint8_t>(msg.data(), 32));
  for (int b = 0; b < 4; ++b) msg[32 + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(layer >> (8 * (3 - b)));
  for (int b = 0; b < 8; ++b) msg[36 + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(node >> (8 * (7 - b)));
  for (std::size_t j = 0; j < parents.size(); ++j)
    parents[j].to_bytes_le(std::span<std::uint8_t>(msg.data() + 64 + 32 * j, 32));
  return trimmed_digest(msg.data(), msg.size());
}

Fr sdr_column_hash(std::span<const Fr> rows) { return poseidon_hash(poseidon_constants(rows.size()), rows); }

Fr tree_d_node(const Fr& left, const Fr& right) {
  std::uint8_t msg[64];
  left.to_bytes_le(std::span<std::uint8_t>(msg, 32));
  right.to_bytes_le(std::span<std::uint8_t>(msg + 32, 32));
  return trimmed_digest(msg, sizeof msg);
}

Fr tree_d_path_root(const InclusionProof& p) {
  Fr cur = p.leaf;
  for (const PathLevel& lv : p.path) {
    if (lv.siblings.size() != 1 || lv.index > 1) throw std::invalid_argument("tree_d_path_root: not a binary path");
    cur = lv.index == 0 ? tree_d_node(cur, lv.siblings[0]) : tree_d_node(lv.siblings[0], cur);
  }
  return cur;
}

std::vector<Fr> sdr_label_parents(const PorepVanillaProof& p, std::size_t layer) {
  std::vector<Fr> base;
  for (const ColumnOpening& c : p.drg_parents) base.push_back(c.rows.at(layer - 1));
  if (layer > 1)
    for (const ColumnOpening& c : p.exp_parents) base.push_back(c.rows.at(layer - 2));
  std::vector<Fr> out;
  out.reserve(kSdrLabelParents);
  for (std::size_t j = 0; j < kSdrLabelParents && !base.empty(); ++j) out.push_back(base[j % base.size()]);
  return out;
}

void verify_c1(const SealCommitPhase1& c1, const C1CheckOptions& options) {
  const SealProofInfo& info = seal_proof_info(c1.registered_proof);
  C1CheckOptions opt = options;
  if (!opt.challenges)
    opt.challenges = [&](std::size_t k) {
      return porep_challenges(info, c1.replica_id.to_bytes_le(), c1.seed, c1.comm_r.to_bytes_le(), k);
    };
  if (!opt.parents) {
    auto graph = std::make_shared<const SdrGraph>(info);
    opt.parents = [graph](std::uint64_t node, std::span<std::uint32_t, kSdrDegree> out) {
      graph->parents(static_cast<std::uint32_t>(node), out);
    };
  }
  verify_c1(c1, c1_shape(c1.registered_proof), opt);
}

void verify_c1(const SealCommitPhase1& c1, const PorepC1Shape& shape, const C1CheckOptions& options) {
  validate_c1_shape(c1, shape);
  // 1.
  if (c1.comm_d == Fr::zero()) fail_c1(c1, "comm_d is all zero");
  if (c1.comm_r == Fr::zero()) fail_c1(c1, "comm_r is all zero");
  if (c1.seed == Bytes32{}) fail_c1(c1, "the porep challenge seed is all zero");
  // 2.
  if (options.prover_id.has_value() != options.sector_number.has_value())
    throw std::invalid_argument("verify_c1: give both prover_id and sector_number, or neither");
  if (options.prover_id) {
    const Bytes32 want = replica_id(*options.prover_id, *options.sector_number, c1.ticket, c1.comm_d.to_bytes_le(),
                                    porep_id(c1.registered_proof));
    if (want != c1.replica_id.to_bytes_le())
      fail_c1(c1, "replica_id " + hex(c1.replica_id) + " is not the sector's: prover " + hex(*options.prover_id) +
                      ", sector " + std::to_string(*options.sector_number) +
                      ", the ticket, comm_d and the porep id give " + hex(want));
  }
  // 3.
  const PorepVanillaProof& first = c1.partitions.front().front();
  const Fr comm_c = first.c_x.tree_c.root;
  const Fr comm_r_last = first.comm_r_last_proof.root;
  const Fr h = comm_r_from_parts(comm_c, comm_r_last);
  if (h != c1.comm_r)
    fail_c1(c1, "comm_r " + hex(c1.comm_r) + " != Poseidon2(comm_c, comm_r_last) " + hex(h) +
                    " (comm_c and comm_r_last from partition 0, challenge 0: byte " + std::to_string(first.offset) +
                    ")");

  // 4., every challenge of every partition.
  std::vector<std::vector<std::uint64_t>> challenges;
  if (options.challenges) {
    for (std::size_t k = 0; k < c1.partitions.size(); ++k) {
      challenges.push_back(options.challenges(k));
      if (challenges.back().size() != shape.challenges_per_partition)
        throw std::invalid_argument("verify_c1: the challenge derivation gave " +
                                    std::to_string(challenges.back().size()) + " challenges for partition " +
                                    std::to_string(k));
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> all;
  for (std::size_t k = 0; k < c1.partitions.size(); ++k)
    for (std::size_t i = 0; i < c1.partitions[k].size(); ++i) all.emplace_back(k, i);
  std::vector<std::optional<std::string>> errors(all.size());
  tbb::parallel_for(std::size_t{0}, all.size(), [&](std::size_t n) {
    const auto [k, i] = all[n];
    try {
      ChallengeCheck(c1, shape, k, i, c1.partitions[k][i])
          .run(comm_c, comm_r_last, options.challenges ? &challenges[k] : nullptr, options);
    } catch (const std::exception& e) {
      errors[n] = e.what();
    }
  });
  for (const auto& e : errors)
    if (e) throw DecodeError(*e);
}

}  // namespace cuzk::filecoin
