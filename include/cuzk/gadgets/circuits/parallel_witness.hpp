// Multithreaded WitnessOnly synthesis across independent challenges.
//   parallel_witness<F>(circuit, {threads, challenges_per_task}) -> cs::Assignment<F>
//
// A circuit qualifies (concept ChallengeCircuit) when it has `num_challenges()` and
// `synthesize_challenge(cs, c)` and its synthesize(cs) is exactly synthesize_challenge(cs, 0),
// (cs, 1), ... with no wire shared between challenges (Sha256Merkle, PoseidonMerkle, PorepLike).
// Each challenge (or block of consecutive challenges) is then synthesized by its own WitnessCS on
// a oneTBB worker; the per-block inputs (minus each block's ONE) and aux values are concatenated in
// challenge order, so the result is bit-identical to a single-threaded cs::witness<F>(circuit).
// Gadgets carry their own values (Boolean/AllocatedNum), so block-local wire indices never leak
// into values.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <concepts>
#include <cstddef>
#include <vector>

#include "cuzk/cs/constraint_system.hpp"

namespace cuzk::gadgets::circuits {

template <class C, class F>
concept ChallengeCircuit = requires(const C& c, cs::WitnessCS<F>& w, std::size_t i) {
  { c.num_challenges() } -> std::convertible_to<std::size_t>;
  c.synthesize_challenge(w, i);
};

struct ParallelWitnessOptions {
  int threads = 0;                     // 0: all of oneTBB's default concurrency
  std::size_t challenges_per_task = 1;  // consecutive challenges synthesized by one WitnessCS
};

// WitnessOnly mode writing into preassigned slices of the final input/aux vectors (no per-block
// vectors, no concatenation copy). Writes past a slice are counted, not stored, so a block whose
// wire counts differ from the expectation is detected (and parallel_witness falls back).
template <class F>
class SliceWitnessCS {
 public:
  using Field = F;
  static constexpr bool kHasValues = true;
  static constexpr bool kRecords = false;
  SliceWitnessCS(F* in, std::size_t in_cap, F* aux, std::size_t aux_cap)
      : in_(in), aux_(aux), in_cap_(in_cap), aux_cap_(aux_cap) {}
  template <cs::NameLike N, class Fn>
  cs::Variable alloc(const N&, Fn&& f) {
    if (na_ < aux_cap_) aux_[na_] = F(f());
    return cs::Variable::aux(static_cast<std::uint32_t>(na_++));
  }
  template <cs::NameLike N, class Fn>
  cs::Variable alloc_input(const N&, Fn&& f) {
    if (ni_ < in_cap_) in_[ni_] = F(f());
    return cs::Variable::input(static_cast<std::uint32_t>(1 + ni_++));
  }
  template <cs::NameLike N, class A, class B, class C>
  void enforce(const N&, A&&, B&&, C&&) {}
  template <cs::NameLike N>
  void push_namespace(const N&) {}
  void pop_namespace() {}
  std::size_t num_constraints() const { return 0; }
  std::size_t inputs_written() const { return ni_; }
  std::size_t aux_written() const { return na_; }

 private:
  F *in_, *aux_;
  std::size_t in_cap_, aux_cap_, ni_ = 0, na_ = 0;
};

namespace pw_detail {
// Wire counts of one challenge without computing values (closures are never invoked).
template <class F>
struct CountWires {
  using Field = F;
  static constexpr bool kHasValues = false;
  static constexpr bool kRecords = false;
  std::size_t inputs = 0, aux = 0;
  template <cs::NameLike N, class Fn>
  cs::Variable alloc(const N&, Fn&&) { return cs::Variable::aux(static_cast<std::uint32_t>(aux++)); }
  template <cs::NameLike N, class Fn>
  cs::Variable alloc_input(const N&, Fn&&) { return cs::Variable::input(static_cast<std::uint32_t>(1 + inputs++)); }
  template <cs::NameLike N, class A, class B, class C>
  void enforce(const N&, A&&, B&&, C&&) {}
  template <cs::NameLike N>
  void push_namespace(const N&) {}
  void pop_namespace() {}
  std::size_t num_constraints() const { return 0; }
};

template <class Body>
void in_arena(int threads, Body&& body) {
  if (threads > 0) {
    tbb::task_arena arena(threads);
    arena.execute(body);
  } else {
    body();
  }
}
}  // namespace pw_detail

template <class F, class Circuit>
  requires ChallengeCircuit<Circuit, F>
cs::Assignment<F> parallel_witness_concat(const Circuit& c, const ParallelWitnessOptions& opt = {});

// Fast path: the circuit's challenges all have the wire counts of challenge 0 (true for the
// benchmark circuits, whose shape does not depend on the witness). Counted once, every challenge
// then writes straight into its slice; any block that writes a different number of wires makes
// the whole call fall back to parallel_witness_concat (still exact, one extra copy).
template <class F, class Circuit>
  requires ChallengeCircuit<Circuit, F>
cs::Assignment<F> parallel_witness(const Circuit& c, const ParallelWitnessOptions& opt = {}) {
  const std::size_t n = c.num_challenges();
  if (n == 0) return {};
  pw_detail::CountWires<F> k;
  c.synthesize_challenge(k, 0);
  cs::Assignment<F> out;
  out.inputs.resize(1 + n * k.inputs);
  out.aux.resize(n * k.aux);
  std::atomic<bool> ok{true};
  pw_detail::in_arena(opt.threads, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, std::max<std::size_t>(1, opt.challenges_per_task)),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t i = r.begin(); i != r.end(); ++i) {
                          SliceWitnessCS<F> w(out.inputs.data() + 1 + i * k.inputs, k.inputs,
                                              out.aux.data() + i * k.aux, k.aux);
                          c.synthesize_challenge(w, i);
                          if (w.inputs_written() != k.inputs || w.aux_written() != k.aux) ok = false;
                        }
                      });
  });
  if (!ok) return parallel_witness_concat<F>(c, opt);
  return out;
}

// The full assignment (ONE, inputs, aux: what a prover takes) written in place: the same
// values as parallel_witness(c).full() without the second copy (a 32 GiB WindowPoSt partition's
// witness is 4 GB).
template <class F, class Circuit>
  requires ChallengeCircuit<Circuit, F>
std::vector<F> parallel_witness_full(const Circuit& c, const ParallelWitnessOptions& opt = {}) {
  const std::size_t n = c.num_challenges();
  if (n == 0) return {F::one()};
  pw_detail::CountWires<F> k;
  c.synthesize_challenge(k, 0);
  const std::size_t inputs = 1 + n * k.inputs;
  std::vector<F> w(inputs + n * k.aux);
  w[0] = F::one();
  std::atomic<bool> ok{true};
  pw_detail::in_arena(opt.threads, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, std::max<std::size_t>(1, opt.challenges_per_task)),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t i = r.begin(); i != r.end(); ++i) {
                          SliceWitnessCS<F> s(w.data() + 1 + i * k.inputs, k.inputs, w.data() + inputs + i * k.aux,
                                              k.aux);
                          c.synthesize_challenge(s, i);
                          if (s.inputs_written() != k.inputs || s.aux_written() != k.aux) ok = false;
                        }
                      });
  });
  if (!ok) {
    w.clear();
    w.shrink_to_fit();
    return parallel_witness_concat<F>(c, opt).full();
  }
  return w;
}

// General path: one WitnessCS per block of challenges, concatenated in challenge order.
template <class F, class Circuit>
  requires ChallengeCircuit<Circuit, F>
cs::Assignment<F> parallel_witness_concat(const Circuit& c, const ParallelWitnessOptions& opt) {
  const std::size_t n = c.num_challenges();
  const std::size_t per = std::max<std::size_t>(1, opt.challenges_per_task);
  const std::size_t blocks = (n + per - 1) / per;
  std::vector<cs::Assignment<F>> parts(blocks);

  auto body = [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks, 1), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t b = r.begin(); b != r.end(); ++b) {
        cs::WitnessCS<F> w;
        for (std::size_t i = b * per; i < std::min(n, (b + 1) * per); ++i) c.synthesize_challenge(w, i);
        parts[b] = std::move(w).take_assignment();
      }
    });
  };
  pw_detail::in_arena(opt.threads, body);

  // Offsets of each block in the final vectors, then a parallel copy (memory-bound at 2^27).
  std::vector<std::size_t> in_off(blocks + 1, 1), aux_off(blocks + 1, 0);
  for (std::size_t b = 0; b < blocks; ++b) {
    in_off[b + 1] = in_off[b] + parts[b].inputs.size() - 1;
    aux_off[b + 1] = aux_off[b] + parts[b].aux.size();
  }
  cs::Assignment<F> out;
  out.inputs.resize(in_off[blocks]);  // inputs[0] stays ONE
  out.aux.resize(aux_off[blocks]);
  auto copy = [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks, 1), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t b = r.begin(); b != r.end(); ++b) {
        std::copy(parts[b].inputs.begin() + 1, parts[b].inputs.end(), out.inputs.begin() + in_off[b]);
        std::copy(parts[b].aux.begin(), parts[b].aux.end(), out.aux.begin() + aux_off[b]);
        parts[b] = {};  // release as we go (peak memory ~ 2x the witness otherwise)
      }
    });
  };
  pw_detail::in_arena(opt.threads, copy);
  return out;
}

}  // namespace cuzk::gadgets::circuits
