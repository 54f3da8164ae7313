// neptune 11's legacy Poseidon circuit (src/circuit.rs poseidon_hash, not circuit2), the one
// rust-fil-proofs synthesizes for every Poseidon hash (filecoin-hashers PoseidonFunction::
// hash2_circuit / hash_multi_leaf_circuit, storage-proofs-update's gen-randomness hashes), with
// its constraints, wires and linear combinations in the same order and places.
//
// The state holds neptune's Elt: an allocated wire, or a Num (a linear combination not yet
// allocated). state = [Num(tag), inputs...]. Per S-box on element e (namespace "quintic s-box i"):
//   l  = e if allocated, else a new wire with  lc(e) · 1 = l      ("enforce num allocation ...")
//   l2 = l^2        l · l = l2                (first round: (l + pre)·(l + pre) = l2)
//   l4 = l2^2       l2 · l2 = l4
//   l5 = l4·l + k   l · l4 = l5 - k           (first round: (l + pre)·l4 = l5 - post)
// The tag's first S-box is a constant. After each round the state is multiplied by a matrix
// (m; the pre-sparse matrix after round R_F/2 - 1; a sparse matrix per partial round) without
// constraints: every element becomes a Num. The digest is state[1], allocated the same way.
// Constraints (circuit.rs test_poseidon_hash): 3·(width·R_F + R_P - 1) + width·R_F + R_P - arity, i.e.
// 311, 377, 505, 598 for arity 2, 4, 8, 11.
//
// Witness mode (CS::kRecords false) carries values only: no linear combination is built and
// the state lives in fixed arrays (no heap allocation besides the constraint system's own).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/num.hpp"
#include "cuzk/filecoin/poseidon_constants.hpp"

namespace cuzk::filecoin {

namespace poseidon_detail {

// a + s·b for linear combinations whose terms are sorted by wire and merged (as compact()
// leaves them and bellpepper's Indexer keeps them); the result is sorted and merged too, so
// scalar products cost no sorting. Zero sums are dropped (RecordCS drops them anyway).
inline Lc axpy_sorted(const Lc& a, const Lc& b, const Fr& s) {
  Lc r;
  r.reserve(a.size() + b.size());
  const auto& x = a.terms();
  const auto& y = b.terms();
  std::size_t i = 0, j = 0;
  while (i < x.size() || j < y.size()) {
    if (j == y.size() || (i < x.size() && x[i].first.raw() < y[j].first.raw())) {
      r.add(x[i].first, x[i].second);
      ++i;
    } else if (i == x.size() || y[j].first.raw() < x[i].first.raw()) {
      r.add(y[j].first, s * y[j].second);
      ++j;
    } else {
      r.add(x[i].first, x[i].second + s * y[j].second);
      ++i, ++j;
    }
  }
  return r;
}

template <class CS>
class LegacyPoseidon {
  static constexpr bool kLc = CS::kRecords;
  static constexpr bool kVal = CS::kHasValues;  // counting and recording modes skip the arithmetic

 public:
  LegacyPoseidon(CS& cs, const PoseidonConstants& c) : cs_(cs), c_(c), w_(c.width) {
    if (w_ > kPoseidonMaxWidth || c.compressed_round_constants.size() != w_ * c.full_rounds + c.partial_rounds)
      throw std::invalid_argument("poseidon_hash_circuit: inconsistent constants");
    if constexpr (kLc) lc_.resize(w_), next_lc_.resize(w_);
  }

  // PoseidonCircuit::hash.
  AllocatedNum hash(std::span<const AllocatedNum> preimage) {
    if (preimage.size() != c_.arity)
      throw std::invalid_argument("poseidon_hash_circuit: " + std::to_string(preimage.size()) +
                                  " inputs for arity " + std::to_string(c_.arity));
    set_constant(0, c_.domain_tag);
    for (std::size_t i = 1; i < w_; ++i) set_allocated(i, preimage[i - 1].variable(), preimage[i - 1].value());
    {
      cs::Namespace ns(cs_, "first round");
      first_round();
    }
    for (std::size_t r = 1; r < c_.half_full_rounds; ++r) {
      cs::Namespace ns(cs_, [r] { return "initial full round " + std::to_string(r); });
      full_round(false);
    }
    for (std::size_t r = 0; r < c_.partial_rounds; ++r) {
      cs::Namespace ns(cs_, [r] { return "partial round " + std::to_string(r); });
      partial_round();
    }
    for (std::size_t r = 0; r + 1 < c_.half_full_rounds; ++r) {
      cs::Namespace ns(cs_, [r] { return "final full round " + std::to_string(r); });
      full_round(false);
    }
    {
      cs::Namespace ns(cs_, "terminal full round");
      full_round(true);
    }
    cs::Namespace ns(cs_, "hash result");
    return AllocatedNum(ensure_allocated(1), val_[1]);
  }

 private:
  // Elt::num_from_fr: the constant as a Num (coefficient on ONE).
  void set_constant(std::size_t i, const Fr& v) {
    val_[i] = v;
    allocated_[i] = false;
    if constexpr (kLc) lc_[i] = Lc::constant(v);
  }
  // Elt::Allocated; lc_[i] keeps Elt::lc (the wire with coefficient 1) for the products.
  void set_allocated(std::size_t i, Variable v, const Fr& value) {
    val_[i] = value;
    var_[i] = v;
    allocated_[i] = true;
    if constexpr (kLc) lc_[i] = Lc(v);
  }

  // Elt::ensure_allocated(cs, enforce = true); the caller has opened the namespace.
  Variable ensure_allocated(std::size_t i) {
    if (allocated_[i]) return var_[i];
    Variable v;
    {
      cs::Namespace ns(cs_, "allocate for Elt::Num");
      v = cs_.alloc("num", [&] { return val_[i]; });
    }
    cs_.enforce("enforce num allocation preserves lc", [&] { return lc_[i]; }, Variable::one(), v);
    return v;
  }

  // AllocatedNum::square.
  Variable square(Variable x, const Fr& x_val, Fr& out) {
    if constexpr (kVal) out = x_val.square();
    const Fr& o = out;
    Variable r = cs_.alloc("squared num", [&] { return o; });
    cs_.enforce("squaring constraint", x, x, r);
    return r;
  }

  // circuit.rs square_sum: (num + to_add)^2, enforced as (num + to_add)·(num + to_add) = res.
  Variable square_sum(Variable num, const Fr& num_val, const Fr& to_add, Fr& out) {
    if constexpr (kVal) out = (num_val + to_add).square();
    const Fr& o = out;
    Variable r;
    {
      cs::Namespace ns(cs_, "squared sum");
      r = cs_.alloc("num", [&] { return o; });
    }
    auto a = [&] { return Lc(num).add_constant(to_add); };
    cs_.enforce("squared sum constraint", a, a, r);
    return r;
  }

  // circuit.rs mul_sum: a·(b + pre) + post, enforced as (b + pre)·a = res - post.
  Variable mul_sum(Variable a, const Fr& a_val, Variable b, const Fr& b_val, const std::optional<Fr>& pre,
                   const std::optional<Fr>& post, Fr& out) {
    Fr v = b_val;
    if constexpr (kVal) {
      if (pre) v += *pre;
      v *= a_val;
      if (post) v += *post;
    }
    out = v;
    Variable r;
    {
      cs::Namespace ns(cs_, "mul_sum");
      r = cs_.alloc("num", [&] { return v; });
    }
    auto lhs = [&] {
      Lc l(b);
      if (pre) l.add_constant(*pre);
      return l;
    };
    auto rhs = [&] {
      Lc l(r);
      if (post) l.add_constant(-*post);
      return l;
    };
    const char* name = post ? (pre ? "mul sum constraint pre-post-add" : "mul sum constraint post-add")
                            : (pre ? "mul sum constraint pre-add" : "mul sum constraint");
    cs_.enforce(name, lhs, a, rhs);
    return r;
  }

  // circuit.rs quintic_s_box: l^5 + post_key.
  void quintic_s_box(std::size_t i, const std::optional<Fr>& post_key) {
    Variable l;
    {
      cs::Namespace ns(cs_, "S-box input");
      l = ensure_allocated(i);
    }
    const Fr l_val = val_[i];
    Fr l2_val, l4_val, l5_val;
    Variable l2, l4, l5;
    {
      cs::Namespace ns(cs_, "l^2");
      l2 = square(l, l_val, l2_val);
    }
    {
      cs::Namespace ns(cs_, "l^4");
      l4 = square(l2, l2_val, l4_val);
    }
    {
      cs::Namespace ns(cs_, "(l4 * l) + rk)");
      l5 = mul_sum(l4, l4_val, l, l_val, std::nullopt, post_key, l5_val);
    }
    set_allocated(i, l5, l5_val);
  }

  // circuit.rs quintic_s_box_pre_add: (l + pre)^5 + post.
  void quintic_s_box_pre_add(std::size_t i, const Fr& pre, const Fr& post) {
    Variable l;
    {
      cs::Namespace ns(cs_, "S-box input");
      l = ensure_allocated(i);
    }
    const Fr l_val = val_[i];
    Fr l2_val, l4_val, l5_val;
    Variable l2, l4, l5;
    {
      cs::Namespace ns(cs_, "(l+rk)^2");
      l2 = square_sum(l, l_val, pre, l2_val);
    }
    {
      cs::Namespace ns(cs_, "l^4");
      l4 = square(l2, l2_val, l4_val);
    }
    {
      cs::Namespace ns(cs_, "l4 * (l + rk)");
      l5 = mul_sum(l4, l4_val, l, l_val, pre, post, l5_val);
    }
    set_allocated(i, l5, l5_val);
  }

  // full_round(first_round = true): keys before (round 0's) and after the S-boxes; the tag's
  // S-box is computed as a constant (constant_quintic_s_box_pre_add_tag).
  void first_round() {
    const Fr* pre = c_.compressed_round_constants.data() + offset_;
    const Fr* post = pre + w_;
    offset_ += 2 * w_;
    const Fr t = val_[0] + pre[0];
    set_constant(0, t.square().square() * t + post[0]);
    for (std::size_t i = 1; i < w_; ++i) {
      cs::Namespace ns(cs_, [i] { return "quintic s-box " + std::to_string(i); });
      quintic_s_box_pre_add(i, pre[i], post[i]);
    }
    product_mds();
  }

  // full_round(first_round = false, last_round): keys after the S-boxes except in the last.
  void full_round(bool last) {
    const Fr* post = c_.compressed_round_constants.data() + offset_;
    if (!last) offset_ += w_;
    for (std::size_t i = 0; i < w_; ++i) {
      cs::Namespace ns(cs_, [i] { return "quintic s-box " + std::to_string(i); });
      quintic_s_box(i, last ? std::nullopt : std::optional<Fr>(post[i]));
    }
    product_mds();
  }

  void partial_round() {
    const Fr key = c_.compressed_round_constants[offset_++];
    {
      cs::Namespace ns(cs_, "solitary quintic s-box");
      quintic_s_box(0, key);
    }
    product_mds();
  }

  // PoseidonCircuit::product_mds: which matrix follows round `round_`.
  void product_mds() {
    const std::size_t sparse_offset = c_.half_full_rounds - 1;
    if (round_ == sparse_offset)
      product_dense(c_.pre_sparse_matrix);
    else if (round_ > sparse_offset && round_ < c_.half_full_rounds + c_.partial_rounds)
      product_sparse(c_.sparse_matrices[round_ - sparse_offset - 1]);
    else
      product_dense(c_.m);
    ++round_;
  }

  // product_mds_with_matrix: new[j] = scalar_product(state, column j) = sum_i m[i][j]·state[i].
  void product_dense(const PoseidonMatrix& m) {
    for (std::size_t j = 0; j < w_; ++j) {
      if constexpr (kVal) {
        Fr acc = Fr::zero();
        for (std::size_t i = 0; i < w_; ++i) acc += m.at(i, j) * val_[i];
        next_val_[j] = acc;
      }
      if constexpr (kLc) {  // the inputs are S-box wires (and round 0's constant): sort once
        Lc& lc = next_lc_[j];
        lc = Lc();
        for (std::size_t i = 0; i < w_; ++i) lc.add_scaled(lc_[i], m.at(i, j));
        lc.compact();
      }
    }
    for (std::size_t j = 0; j < w_; ++j) {
      val_[j] = next_val_[j];
      allocated_[j] = false;
    }
    if constexpr (kLc) lc_.swap(next_lc_);
  }

  // product_mds_with_sparse_matrix: new[0] = scalar_product(state, w_hat); new[j] = state[j] +
  // v_rest[j-1]·state[0] (Elt::add: state[j] must be a Num, as it always is here).
  void product_sparse(const PoseidonSparseMatrix& s) {
    Fr acc = Fr::zero();
    if constexpr (kVal)
      for (std::size_t i = 0; i < w_; ++i) acc += s.w_hat[i] * val_[i];
    Lc lc0;
    if constexpr (kLc)
      for (std::size_t i = 0; i < w_; ++i) lc0 = axpy_sorted(lc0, lc_[i], s.w_hat[i]);
    for (std::size_t j = 1; j < w_; ++j) {
      if (allocated_[j]) throw std::logic_error("poseidon_hash_circuit: only two Nums may be added");
      if constexpr (kVal) val_[j] += s.v_rest[j - 1] * val_[0];
      if constexpr (kLc) lc_[j] = axpy_sorted(lc_[j], lc_[0], s.v_rest[j - 1]);
    }
    val_[0] = acc;
    allocated_[0] = false;
    if constexpr (kLc) lc_[0] = std::move(lc0);
  }

  CS& cs_;
  const PoseidonConstants& c_;
  std::size_t w_;
  std::size_t offset_ = 0;  // next compressed round constant
  std::size_t round_ = 0;   // rounds whose matrix has been applied
  std::array<Fr, kPoseidonMaxWidth> val_{}, next_val_{};
  std::array<Variable, kPoseidonMaxWidth> var_{};
  std::array<bool, kPoseidonMaxWidth> allocated_{};
  std::vector<Lc> lc_, next_lc_;  // Elt::lc of each element (recording modes only)
};

}  // namespace poseidon_detail

// neptune circuit::poseidon_hash(cs, preimage, constants): preimage.size() == arity. Opens no
// namespace of its own (callers pass theirs, as the Rust callers pass cs.namespace(..)).
template <class CS>
AllocatedNum poseidon_hash_circuit(CS& cs, std::span<const AllocatedNum> preimage, const PoseidonConstants& c) {
  return poseidon_detail::LegacyPoseidon<CS>(cs, c).hash(preimage);
}

// filecoin-hashers PoseidonFunction::hash2_circuit: the arity-2 MerkleTree hash of (a, b).
template <class CS>
AllocatedNum hash2_circuit(CS& cs, const AllocatedNum& a, const AllocatedNum& b) {
  const AllocatedNum in[2] = {a, b};
  return poseidon_hash_circuit(cs, std::span<const AllocatedNum>(in), poseidon_constants(2));
}

}  // namespace cuzk::filecoin
