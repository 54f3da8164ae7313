// Boolean gadget: a constant, an allocated bit, or the negation of one (negation is free).
// Every operation on two non-constant booleans costs one constraint; constants fold away.
#pragma once

#include <cstdint>
#include <string>

#include "cuzk/cs/constraint_system.hpp"

namespace cuzk::gadgets {

using cs::LinearCombination;
using cs::Variable;

template <class F>
class Boolean {
 public:
  enum class Kind : std::uint8_t { Constant, Is, Not };

  Boolean() = default;
  static Boolean constant(bool b) { return Boolean(Kind::Constant, Variable(), b); }

  // Allocates a bit with the booleanity constraint (1 - b)·b = 0.
  template <class CS, cs::NameLike N, class Fn>
  static Boolean alloc(CS& cs, const N& name, Fn&& value) {
    bool v = false;
    if constexpr (CS::kHasValues) v = static_cast<bool>(value());
    Variable x = cs.alloc(name, [&] { return v ? F::one() : F::zero(); });
    cs.enforce("boolean", [&] { return LinearCombination<F>::constant(F::one()) - LinearCombination<F>(x); }, x,
               [] { return LinearCombination<F>(); });
    return Boolean(Kind::Is, x, v);
  }
  // Same, allocated as a public input.
  template <class CS, cs::NameLike N, class Fn>
  static Boolean alloc_input(CS& cs, const N& name, Fn&& value) {
    bool v = false;
    if constexpr (CS::kHasValues) v = static_cast<bool>(value());
    Variable x = cs.alloc_input(name, [&] { return v ? F::one() : F::zero(); });
    cs.enforce("boolean", [&] { return LinearCombination<F>::constant(F::one()) - LinearCombination<F>(x); }, x,
               [] { return LinearCombination<F>(); });
    return Boolean(Kind::Is, x, v);
  }
  // Wraps a variable already known to be boolean (no constraint added).
  static Boolean from_variable_unchecked(Variable x, bool v) { return Boolean(Kind::Is, x, v); }

  Kind kind() const { return kind_; }
  bool is_constant() const { return kind_ == Kind::Constant; }
  bool value() const { return val_; }  // meaningful when CS::kHasValues (and for constants)
  Variable variable() const { return var_; }

  Boolean operator!() const {
    switch (kind_) {
      case Kind::Constant: return constant(!val_);
      case Kind::Is: return Boolean(Kind::Not, var_, !val_);
      default: return Boolean(Kind::Is, var_, !val_);
    }
  }
  // coeff · this as a linear combination (Not x = 1 - x).
  LinearCombination<F> lc(const F& coeff = F::one()) const {
    LinearCombination<F> r;
    add_to(r, coeff);
    return r;
  }
  void add_to(LinearCombination<F>& r, const F& coeff) const {
    switch (kind_) {
      case Kind::Constant:
        if (val_) r.add_constant(coeff);
        break;
      case Kind::Is: r.add(var_, coeff); break;
      case Kind::Not:
        r.add_constant(coeff);
        r.add(var_, -coeff);
        break;
    }
  }

 private:
  Boolean(Kind k, Variable v, bool b) : kind_(k), val_(b), var_(v) {}
  Kind kind_ = Kind::Constant;
  bool val_ = false;
  Variable var_;
};

namespace detail {
// Allocates c with value `v` (no booleanity: the defining constraint forces it).
template <class F, class CS>
Variable alloc_bit_value(CS& cs, const char* name, bool v) {
  return cs.alloc(name, [&] { return v ? F::one() : F::zero(); });
}
}  // namespace detail

// a AND b: a·b = c (1 constraint unless a constant is involved).
template <class F, class CS>
Boolean<F> and_(CS& cs, const Boolean<F>& a, const Boolean<F>& b) {
  if (a.is_constant()) return a.value() ? b : Boolean<F>::constant(false);
  if (b.is_constant()) return b.value() ? a : Boolean<F>::constant(false);
  const bool v = a.value() && b.value();
  Variable c = detail::alloc_bit_value<F>(cs, "and", v);
  cs.enforce("and", [&] { return a.lc(); }, [&] { return b.lc(); }, c);
  return Boolean<F>::from_variable_unchecked(c, v);
}

// a XOR b: (2a)·b = a + b - c (1 constraint unless a constant is involved).
template <class F, class CS>
Boolean<F> xor_(CS& cs, const Boolean<F>& a, const Boolean<F>& b) {
  if (a.is_constant()) return a.value() ? !b : b;
  if (b.is_constant()) return b.value() ? !a : a;
  const bool v = a.value() != b.value();
  Variable c = detail::alloc_bit_value<F>(cs, "xor", v);
  cs.enforce("xor", [&] { return a.lc(F::from_u64(2)); }, [&] { return b.lc(); },
             [&] { return a.lc() + b.lc() - LinearCombination<F>(c); });
  return Boolean<F>::from_variable_unchecked(c, v);
}

template <class F>
Boolean<F> not_(const Boolean<F>& a) { return !a; }

template <class F, class CS>
Boolean<F> nand(CS& cs, const Boolean<F>& a, const Boolean<F>& b) { return !and_(cs, a, b); }

template <class F, class CS>
Boolean<F> or_(CS& cs, const Boolean<F>& a, const Boolean<F>& b) { return !and_(cs, !a, !b); }

template <class F, class CS>
Boolean<F> nor(CS& cs, const Boolean<F>& a, const Boolean<F>& b) { return and_(cs, !a, !b); }

// cond ? a : b. r - b = cond·(a - b) (1 constraint unless something is constant).
template <class F, class CS>
Boolean<F> select(CS& cs, const Boolean<F>& cond, const Boolean<F>& a, const Boolean<F>& b) {
  if (cond.is_constant()) return cond.value() ? a : b;
  if (a.is_constant() && b.is_constant()) {
    if (a.value() == b.value()) return a;
    return a.value() ? cond : !cond;
  }
  const bool v = cond.value() ? a.value() : b.value();
  Variable r = detail::alloc_bit_value<F>(cs, "select", v);
  cs.enforce("select", [&] { return cond.lc(); }, [&] { return a.lc() - b.lc(); },
             [&] { return LinearCombination<F>(r) - b.lc(); });
  return Boolean<F>::from_variable_unchecked(r, v);
}

// Majority of three: maj = bc + a(b + c - 2bc) (2 constraints when all are variables).
template <class F, class CS>
Boolean<F> majority(CS& cs, const Boolean<F>& a, const Boolean<F>& b, const Boolean<F>& c) {
  if (a.is_constant()) return a.value() ? or_(cs, b, c) : and_(cs, b, c);
  if (b.is_constant()) return b.value() ? or_(cs, a, c) : and_(cs, a, c);
  if (c.is_constant()) return c.value() ? or_(cs, a, b) : and_(cs, a, b);
  Boolean<F> bc = and_(cs, b, c);
  const bool v = (a.value() + b.value() + c.value()) >= 2;
  Variable m = detail::alloc_bit_value<F>(cs, "maj", v);
  cs.enforce("maj", [&] { return a.lc(); },
             [&] { return b.lc() + c.lc() - bc.lc(F::from_u64(2)); },
             [&] { return LinearCombination<F>(m) - bc.lc(); });
  return Boolean<F>::from_variable_unchecked(m, v);
}

// a == b as a constraint: a - b = 0 (costs 1 constraint; constants compare at synthesis time).
template <class F, class CS>
void enforce_equal(CS& cs, const Boolean<F>& a, const Boolean<F>& b) {
  if (a.is_constant() && b.is_constant()) {
    if (a.value() != b.value()) throw std::invalid_argument("enforce_equal: constant booleans differ");
    return;
  }
  cs.enforce("bool eq", [&] { return a.lc() - b.lc(); }, Variable::one(), [] { return LinearCombination<F>(); });
}

}  // namespace cuzk::gadgets
