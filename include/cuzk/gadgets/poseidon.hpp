// Poseidon (HADES design, x^5 S-box) over any field: parameters, the native permutation, and the
// circuit. A hash of `arity` inputs uses width t = arity + 1: state = [first, inputs...]; each of
// R_F + R_P rounds adds t round constants, applies the S-box (all elements in the R_F/2 first and
// last full rounds, element 0 in the partial rounds) and multiplies by the MDS matrix; the digest
// is state[output]. circomlib: first = 0, output = 0. neptune (Filecoin): first = domain tag
// 2^arity - 1, output = 1.
//
// Circuit cost (matches neptune's): 3 constraints per non-constant S-box (x^2, x^4, x^5) and one
// allocation constraint for every state element that is S-boxed next (all after a full round,
// element 0 after a partial round) plus the output: 3(t·R_F + R_P - 1) + t·R_F + R_P - arity when
// the first element is a constant.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/gadgets/num.hpp"

namespace cuzk::gadgets {

template <class F>
struct PoseidonParams {
  std::size_t t = 0, full_rounds = 0, partial_rounds = 0;
  std::vector<F> round_constants;  // t·(R_F + R_P); round r, element i at r·t + i
  std::vector<F> mds;              // t·t row-major: new[i] = sum_j mds[i·t + j]·old[j]
  F first = F::zero();             // initial state[0]
  std::size_t output = 0;          // digest = state[output]
  std::size_t arity() const { return t - 1; }
  bool is_full(std::size_t r) const { return r < full_rounds / 2 || r >= full_rounds / 2 + partial_rounds; }
  void validate() const {
    if (t < 2 || full_rounds % 2 || round_constants.size() != t * (full_rounds + partial_rounds) ||
        mds.size() != t * t || output >= t)
      throw std::invalid_argument("PoseidonParams: inconsistent sizes");
  }
};

template <class F>
F pow5(const F& x) {
  const F x2 = x.square();
  return x2.square() * x;
}

template <class F>
void poseidon_permute(const PoseidonParams<F>& p, std::span<F> state) {
  const std::size_t t = p.t;
  if (state.size() != t) throw std::invalid_argument("poseidon_permute: state size != t");
  std::vector<F> tmp(t);
  for (std::size_t r = 0; r < p.full_rounds + p.partial_rounds; ++r) {
    for (std::size_t i = 0; i < t; ++i) state[i] += p.round_constants[r * t + i];
    if (p.is_full(r))
      for (auto& x : state) x = pow5(x);
    else
      state[0] = pow5(state[0]);
    for (std::size_t i = 0; i < t; ++i) {
      F acc = F::zero();
      for (std::size_t j = 0; j < t; ++j) acc += p.mds[i * t + j] * state[j];
      tmp[i] = acc;
    }
    std::copy(tmp.begin(), tmp.end(), state.begin());
  }
}

template <class F>
F poseidon_hash_native(const PoseidonParams<F>& p, std::span<const F> inputs) {
  if (inputs.size() != p.arity())
    throw std::invalid_argument("poseidon: expected " + std::to_string(p.arity()) + " inputs, got " +
                                std::to_string(inputs.size()));
  std::vector<F> s(p.t);
  s[0] = p.first;
  for (std::size_t i = 0; i < inputs.size(); ++i) s[i + 1] = inputs[i];
  poseidon_permute(p, std::span<F>(s));
  return s[p.output];
}

// A state element in the circuit: a constant or a linear combination with its value. The LC is
// only built in modes that record constraints.
template <class F>
struct PoseidonElt {
  LinearCombination<F> lc;
  F val = F::zero();
  bool constant = true;
};

template <class F, class CS>
AllocatedNum<F> poseidon_hash(CS& cs, const PoseidonParams<F>& p, std::span<const AllocatedNum<F>> inputs) {
  if (inputs.size() != p.arity())
    throw std::invalid_argument("poseidon: expected " + std::to_string(p.arity()) + " inputs, got " +
                                std::to_string(inputs.size()));
  cs::Namespace ns(cs, "poseidon");
  using E = PoseidonElt<F>;
  const std::size_t t = p.t;
  std::vector<E> s(t), next(t);
  s[0].val = p.first;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    s[i + 1].val = inputs[i].value();
    s[i + 1].constant = false;
    if constexpr (CS::kRecords) s[i + 1].lc = inputs[i].lc();
  }
  auto sbox = [&](E& e) {
    if (e.constant) {
      e.val = pow5(e.val);
      return;
    }
    const F v2 = e.val.square(), v4 = v2.square(), v5 = v4 * e.val;
    Variable x2 = cs.alloc("x2", [&] { return v2; });
    Variable x4 = cs.alloc("x4", [&] { return v4; });
    Variable x5 = cs.alloc("x5", [&] { return v5; });
    cs.enforce("x2", [&] { return e.lc; }, [&] { return e.lc; }, x2);
    cs.enforce("x4", x2, x2, x4);
    cs.enforce("x5", x4, [&] { return e.lc; }, x5);
    e.val = v5;
    if constexpr (CS::kRecords) e.lc = LinearCombination<F>(x5);
  };
  AllocatedNum<F> last;
  auto materialize = [&](E& e) {
    if (e.constant) return;
    last = AllocatedNum<F>::from_lc(cs, "mds", e.lc, e.val);
    if constexpr (CS::kRecords) e.lc = last.lc();
  };
  const std::size_t rounds = p.full_rounds + p.partial_rounds;
  for (std::size_t r = 0; r < rounds; ++r) {
    cs::Namespace nr(cs, [r] { return "round " + std::to_string(r); });
    const bool full = p.is_full(r);
    for (std::size_t i = 0; i < t; ++i) {
      const F& c = p.round_constants[r * t + i];
      s[i].val += c;
      if constexpr (CS::kRecords)
        if (!s[i].constant) s[i].lc.add_constant(c);
    }
    if (full)
      for (auto& e : s) sbox(e);
    else
      sbox(s[0]);
    for (std::size_t i = 0; i < t; ++i) {
      E& o = next[i];
      o.val = F::zero();
      o.constant = true;
      if constexpr (CS::kRecords) o.lc = LinearCombination<F>();
      for (std::size_t j = 0; j < t; ++j) {
        const F& m = p.mds[i * t + j];
        o.val += m * s[j].val;
        if (!s[j].constant) {
          o.constant = false;
          if constexpr (CS::kRecords) o.lc.add_scaled(s[j].lc, m);
        } else if constexpr (CS::kRecords) {
          o.lc.add_constant(m * s[j].val);
        }
      }
    }
    if constexpr (CS::kRecords)
      for (auto& e : next) e.lc.compact();
    std::swap(s, next);
    if (r + 1 == rounds)
      materialize(s[p.output]);
    else if (full)
      for (auto& e : s) materialize(e);  // all elements are S-boxed next
    else
      materialize(s[0]);
  }
  const E& out = s[p.output];
  if (out.constant) return AllocatedNum<F>::from_lc(cs, "out", LinearCombination<F>::constant(out.val), out.val);
  return last;
}

}  // namespace cuzk::gadgets
