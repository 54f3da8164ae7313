// The native constraint-system API: one circuit description, three modes (all templates, no
// virtual calls per constraint):
//   RecordCS<F>   collects A, B, C per constraint and emits a cuzk::r1cs::R1CS<F> (CSR); witness
//                 closures are never called.
//   WitnessCS<F>  computes the assignment only; enforce() is a no-op (LC builders not invoked).
//   CheckCS<F>    computes the assignment and evaluates every constraint as it is enforced,
//                 remembering the first unsatisfied one with its namespace path.
// A circuit is any object with `template <class CS> void synthesize(CS&)` (or a generic callable
// taking `CS&`). Gadgets test `CS::kHasValues` (values are computed) and `CS::kRecords`
// (constraints are looked at) with `if constexpr` to skip work a mode does not need.
//
// enforce(name, a, b, c) asserts <a,w>·<b,w> = <c,w>; each of a, b, c is a LinearCombination<F>,
// a Variable, or a callable returning a LinearCombination<F> (only invoked when needed).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuzk/cs/lc.hpp"
#include "cuzk/cs/name.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::cs {

namespace detail {
template <class F, class A>
decltype(auto) to_lc(A&& a) {
  using D = std::remove_cvref_t<A>;
  if constexpr (std::same_as<D, LinearCombination<F>>)
    return std::forward<A>(a);
  else if constexpr (std::same_as<D, Variable>)
    return LinearCombination<F>(a);
  else
    return LinearCombination<F>(a());
}
template <class F, class A>
concept LcSource = std::same_as<std::remove_cvref_t<A>, LinearCombination<F>> ||
                   std::same_as<std::remove_cvref_t<A>, Variable> ||
                   (std::invocable<A&> && std::convertible_to<std::invoke_result_t<A&>, LinearCombination<F>>);

inline void check_room(std::size_t n, const char* what) {
  if (n >= (Variable::kAuxBit - 1)) throw std::length_error(std::string("constraint system: too many ") + what);
}
}  // namespace detail

// Values of inputs (index 0 is ONE) and aux wires; full() is the R1CS wire order.
template <class F>
struct Assignment {
  std::vector<F> inputs = std::vector<F>(1, F::one());
  std::vector<F> aux;
  const F& operator[](Variable v) const { return v.is_aux() ? aux[v.index()] : inputs[v.index()]; }
  std::vector<F> full() const {
    std::vector<F> w;
    w.reserve(inputs.size() + aux.size());
    w.insert(w.end(), inputs.begin(), inputs.end());
    w.insert(w.end(), aux.begin(), aux.end());
    return w;
  }
  F eval(const LinearCombination<F>& lc) const {
    F acc = F::zero();
    for (const auto& [v, c] : lc.terms()) acc += c * (*this)[v];
    return acc;
  }
};

// ---------------------------------------------------------------------------------------------
template <class F>
class WitnessCS {
 public:
  using Field = F;
  static constexpr bool kHasValues = true;
  static constexpr bool kRecords = false;

  WitnessCS() = default;
  void reserve(std::size_t aux) { a_.aux.reserve(aux); }

  template <NameLike N, class Fn>
  Variable alloc(const N&, Fn&& f) {
    a_.aux.push_back(F(f()));
    return Variable::aux(static_cast<std::uint32_t>(a_.aux.size() - 1));
  }
  template <NameLike N, class Fn>
  Variable alloc_input(const N&, Fn&& f) {
    a_.inputs.push_back(F(f()));
    return Variable::input(static_cast<std::uint32_t>(a_.inputs.size() - 1));
  }
  template <NameLike N, class A, class B, class C>
  void enforce(const N&, A&&, B&&, C&&) {}
  template <NameLike N>
  void push_namespace(const N&) {}
  void pop_namespace() {}

  const F& value(Variable v) const { return a_[v]; }
  std::size_t num_inputs() const { return a_.inputs.size(); }
  std::size_t num_aux() const { return a_.aux.size(); }
  std::size_t num_constraints() const { return 0; }
  const Assignment<F>& assignment() const { return a_; }
  Assignment<F> take_assignment() && { return std::move(a_); }

 private:
  Assignment<F> a_;
};

// ---------------------------------------------------------------------------------------------
template <class F>
struct Unsatisfied {
  std::uint64_t index;  // constraint number (enforce order)
  std::string name;     // full namespace path, e.g. "sha256/round 3/ch/bit 7"
  F a, b, c;            // <A,w>, <B,w>, <C,w> with a·b != c
};

template <class F>
class CheckCS {
 public:
  using Field = F;
  static constexpr bool kHasValues = true;
  static constexpr bool kRecords = true;

  // Test hook: the aux wire with this index gets `value` instead of its closure's result
  // (the gadget itself keeps the honest value), to show that a wrong witness is caught.
  void inject_fault(std::uint32_t aux_index, const F& value) { faults_.emplace_back(aux_index, value); }

  template <NameLike N, class Fn>
  Variable alloc(const N&, Fn&& f) {
    detail::check_room(a_.aux.size(), "aux wires");
    F v(f());
    const auto idx = static_cast<std::uint32_t>(a_.aux.size());
    for (const auto& [i, x] : faults_)
      if (i == idx) v = x;
    a_.aux.push_back(v);
    return Variable::aux(idx);
  }
  template <NameLike N, class Fn>
  Variable alloc_input(const N&, Fn&& f) {
    detail::check_room(a_.inputs.size(), "inputs");
    a_.inputs.push_back(F(f()));
    return Variable::input(static_cast<std::uint32_t>(a_.inputs.size() - 1));
  }
  template <NameLike N, class A, class B, class C>
  void enforce(const N& name, A&& a, B&& b, C&& c) {
    const std::uint64_t idx = n_++;
    if (first_) return;
    const F va = a_.eval(detail::to_lc<F>(std::forward<A>(a)));
    const F vb = a_.eval(detail::to_lc<F>(std::forward<B>(b)));
    const F vc = a_.eval(detail::to_lc<F>(std::forward<C>(c)));
    if (va * vb != vc) first_ = Unsatisfied<F>{idx, path_.join(resolve_name(name)), va, vb, vc};
  }
  template <NameLike N>
  void push_namespace(const N& n) { path_.push(resolve_name(n)); }
  void pop_namespace() { path_.pop(); }

  const F& value(Variable v) const { return a_[v]; }
  std::size_t num_inputs() const { return a_.inputs.size(); }
  std::size_t num_aux() const { return a_.aux.size(); }
  std::size_t num_constraints() const { return n_; }
  bool is_satisfied() const { return !first_.has_value(); }
  const std::optional<Unsatisfied<F>>& first_unsatisfied() const { return first_; }
  const Assignment<F>& assignment() const { return a_; }

 private:
  Assignment<F> a_;
  std::uint64_t n_ = 0;
  std::optional<Unsatisfied<F>> first_;
  NamePath path_;
  std::vector<std::pair<std::uint32_t, F>> faults_;
};

// ---------------------------------------------------------------------------------------------
template <class F>
class RecordCS {
 public:
  using Field = F;
  static constexpr bool kHasValues = false;
  static constexpr bool kRecords = true;

  // keep_names: store "namespace/path/name" per constraint in R1CS::constraint_names.
  explicit RecordCS(bool keep_names = false) : names_on_(keep_names) {}

  template <NameLike N, class Fn>
  Variable alloc(const N&, Fn&&) {
    detail::check_room(num_aux_, "aux wires");
    return Variable::aux(num_aux_++);
  }
  template <NameLike N, class Fn>
  Variable alloc_input(const N&, Fn&&) {
    detail::check_room(num_inputs_, "inputs");
    return Variable::input(num_inputs_++);
  }
  template <NameLike N, class A, class B, class C>
  void enforce(const N& name, A&& a, B&& b, C&& c) {
    put(mats_[0], detail::to_lc<F>(std::forward<A>(a)));
    put(mats_[1], detail::to_lc<F>(std::forward<B>(b)));
    put(mats_[2], detail::to_lc<F>(std::forward<C>(c)));
    if (names_on_) names_.push_back(path_.join(resolve_name(name)));
    ++n_;
  }
  template <NameLike N>
  void push_namespace(const N& n) {
    if (names_on_) path_.push(resolve_name(n));
  }
  void pop_namespace() {
    if (names_on_) path_.pop();
  }

  std::size_t num_inputs() const { return num_inputs_; }
  std::size_t num_aux() const { return num_aux_; }
  std::size_t num_constraints() const { return n_; }

  // The recorded system in wire order 0 = ONE, inputs, aux. num_public = inputs excluding ONE.
  r1cs::R1CS<F> finish() && {
    r1cs::R1CS<F> r;
    const std::uint64_t nv = std::uint64_t{num_inputs_} + num_aux_;
    if (nv > 0xffffffffull) throw std::length_error("RecordCS: more than 2^32 wires");
    r.num_vars = static_cast<std::uint32_t>(nv);
    r.num_public = num_inputs_ - 1;
    r.num_constraints = static_cast<std::uint32_t>(n_);
    for (int m = 0; m < 3; ++m) {
      for (auto& col : mats_[m].cols)
        col = (col & Variable::kAuxBit) ? num_inputs_ + (col & ~Variable::kAuxBit) : col;
      mats_[m].num_cols = r.num_vars;
    }
    r.A = std::move(mats_[0]);
    r.B = std::move(mats_[1]);
    r.C = std::move(mats_[2]);
    r.constraint_names = std::move(names_);
    return r;
  }

 private:
  // Terms are merged per variable (sorted by final wire order) and zero coefficients dropped.
  void put(r1cs::CsrMatrix<F>& m, LinearCombination<F> lc) {
    auto terms = lc.terms();
    std::sort(terms.begin(), terms.end(),
              [](const auto& x, const auto& y) { return x.first.raw() < y.first.raw(); });
    for (std::size_t i = 0; i < terms.size();) {
      F acc = terms[i].second;
      std::size_t j = i + 1;
      for (; j < terms.size() && terms[j].first == terms[i].first; ++j) acc += terms[j].second;
      if (!acc.is_zero()) m.push_term(terms[i].first.raw(), acc);
      i = j;
    }
    m.end_row();
  }

  bool names_on_;
  std::uint32_t num_inputs_ = 1;  // ONE
  std::uint32_t num_aux_ = 0;
  std::uint64_t n_ = 0;
  r1cs::CsrMatrix<F> mats_[3];
  std::vector<std::string> names_;
  NamePath path_;
};

// ---------------------------------------------------------------------------------------------
// Counts what a circuit allocates and enforces, computing and recording nothing: the shape of a
// large circuit (inputs, aux wires, constraints) in a fraction of a recording's time.
template <class F>
class CountCS {
 public:
  using Field = F;
  static constexpr bool kHasValues = false;
  static constexpr bool kRecords = false;

  template <NameLike N, class Fn>
  Variable alloc(const N&, Fn&&) {
    return Variable::aux(static_cast<std::uint32_t>(num_aux_++));
  }
  template <NameLike N, class Fn>
  Variable alloc_input(const N&, Fn&&) {
    return Variable::input(static_cast<std::uint32_t>(num_inputs_++));
  }
  template <NameLike N, class A, class B, class C>
  void enforce(const N&, A&&, B&&, C&&) {
    ++n_;
  }
  template <NameLike N>
  void push_namespace(const N&) {}
  void pop_namespace() {}

  std::size_t num_inputs() const { return num_inputs_; }  // ONE included
  std::size_t num_aux() const { return num_aux_; }
  std::size_t num_constraints() const { return n_; }

 private:
  std::size_t num_inputs_ = 1;
  std::size_t num_aux_ = 0;
  std::size_t n_ = 0;
};

// ---------------------------------------------------------------------------------------------
template <class CS>
concept ConstraintSystem = requires(CS& cs, const CS& ccs, Variable v) {
  typename CS::Field;
  { CS::kHasValues } -> std::convertible_to<bool>;
  { CS::kRecords } -> std::convertible_to<bool>;
  { cs.alloc("x", [] { return CS::Field::zero(); }) } -> std::same_as<Variable>;
  { cs.alloc_input("x", [] { return CS::Field::zero(); }) } -> std::same_as<Variable>;
  cs.enforce("c", v, v, v);
  cs.push_namespace("ns");
  cs.pop_namespace();
  { ccs.num_constraints() } -> std::convertible_to<std::size_t>;
};

// RAII namespace: `auto ns = cs::Namespace(cs, "round 3");` or with a name callable.
template <class CS>
class Namespace {
 public:
  template <NameLike N>
  Namespace(CS& cs, const N& n) : cs_(cs) { cs_.push_namespace(n); }
  ~Namespace() { cs_.pop_namespace(); }
  Namespace(const Namespace&) = delete;
  Namespace& operator=(const Namespace&) = delete;

 private:
  CS& cs_;
};

template <class Circuit, class CS>
void synthesize(Circuit&& c, CS& cs) {
  if constexpr (requires { c.synthesize(cs); })
    c.synthesize(cs);
  else
    c(cs);
}

template <class F, class Circuit>
r1cs::R1CS<F> record(Circuit&& c, bool keep_names = false) {
  RecordCS<F> cs(keep_names);
  synthesize(c, cs);
  return std::move(cs).finish();
}

template <class F, class Circuit>
Assignment<F> witness(Circuit&& c) {
  WitnessCS<F> cs;
  synthesize(c, cs);
  return std::move(cs).take_assignment();
}

template <class F, class Circuit>
std::optional<Unsatisfied<F>> check(Circuit&& c) {
  CheckCS<F> cs;
  synthesize(c, cs);
  return cs.first_unsatisfied();
}

}  // namespace cuzk::cs
