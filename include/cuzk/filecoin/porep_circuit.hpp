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
// other, and a challenge is synthesized in steps (PorepStep) that share a few wires: in
// witness-only mode (values only) the steps of all challenges may be synthesized concurrently,
// each writing its wires at their place in the assignment (porep_witness.hpp).
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
#include "cuzk/filecoin/uint64.hpp"

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

// A challenge (params.rs Proof::synthesize) is synthesized in steps, in allocation order:
//   data leaf; TreeD inclusion; per parent (6 DRG then 8 expander) its column's rows, then the
//   column hashed and proved in TreeC; the challenge (bits and input); per layer the labeling;
//   the encoded node in TreeR; the challenged column's hash in TreeC.
// A step reads earlier steps' wires only through PorepChallengeWires: the TreeD proof, the
// parent proofs and the labelings read only the small steps' wires (data leaf, parent rows,
// challenge bits), the last two steps the labels. In witness mode, where a gadget reads its
// operands' values and never their wire numbers, these may run concurrently, each writing its
// wires at fixed offsets (porep_witness.hpp).
struct PorepStep {
  enum Kind : std::uint8_t { kDataLeaf, kCommD, kParentRows, kParentProof, kChallenge, kLabel, kCommRLast, kColumnC };
  Kind kind;
  std::size_t index = 0;  // the parent (0..13: DRG then expander) or the layer (1 first)
};

struct PorepChallengeWires {
  AllocatedNum data_leaf;
  std::vector<std::vector<AllocatedNum>> parents;  // each parent column's rows
  UInt64 challenge;
  std::vector<AllocatedNum> labels;  // the challenged node's column, layer 1 first
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
    PorepChallengeWires w = challenge_wires();
    for (const PorepStep& s : challenge_steps()) synthesize_step(cs, ch_.at(i), s, h, w);
  }
  // The steps of a challenge (the same for every challenge), wires sized for them, and one step
  // (without the "challenge_i" namespace synthesize_challenge adds).
  std::vector<PorepStep> challenge_steps() const;
  PorepChallengeWires challenge_wires() const;
  template <class CS>
  void synthesize_step(CS& cs, std::size_t i, PorepStep step, const PorepHeader& h, PorepChallengeWires& w) const {
    synthesize_step(cs, ch_.at(i), step, h, w);
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
  void synthesize_step(CS& cs, const PorepChallengeValues& p, PorepStep step, const PorepHeader& h,
                       PorepChallengeWires& w) const;

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
void StackedCircuit::synthesize_step(CS& cs, const PorepChallengeValues& p, PorepStep step, const PorepHeader& h,
                                     PorepChallengeWires& w) const {
  const std::size_t k = step.index;
  // Parent k: DRG parents 0..5, then expander parents 0..7 (named by their own index).
  auto parent_name = [k](const char* what) {
    return [k, what] {
      return k < kSdrDrgParents ? "drg_parent_" + std::to_string(k) + what
                                : "exp_parent_" + std::to_string(k - kSdrDrgParents) + what;
    };
  };
  auto parent = [&]() -> const PorepColumn& {
    return k < kSdrDrgParents ? p.drg_parents.at(k) : p.exp_parents.at(k - kSdrDrgParents);
  };
  switch (step.kind) {
    case PorepStep::kDataLeaf: {
      cs::Namespace ns(cs, "data_leaf");
      w.data_leaf = AllocatedNum::alloc(cs, "num", [&] { return p.data_leaf; });
      return;
    }
    case PorepStep::kCommD: {
      cs::Namespace ns(cs, "comm_d_inclusion");
      enforce_inclusion<Sha256Hasher>(cs, TreeShape{2, 0, 0}, shape_.nodes, p.comm_d_path, h.comm_d, w.data_leaf);
      return;
    }
    case PorepStep::kParentRows: {  // the column's rows
      cs::Namespace ns(cs, parent_name("_num"));
      w.parents.at(k) = alloc_column(cs, parent());
      return;
    }
    case PorepStep::kParentProof: {  // the column hashed and proved in TreeC
      AllocatedNum val;
      {
        cs::Namespace ns(cs, parent_name("_constraint"));
        val = hash_column(cs, std::span<const AllocatedNum>(w.parents.at(k)));
      }
      cs::Namespace ns(cs, parent_name("_inclusion"));
      enforce_inclusion<PoseidonHasher>(cs, shape_.tree, shape_.nodes, parent().path, h.comm_c, val);
      return;
    }
    case PorepStep::kChallenge: {
      {
        cs::Namespace ns(cs, "challenge");
        w.challenge = UInt64::alloc(cs, p.challenge);
      }
      cs::Namespace ns(cs, "challenge input");
      w.challenge.pack_into_input(cs);
      return;
    }
    case PorepStep::kLabel: {  // index: the layer, 1 first
      const std::size_t layer = k;
      cs::Namespace nl(cs, [layer] { return "labeling_" + std::to_string(layer); });
      std::vector<std::vector<Boolean>> bits;
      auto parent_bits = [&](const AllocatedNum& v, const char* kind) {
        const std::size_t j = bits.size();
        cs::Namespace ns(cs, [kind, j] { return std::string(kind) + "_" + std::to_string(j) + "_bits"; });
        bits.push_back(reverse_bit_numbering(v.to_bits_le(cs)));
      };
      for (std::size_t j = 0; j < kSdrDrgParents; ++j) parent_bits(w.parents.at(j).at(layer - 1), "drg_parent");
      if (layer > 1)  // expander parents have no first-layer value: rows are shifted by one
        for (std::size_t j = kSdrDrgParents; j < kSdrDrgParents + kSdrExpParents; ++j)
          parent_bits(w.parents.at(j).at(layer - 2), "exp_parent");
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
      w.labels.at(layer - 1) = create_label_circuit(cs, std::span<const Boolean>(h.replica_id_bits), expanded,
                                                    UInt32::constant(static_cast<std::uint32_t>(layer)), w.challenge);
      return;
    }
    case PorepStep::kCommRLast: {  // the encoded node (data + last label) in TreeR
      AllocatedNum encoded;
      {
        cs::Namespace ns(cs, "encode_node");
        encoded = encode(cs, w.labels.back(), w.data_leaf);
      }
      cs::Namespace ns(cs, "comm_r_last_data_inclusion");
      enforce_inclusion<PoseidonHasher>(cs, shape_.tree, shape_.nodes, p.comm_r_last_path, h.comm_r_last, encoded);
      return;
    }
    case PorepStep::kColumnC: {  // the challenged column (the labels) hashed and proved in TreeC
      AllocatedNum column_hash;
      {
        cs::Namespace ns(cs, "c_x_column_hash");
        column_hash = hash_column(cs, std::span<const AllocatedNum>(w.labels));
      }
      cs::Namespace ns(cs, "c_x_inclusion");
      enforce_inclusion<PoseidonHasher>(cs, shape_.tree, shape_.nodes, p.comm_c_path, h.comm_c, column_hash);
      return;
    }
  }
  throw std::logic_error("StackedCircuit: unknown challenge step");
}

inline std::vector<PorepStep> StackedCircuit::challenge_steps() const {
  std::vector<PorepStep> s{{PorepStep::kDataLeaf, 0}, {PorepStep::kCommD, 0}};
  for (std::size_t k = 0; k < kSdrDrgParents + kSdrExpParents; ++k) {
    s.push_back({PorepStep::kParentRows, k});
    s.push_back({PorepStep::kParentProof, k});
  }
  s.push_back({PorepStep::kChallenge, 0});
  for (std::size_t layer = 1; layer <= shape_.layers; ++layer) s.push_back({PorepStep::kLabel, layer});
  s.push_back({PorepStep::kCommRLast, 0});
  s.push_back({PorepStep::kColumnC, 0});
  return s;
}

inline PorepChallengeWires StackedCircuit::challenge_wires() const {
  PorepChallengeWires w;
  w.parents.resize(kSdrDrgParents + kSdrExpParents);
  w.labels.resize(shape_.layers);
  return w;
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
