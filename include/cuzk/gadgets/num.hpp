// AllocatedNum: a field element on an aux (or input) wire with its value.
#pragma once

#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cuzk/gadgets/boolean.hpp"

namespace cuzk::gadgets {

template <class F>
class AllocatedNum {
 public:
  AllocatedNum() = default;
  AllocatedNum(Variable v, const F& value) : var_(v), val_(value) {}

  template <class CS, cs::NameLike N, class Fn>
  static AllocatedNum alloc(CS& cs, const N& name, Fn&& value) {
    F v = F::zero();
    if constexpr (CS::kHasValues) v = F(value());
    return AllocatedNum(cs.alloc(name, [&] { return v; }), v);
  }
  template <class CS, cs::NameLike N, class Fn>
  static AllocatedNum alloc_input(CS& cs, const N& name, Fn&& value) {
    F v = F::zero();
    if constexpr (CS::kHasValues) v = F(value());
    return AllocatedNum(cs.alloc_input(name, [&] { return v; }), v);
  }
  // Allocates a new wire equal to lc (value v): lc · 1 = out.
  template <class CS>
  static AllocatedNum from_lc(CS& cs, const char* name, const LinearCombination<F>& lc, const F& v) {
    AllocatedNum r = alloc(cs, name, [&] { return v; });
    cs.enforce(name, [&] { return lc; }, Variable::one(), r.var_);
    return r;
  }

  Variable variable() const { return var_; }
  const F& value() const { return val_; }
  LinearCombination<F> lc() const { return LinearCombination<F>(var_); }

  // this · o = r (1 constraint)
  template <class CS>
  AllocatedNum mul(CS& cs, const AllocatedNum& o) const {
    AllocatedNum r = alloc(cs, "product", [&] { return val_ * o.val_; });
    cs.enforce("mul", var_, o.var_, r.var_);
    return r;
  }
  template <class CS>
  AllocatedNum square(CS& cs) const {
    AllocatedNum r = alloc(cs, "square", [&] { return val_.square(); });
    cs.enforce("square", var_, var_, r.var_);
    return r;
  }
  // this · r = 1 (1 constraint). A zero value gives an unsatisfiable witness (r = 0).
  template <class CS>
  AllocatedNum inverse(CS& cs) const {
    AllocatedNum r = alloc(cs, "inverse", [&] { return val_.is_zero() ? F::zero() : val_.inverse(); });
    cs.enforce("inverse", var_, r.var_, Variable::one());
    return r;
  }

 private:
  Variable var_;
  F val_ = F::zero();
};

// a = b (1 constraint)
template <class F, class CS>
void enforce_equal(CS& cs, const AllocatedNum<F>& a, const AllocatedNum<F>& b) {
  cs.enforce("num eq", [&] { return a.lc() - b.lc(); }, Variable::one(), [] { return LinearCombination<F>(); });
}

// Boolean [a == b] (2 constraints): d = a - b, inv = 1/d or 0, d·inv = 1 - eq, d·eq = 0.
template <class F, class CS>
Boolean<F> equals(CS& cs, const AllocatedNum<F>& a, const AllocatedNum<F>& b) {
  const F d = a.value() - b.value();
  const bool v = d.is_zero();
  Variable inv = cs.alloc("diff inv", [&] { return v ? F::zero() : d.inverse(); });
  Variable eq = cs.alloc("eq", [&] { return v ? F::one() : F::zero(); });
  auto diff = [&] { return a.lc() - b.lc(); };
  cs.enforce("eq inv", diff, inv, [&] { return LinearCombination<F>::constant(F::one()) - LinearCombination<F>(eq); });
  cs.enforce("eq zero", diff, eq, [] { return LinearCombination<F>(); });
  return Boolean<F>::from_variable_unchecked(eq, v);
}

// (cond ? b : a, cond ? a : b) (2 constraints).
template <class F, class CS>
std::pair<AllocatedNum<F>, AllocatedNum<F>> conditional_swap(CS& cs, const AllocatedNum<F>& a,
                                                             const AllocatedNum<F>& b, const Boolean<F>& cond) {
  if (cond.is_constant()) return cond.value() ? std::pair{b, a} : std::pair{a, b};
  const bool c = cond.value();
  auto x = AllocatedNum<F>::alloc(cs, "swap x", [&] { return c ? b.value() : a.value(); });
  auto y = AllocatedNum<F>::alloc(cs, "swap y", [&] { return c ? a.value() : b.value(); });
  // x - a = cond·(b - a); y - b = cond·(a - b)
  cs.enforce("swap x", [&] { return cond.lc(); }, [&] { return b.lc() - a.lc(); }, [&] { return x.lc() - a.lc(); });
  cs.enforce("swap y", [&] { return cond.lc(); }, [&] { return a.lc() - b.lc(); }, [&] { return y.lc() - b.lc(); });
  return {x, y};
}

// cond ? a : b (1 constraint)
template <class F, class CS>
AllocatedNum<F> select(CS& cs, const Boolean<F>& cond, const AllocatedNum<F>& a, const AllocatedNum<F>& b) {
  if (cond.is_constant()) return cond.value() ? a : b;
  auto r = AllocatedNum<F>::alloc(cs, "select", [&] { return cond.value() ? a.value() : b.value(); });
  cs.enforce("select", [&] { return cond.lc(); }, [&] { return a.lc() - b.lc(); }, [&] { return r.lc() - b.lc(); });
  return r;
}

// ---- packing ----------------------------------------------------------------------------------
// sum 2^i bits[i] (little-endian) as a linear combination and its value.
template <class F>
LinearCombination<F> bits_lc(std::span<const Boolean<F>> bits) {
  LinearCombination<F> lc;
  F coeff = F::one();
  for (const auto& b : bits) {
    b.add_to(lc, coeff);
    coeff = coeff.dbl();
  }
  return lc;
}
template <class F>
F bits_value(std::span<const Boolean<F>> bits) {
  F acc = F::zero(), coeff = F::one();
  for (const auto& b : bits) {
    if (b.value()) acc += coeff;
    coeff = coeff.dbl();
  }
  return acc;
}

// Packs little-endian bits (at most F::kBits - 1 of them, so the sum cannot wrap) into one
// allocated number (1 constraint).
template <class F, class CS>
AllocatedNum<F> pack_bits(CS& cs, std::span<const Boolean<F>> bits) {
  if (bits.size() >= F::kBits) throw std::invalid_argument("pack_bits: more bits than the field's capacity");
  F v = F::zero();
  if constexpr (CS::kHasValues) v = bits_value<F>(bits);
  auto r = AllocatedNum<F>::alloc(cs, "packed", [&] { return v; });
  cs.enforce("pack", [&] { return bits_lc<F>(bits); }, Variable::one(), r.variable());
  return r;
}

// Unpacks num into n little-endian bits, n < F::kBits (n booleanity constraints + 1). The value
// must fit in n bits or the witness does not satisfy the system.
template <class F, class CS>
std::vector<Boolean<F>> unpack_bits(CS& cs, const AllocatedNum<F>& num, std::size_t n) {
  if (n >= F::kBits) throw std::invalid_argument("unpack_bits: n must be below the field's bit size");
  std::vector<Boolean<F>> bits;
  bits.reserve(n);
  typename F::Repr c{};
  if constexpr (CS::kHasValues) c = num.value().to_canonical();
  for (std::size_t i = 0; i < n; ++i)
    bits.push_back(Boolean<F>::alloc(cs, "bit", [&] { return ((c[i / 64] >> (i % 64)) & 1) != 0; }));
  cs.enforce("unpack", [&] { return bits_lc<F>(bits); }, Variable::one(), num.variable());
  return bits;
}

}  // namespace cuzk::gadgets
