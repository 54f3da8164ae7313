// The StackedDRG (SDR PoRep) circuit of one partition, as storage-proofs-porep
// stacked/circuit/proof.rs (StackedCircuit) and params.rs (Proof::synthesize) make it:
//   replica_id (allocated, public, its bits), comm_d and comm_r (public), comm_r_last and comm_c,
//   comm_r = Poseidon2(comm_c, comm_r_last); then per challenge ("challenge_i"):
//     the data leaf in TreeD (binary SHA-256); the 6 DRG and 8 expander parents' columns, each
//     hashed (Poseidon of arity = layers) and proved in TreeC; the challenge as a UInt64 input;
//     per layer the label from 37 parent labels (create_label); the encoded node (data + last
//     label) in TreeR; the challenged column's hash in TreeC.
// Public inputs in generate_public_inputs order: replica_id, comm_d, comm_r, then per challenge
// the leaf indices of the inclusion proofs (TreeD, 6 DRG parents, 8 expander parents), the
// challenge, TreeR, TreeC.
//
// Challenges share the header's wires (replica id bits, comm_d, comm_c, comm_r_last) but no
// other: in witness-only mode (values only) each challenge may be synthesized by its own
// constraint system and the assignments concatenated (porep_witness.hpp), the same assignment.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/create_label.hpp"
#include "cuzk/filecoin/encode.hpp"
#include "cuzk/filecoin/hashers.hpp"
#include "cuzk/filecoin/por.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

inline constexpr std::size_t kSdrDrgParents = 6;  // BASE_DEGREE
inline constexpr std::size_t kSdrExpParents = 8;  // EXP_DEGREE

struct PorepShape {
  TreeShape tree;            // TreeR and TreeC (Poseidon)
  std::uint64_t nodes = 0;   // sector nodes: leaves of every tree
  std::size_t layers = 0;    // SDR layers (column hash arity: 2 or 11)
  std::size_t challenges = 0;  // per partition
  bool operator==(const PorepShape&) const = default;
};

// The circuit shape of a registered seal proof's interactive PoRep partition: its tree, nodes and
// layers, and ceil(minimum challenges / partitions) challenges (filecoin-proofs constants.rs
// get_porep_interactive_minimum_challenges: 2 for the test sizes, 176 for 32 and 64 GiB, over 1
// or 10 partitions: 2 or 18 per partition). NI-PoRep proofs are not covered here.
PorepShape porep_shape(const SealProofInfo& info);

// A column of the SDR layers at one node, proved in TreeC.
struct PorepColumn {
  std::vector<Fr> rows;  // layer 1 first
  std::vector<PathLevel> path;
};

struct PorepChallengeValues {
  std::uint64_t challenge = 0;
  Fr data_leaf;
  std::vector<PathLevel> comm_d_path;      // TreeD, binary
  std::vector<PathLevel> comm_r_last_path;  // TreeR
  std::vector<PathLevel> comm_c_path;       // TreeC: the challenged column
  std::vector<PorepColumn> drg_parents;     // 6
  std::vector<PorepColumn> exp_parents;     // 8
};

struct PorepHeaderValues {
  Fr replica_id, comm_d, comm_r, comm_r_last, comm_c;
};

// The header's wires the challenges use.
struct PorepHeader {
  std::vector<Boolean> replica_id_bits;  // reverse_bit_numbering of its 255 little-endian bits
  AllocatedNum comm_d, comm_c, comm_r_last;
};

PorepChallengeValues blank_porep_challenge(const PorepShape& shape);

class StackedCircuit {
 public:
  StackedCircuit(PorepShape shape, PorepHeaderValues header, std::vector<PorepChallengeValues> challenges);
  static StackedCircuit blank(const PorepShape& shape);

  const PorepShape& shape() const { return shape_; }
  std::size_t num_challenges() const { return ch_.size(); }

  template <class CS>
  PorepHeader synthesize_header(CS& cs) const;
  template <class CS>
  void synthesize_challenge(CS& cs, std::size_t i, const PorepHeader& h) const {
    cs::Namespace ns(cs, [i] { return "challenge_" + std::to_string(i); });
    synthesize_proof(cs, ch_.at(i), h);
  }
  template <class CS>
  void synthesize(CS& cs) const {
    const PorepHeader h = synthesize_header(cs);
    for (std::size_t i = 0; i < ch_.size(); ++i) synthesize_challenge(cs, i, h);
  }

 private:
  template <class CS>
  std::vector<AllocatedNum> alloc_column(CS& cs, const PorepColumn& c) const;
  template <class CS>
  static AllocatedNum hash_column(CS& cs, std::span<const AllocatedNum> rows) {
    return poseidon_hash_circuit(cs, rows, poseidon_constants(rows.size()));
  }
  template <class CS>
  void synthesize_proof(CS& cs, const PorepChallengeValues& p, const PorepHeader& h) const;

  PorepShape shape_;
  PorepHeaderValues hv_;
  std::vector<PorepChallengeValues> ch_;
};

template <class CS>
PorepHeader StackedCircuit::synthesize_header(CS& cs) const {
  auto alloc = [&](const char* name, const Fr& v) {
    cs::Namespace ns(cs, name);
    return AllocatedNum::alloc(cs, "num", [&] { return v; });
  };
  auto inputize = [&](const char* name, const AllocatedNum& n) {
    cs::Namespace ns(cs, name);
    n.inputize(cs);
  };
  PorepHeader h;
  const AllocatedNum replica_id = alloc("replica_id", hv_.replica_id);
  inputize("replica_id_input", replica_id);
  {
    cs::Namespace ns(cs, "replica_id_bits");
    h.replica_id_bits = reverse_bit_numbering(replica_id.to_bits_le(cs));
  }
  h.comm_d = alloc("comm_d", hv_.comm_d);
  inputize("comm_d_input", h.comm_d);
  const AllocatedNum comm_r = alloc("comm_r", hv_.comm_r);
  inputize("comm_r_input", comm_r);
  h.comm_r_last = alloc("comm_r_last", hv_.comm_r_last);
  h.comm_c = alloc("comm_c", hv_.comm_c);
  AllocatedNum hash;
  {
    cs::Namespace ns(cs, "H_comm_c_comm_r_last");
    hash = PoseidonHasher::hash2(cs, h.comm_c, h.comm_r_last);
  }
  enforce_equal(cs, "enforce comm_r = H(comm_c || comm_r_last)", comm_r, hash);
  return h;
}

template <class CS>
std::vector<AllocatedNum> StackedCircuit::alloc_column(CS& cs, const PorepColumn& c) const {
  cs::Namespace ns(cs, "column");
  std::vector<AllocatedNum> rows;
  rows.reserve(c.rows.size());
  for (std::size_t r = 0; r < c.rows.size(); ++r) {
    cs::Namespace nr(cs, [r] { return "column_num_row_" + std::to_string(r); });
    rows.push_back(AllocatedNum::alloc(cs, "num", [&] { return c.rows[r]; }));
  }
  return rows;
}

template <class CS>
void StackedCircuit::synthesize_proof(CS& cs, const PorepChallengeValues& p, const PorepHeader& h) const {
  const TreeShape tree_d{2, 0, 0};
  AllocatedNum data_leaf;
  {
    cs::Namespace ns(cs, "data_leaf");
    data_leaf = AllocatedNum::alloc(cs, "num", [&] { return p.data_leaf; });
  }
  {
    cs::Namespace ns(cs, "comm_d_inclusion");
    enforce_inclusion<Sha256Hasher>(cs, tree_d, shape_.nodes, p.comm_d_path, h.comm_d, data_leaf);
  }
  // Parent columns: allocated, hashed, proved in TreeC.
  auto parents = [&](const std::vector<PorepColumn>& cols, const char* kind) {
    std::vector<std::vector<AllocatedNum>> out;
    for (std::size_t i = 0; i < cols.size(); ++i) {
      std::vector<AllocatedNum> rows;
      {
        cs::Namespace ns(cs, [kind, i] { return std::string(kind) + "_" + std::to_string(i) + "_num"; });
        rows = alloc_column(cs, cols[i]);
      }
      AllocatedNum val;
      {
        cs::Namespace ns(cs, [kind, i] { return std::string(kind) + "_" + std::to_string(i) + "_constraint"; });
        val = hash_column(cs, std::span<const AllocatedNum>(rows));
      }
      {
        cs::Namespace ns(cs, [kind, i] { return std::string(kind) + "_" + std::to_string(i) + "_inclusion"; });
        enforce_inclusion<PoseidonHasher>(cs, shape_.tree, shape_.nodes, cols[i].path, h.comm_c, val);
      }
      out.push_back(std::move(rows));
    }
    return out;
  };
  const auto drg = parents(p.drg_parents, "drg_parent");
  const auto exp = parents(p.exp_parents, "exp_parent");

  UInt64 challenge;
  {
    cs::Namespace ns(cs, "challenge");
    challenge = UInt64::alloc(cs, p.challenge);
  }
  {
    cs::Namespace ns(cs, "challenge input");
    challenge.pack_into_input(cs);
  }
  std::vector<AllocatedNum> labels;
  for (std::size_t layer = 1; layer <= shape_.layers; ++layer) {
    cs::Namespace nl(cs, [layer] { return "labeling_" + std::to_string(layer); });
    std::vector<std::vector<Boolean>> bits;
    auto parent_bits = [&](const AllocatedNum& v, const char* kind) {
      const std::size_t k = bits.size();
      cs::Namespace ns(cs, [kind, k] { return std::string(kind) + "_" + std::to_string(k) + "_bits"; });
      bits.push_back(reverse_bit_numbering(v.to_bits_le(cs)));
    };
    for (const auto& col : drg) parent_bits(col[layer - 1], "drg_parent");
    if (layer > 1)  // expander parents have no first-layer value: rows are shifted by one
      for (const auto& col : exp) parent_bits(col[layer - 2], "exp_parent");
    // The hashing order repeats the parents to 37: 14 of them twice then the first 9 (layers > 1),
    // or the 6 DRG parents six times then the first (layer 1).
    std::vector<std::vector<Boolean>> expanded = bits;
    if (layer > 1) {
      expanded.insert(expanded.end(), bits.begin(), bits.end());
      expanded.insert(expanded.end(), bits.begin(), bits.begin() + 9);
    } else {
      for (int rep = 0; rep < 5; ++rep) expanded.insert(expanded.end(), bits.begin(), bits.end());
      expanded.push_back(bits[0]);
    }
    cs::Namespace nc(cs, "create_label");
    labels.push_back(create_label_circuit(cs, std::span<const Boolean>(h.replica_id_bits), expanded,
                                          UInt32::constant(static_cast<std::uint32_t>(layer)), challenge));
  }
  {
    AllocatedNum encoded;
    {
      cs::Namespace ns(cs, "encode_node");
      encoded = encode(cs, labels.back(), data_leaf);
    }
    cs::Namespace ns(cs, "comm_r_last_data_inclusion");
    enforce_inclusion<PoseidonHasher>(cs, shape_.tree, shape_.nodes, p.comm_r_last_path, h.comm_r_last, encoded);
  }
  AllocatedNum column_hash;
  {
    cs::Namespace ns(cs, "c_x_column_hash");
    column_hash = hash_column(cs, std::span<const AllocatedNum>(labels));
  }
  cs::Namespace ns(cs, "c_x_inclusion");
  enforce_inclusion<PoseidonHasher>(cs, shape_.tree, shape_.nodes, p.comm_c_path, h.comm_c, column_hash);
}

inline PorepShape porep_shape(const SealProofInfo& info) {
  if (info.feature == SealFeature::NonInteractivePoRep)
    throw std::invalid_argument(std::string(info.name) + ": non-interactive PoRep is not supported yet");
  const std::size_t minimum = info.sector_size >= kSectorSize32GiB ? 176 : 2;
  const std::size_t per = (minimum + info.porep_partitions - 1) / info.porep_partitions;
  return PorepShape{info.tree, info.nodes, info.layers, per};
}

inline PorepChallengeValues blank_porep_challenge(const PorepShape& shape) {
  PorepChallengeValues v;
  auto blank_path = [](const TreeShape& t, std::uint64_t nodes) {
    std::vector<PathLevel> p;
    for (unsigned a : t.level_arities(nodes)) p.push_back(PathLevel{std::vector<Fr>(a - 1, Fr::zero()), 0});
    return p;
  };
  v.comm_d_path = blank_path(TreeShape{2, 0, 0}, shape.nodes);
  v.comm_r_last_path = blank_path(shape.tree, shape.nodes);
  v.comm_c_path = v.comm_r_last_path;
  const PorepColumn col{std::vector<Fr>(shape.layers, Fr::zero()), v.comm_r_last_path};
  v.drg_parents.assign(kSdrDrgParents, col);
  v.exp_parents.assign(kSdrExpParents, col);
  return v;
}

inline StackedCircuit::StackedCircuit(PorepShape shape, PorepHeaderValues header, std::vector<PorepChallengeValues> ch)
    : shape_(shape), hv_(header), ch_(std::move(ch)) {
  if (shape_.layers != 2 && shape_.layers != 11)
    throw std::invalid_argument("StackedCircuit: " + std::to_string(shape_.layers) + " layers (column hashes take 2 or 11)");
  if (ch_.size() != shape_.challenges)
    throw std::invalid_argument("StackedCircuit: " + std::to_string(ch_.size()) + " challenges for a partition of " +
                                std::to_string(shape_.challenges));
  for (std::size_t i = 0; i < ch_.size(); ++i) {
    const auto& p = ch_[i];
    auto bad = [i](const std::string& what) {
      throw std::invalid_argument("StackedCircuit: challenge " + std::to_string(i) + ": " + what);
    };
    if (p.drg_parents.size() != kSdrDrgParents || p.exp_parents.size() != kSdrExpParents) bad("parent count");
    por_detail::check_path(TreeShape{2, 0, 0}, shape_.nodes, p.comm_d_path);
    por_detail::check_path(shape_.tree, shape_.nodes, p.comm_r_last_path);
    por_detail::check_path(shape_.tree, shape_.nodes, p.comm_c_path);
    for (const auto* cols : {&p.drg_parents, &p.exp_parents})
      for (const auto& c : *cols) {
        if (c.rows.size() != shape_.layers) bad("a parent column has " + std::to_string(c.rows.size()) + " rows");
        por_detail::check_path(shape_.tree, shape_.nodes, c.path);
      }
  }
}

inline StackedCircuit StackedCircuit::blank(const PorepShape& shape) {
  return StackedCircuit(shape, PorepHeaderValues{}, std::vector<PorepChallengeValues>(shape.challenges, blank_porep_challenge(shape)));
}

}  // namespace cuzk::filecoin
