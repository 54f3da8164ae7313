// encode_c1_json: the bytes serde_json::to_vec writes for filecoin-proofs-api's
// SealCommitPhase1Output (layout in c1_output.hpp): compact, fields in declaration order,
// 32-byte values as arrays of decimal numbers.
#include <array>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/c1_output.hpp"

namespace cuzk::filecoin {

namespace {

class JsonWriter {
 public:
  explicit JsonWriter(std::size_t reserve) { s_.reserve(reserve); }

  void raw(std::string_view t) { s_.append(t); }
  void u64(std::uint64_t v) { s_.append(std::to_string(v)); }

  void bytes(const Bytes32& b) {
    static const auto digits = [] {
      std::array<std::string, 256> d;
      for (int i = 0; i < 256; ++i) d[static_cast<std::size_t>(i)] = std::to_string(i);
      return d;
    }();
    s_.push_back('[');
    for (std::size_t i = 0; i < 32; ++i) {
      if (i) s_.push_back(',');
      s_.append(digits[b[i]]);
    }
    s_.push_back(']');
  }
  void fr(const Fr& x) { bytes(x.to_bytes_le()); }

  void frs(std::span<const Fr> xs) {
    s_.push_back('[');
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (i) s_.push_back(',');
      fr(xs[i]);
    }
    s_.push_back(']');
  }

  // InclusionPath {"path": [PathElement {"hashes", "index"}]}.
  void path(std::span<const PathLevel> levels) {
    raw("{\"path\":[");
    for (std::size_t i = 0; i < levels.size(); ++i) {
      if (i) s_.push_back(',');
      raw("{\"hashes\":");
      frs(levels[i].siblings);
      raw(",\"index\":");
      u64(levels[i].index);
      s_.push_back('}');
    }
    raw("]}");
  }

  void merkle_proof(const InclusionProof& p) {
    const std::size_t upper = p.kind == MerkleProofKind::Single ? 0 : p.kind == MerkleProofKind::Sub ? 1 : 2;
    if (p.path.size() < upper) throw std::invalid_argument("encode_c1_json: a Sub/Top proof with too few levels");
    const std::span<const PathLevel> path(p.path);
    const std::size_t base = path.size() - upper;
    if (p.kind == MerkleProofKind::Single) {
      raw("{\"data\":{\"Single\":{\"root\":");
      fr(p.root);
      raw(",\"leaf\":");
      fr(p.leaf);
      raw(",\"path\":");
      this->path(path);
      raw("}}}");
      return;
    }
    raw(p.kind == MerkleProofKind::Sub ? "{\"data\":{\"Sub\":{\"base_proof\":" : "{\"data\":{\"Top\":{\"base_proof\":");
    this->path(path.first(base));
    raw(",\"sub_proof\":");
    this->path(path.subspan(base, 1));
    if (p.kind == MerkleProofKind::Top) {
      raw(",\"top_proof\":");
      this->path(path.subspan(base + 1, 1));
    }
    raw(",\"root\":");
    fr(p.root);
    raw(",\"leaf\":");
    fr(p.leaf);
    raw("}}}");
  }

  void column(const ColumnOpening& c) {
    raw("{\"column\":{\"index\":");
    u64(c.index);
    raw(",\"rows\":");
    frs(c.rows);
    raw(",\"_h\":null},\"inclusion_proof\":");
    merkle_proof(c.tree_c);
    s_.push_back('}');
  }

  void columns(std::span<const ColumnOpening> cs) {
    s_.push_back('[');
    for (std::size_t i = 0; i < cs.size(); ++i) {
      if (i) s_.push_back(',');
      column(cs[i]);
    }
    s_.push_back(']');
  }

  void label(const LabelingProof& l) {
    raw("{\"parents\":");
    frs(l.parents);
    raw(",\"layer_index\":");
    u64(l.layer_index);
    raw(",\"node\":");
    u64(l.node);
    s_.push_back('}');
  }

  void proof(const PorepVanillaProof& p) {
    raw("{\"comm_d_proofs\":");
    merkle_proof(p.comm_d_proof);
    raw(",\"comm_r_last_proof\":");
    merkle_proof(p.comm_r_last_proof);
    raw(",\"replica_column_proofs\":{\"c_x\":");
    column(p.c_x);
    raw(",\"drg_parents\":");
    columns(p.drg_parents);
    raw(",\"exp_parents\":");
    columns(p.exp_parents);
    raw("},\"labeling_proofs\":[");
    for (std::size_t i = 0; i < p.labeling_proofs.size(); ++i) {
      if (i) s_.push_back(',');
      label(p.labeling_proofs[i]);
    }
    raw("],\"encoding_proof\":");
    label(p.encoding_proof);
    s_.push_back('}');
  }

  std::string take() && { return std::move(s_); }

 private:
  std::string s_;
};

// About 116 bytes per 32-byte value; the values dominate.
std::size_t estimate(const SealCommitPhase1& c1) {
  std::size_t values = 0;
  for (const auto& part : c1.partitions)
    for (const PorepVanillaProof& p : part) {
      values += 2 * (p.comm_d_proof.path.size() + p.comm_r_last_proof.path.size() * 8);
      values += (1 + p.drg_parents.size() + p.exp_parents.size()) * (p.c_x.rows.size() + p.c_x.tree_c.path.size() * 8);
      values += (p.labeling_proofs.size() + 1) * kSdrLabelParents;
    }
  return values * 120 + 4096;
}

}  // namespace

std::string encode_c1_json(const SealCommitPhase1& c1) {
  const SealProofInfo& info = seal_proof_info(c1.registered_proof);
  JsonWriter w(estimate(c1));
  w.raw("{\"registered_proof\":\"");
  w.raw(info.name);
  w.raw("\",\"vanilla_proofs\":{\"");
  w.raw(vanilla_seal_proof_variant(info.sector_size));
  w.raw("\":[");
  for (std::size_t k = 0; k < c1.partitions.size(); ++k) {
    if (k) w.raw(",");
    w.raw("[");
    for (std::size_t i = 0; i < c1.partitions[k].size(); ++i) {
      if (i) w.raw(",");
      w.proof(c1.partitions[k][i]);
    }
    w.raw("]");
  }
  w.raw("]},\"comm_r\":");
  w.fr(c1.comm_r);
  w.raw(",\"comm_d\":");
  w.fr(c1.comm_d);
  w.raw(",\"replica_id\":");
  w.fr(c1.replica_id);
  w.raw(",\"seed\":");
  w.bytes(c1.seed);
  w.raw(",\"ticket\":");
  w.bytes(c1.ticket);
  w.raw("}");
  return std::move(w).take();
}

}  // namespace cuzk::filecoin
