// CountCS: a constraint system that only counts, to size a circuit shape before generating it.
// CountCS<F, false> never builds values or linear combinations (milliseconds per challenge);
// CountCS<F, true> also builds each LC to count its terms (an upper bound on CSR nnz: terms are
// not merged), storing nothing.
#pragma once

#include <cstddef>
#include <utility>

#include "cuzk/cs/constraint_system.hpp"

namespace cuzk::bench {

struct Count {
  std::size_t constraints = 0, inputs = 1, aux = 0, nnz = 0;  // nnz: upper bound (terms before merging)
};

template <class F, bool kTerms = false>
class CountCS {
 public:
  using Field = F;
  static constexpr bool kHasValues = false;
  static constexpr bool kRecords = kTerms;

  template <cs::NameLike N, class Fn>
  cs::Variable alloc(const N&, Fn&&) { return cs::Variable::aux(static_cast<std::uint32_t>(c_.aux++)); }
  template <cs::NameLike N, class Fn>
  cs::Variable alloc_input(const N&, Fn&&) { return cs::Variable::input(static_cast<std::uint32_t>(c_.inputs++)); }
  template <cs::NameLike N, class A, class B, class C>
  void enforce(const N&, A&& a, B&& b, C&& c) {
    ++c_.constraints;
    if constexpr (kTerms)
      c_.nnz += cs::detail::to_lc<F>(std::forward<A>(a)).size() + cs::detail::to_lc<F>(std::forward<B>(b)).size() +
                cs::detail::to_lc<F>(std::forward<C>(c)).size();
  }
  template <cs::NameLike N>
  void push_namespace(const N&) {}
  void pop_namespace() {}
  std::size_t num_constraints() const { return c_.constraints; }
  const Count& count() const { return c_; }

 private:
  Count c_;
};

}  // namespace cuzk::bench
