// Variables and sparse linear combinations for the native constraint-system API (layer r1cs).
// A Variable is either an input (public; input 0 is the constant ONE) or an aux (private) wire.
// Final wire order in an R1CS / assignment: 0 = ONE, then public inputs, then aux.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace cuzk::cs {

class Variable {
 public:
  static constexpr std::uint32_t kAuxBit = 0x80000000u;
  constexpr Variable() = default;
  static constexpr Variable one() { return Variable(0); }
  static constexpr Variable input(std::uint32_t i) { return Variable(i); }
  static constexpr Variable aux(std::uint32_t i) { return Variable(i | kAuxBit); }
  constexpr bool is_aux() const { return (raw_ & kAuxBit) != 0; }
  constexpr std::uint32_t index() const { return raw_ & ~kAuxBit; }
  // Inputs sort before aux wires, each in allocation order (the final wire order).
  constexpr std::uint32_t raw() const { return raw_; }
  constexpr bool operator==(const Variable&) const = default;

 private:
  constexpr explicit Variable(std::uint32_t r) : raw_(r) {}
  std::uint32_t raw_ = 0;
};

// Sum of coeff * variable terms; the same variable may appear more than once (merged on record).
template <class F>
class LinearCombination {
 public:
  using Term = std::pair<Variable, F>;
  LinearCombination() = default;
  LinearCombination(Variable v) { terms_.emplace_back(v, F::one()); }  // NOLINT: implicit by design
  static LinearCombination zero() { return {}; }
  static LinearCombination constant(const F& c) {
    LinearCombination lc;
    if (!c.is_zero()) lc.terms_.emplace_back(Variable::one(), c);
    return lc;
  }

  LinearCombination& add(Variable v, const F& c) {
    if (!c.is_zero()) terms_.emplace_back(v, c);
    return *this;
  }
  LinearCombination& add_constant(const F& c) { return add(Variable::one(), c); }
  LinearCombination& operator+=(Variable v) { return add(v, F::one()); }
  LinearCombination& operator-=(Variable v) { return add(v, -F::one()); }
  LinearCombination& operator+=(const LinearCombination& o) {
    terms_.insert(terms_.end(), o.terms_.begin(), o.terms_.end());
    return *this;
  }
  LinearCombination& operator-=(const LinearCombination& o) {
    for (const auto& [v, c] : o.terms_) terms_.emplace_back(v, -c);
    return *this;
  }
  LinearCombination& operator*=(const F& s) {
    if (s.is_zero()) terms_.clear();
    for (auto& t : terms_) t.second *= s;
    return *this;
  }
  // lc + scaled other
  LinearCombination& add_scaled(const LinearCombination& o, const F& s) {
    if (s.is_zero()) return *this;
    for (const auto& [v, c] : o.terms_) terms_.emplace_back(v, c * s);
    return *this;
  }

  friend LinearCombination operator+(LinearCombination a, const LinearCombination& b) { return a += b; }
  friend LinearCombination operator-(LinearCombination a, const LinearCombination& b) { return a -= b; }
  friend LinearCombination operator*(LinearCombination a, const F& s) { return a *= s; }
  friend LinearCombination operator*(const F& s, LinearCombination a) { return a *= s; }
  LinearCombination operator-() const { return LinearCombination() - *this; }

  // Merges repeated variables (sorted by wire order) and drops zero coefficients.
  LinearCombination& compact() {
    std::sort(terms_.begin(), terms_.end(), [](const Term& x, const Term& y) { return x.first.raw() < y.first.raw(); });
    std::size_t w = 0;
    for (std::size_t i = 0; i < terms_.size();) {
      F acc = terms_[i].second;
      std::size_t j = i + 1;
      for (; j < terms_.size() && terms_[j].first == terms_[i].first; ++j) acc += terms_[j].second;
      if (!acc.is_zero()) terms_[w++] = Term(terms_[i].first, acc);
      i = j;
    }
    terms_.resize(w);
    return *this;
  }

  const std::vector<Term>& terms() const { return terms_; }
  std::size_t size() const { return terms_.size(); }
  bool empty() const { return terms_.empty(); }
  void reserve(std::size_t n) { terms_.reserve(n); }

 private:
  std::vector<Term> terms_;
};

}  // namespace cuzk::cs
