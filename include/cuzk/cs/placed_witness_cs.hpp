// A witness-only constraint system that writes each wire's value straight into its place in a
// full assignment (ONE, inputs, aux: the R1CS wire order), for circuits synthesized in parts on
// several threads: each part gets the ranges of inputs and aux wires it allocates, numbered as in
// the whole circuit (aux wire j is w[aux_base + j]). No per-part vectors, no joining copy, and the
// output may be any caller's buffer (a reused page-locked one, for instance).
//
// Allocating past either range throws std::logic_error; filled() says whether the part allocated
// exactly its wires. Values are read by the gadgets from their own operands, never through the
// system, so a part needs no view of the other parts' wires.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cuzk/cs/constraint_system.hpp"

namespace cuzk::cs {

template <class F>
class PlacedWitnessCS {
 public:
  using Field = F;
  static constexpr bool kHasValues = true;
  static constexpr bool kRecords = false;

  // Inputs [in, in_end) and aux wires [aux, aux_end) of the whole circuit; `what` names the
  // circuit in the overflow error.
  PlacedWitnessCS(F* w, std::size_t aux_base, std::size_t in, std::size_t in_end, std::size_t aux, std::size_t aux_end,
                  const char* what)
      : in_w_(w), aux_w_(w + aux_base), in_(in), in_end_(in_end), aux_(aux), aux_end_(aux_end), what_(what) {}

  template <NameLike N, class Fn>
  Variable alloc(const N&, Fn&& f) {
    if (aux_ == aux_end_) overflow("aux wires");
    aux_w_[aux_] = F(f());
    return Variable::aux(static_cast<std::uint32_t>(aux_++));
  }
  template <NameLike N, class Fn>
  Variable alloc_input(const N&, Fn&& f) {
    if (in_ == in_end_) overflow("inputs");
    in_w_[in_] = F(f());
    return Variable::input(static_cast<std::uint32_t>(in_++));
  }
  template <NameLike N, class A, class B, class C>
  void enforce(const N&, A&&, B&&, C&&) {}
  template <NameLike N>
  void push_namespace(const N&) {}
  void pop_namespace() {}
  std::size_t num_constraints() const { return 0; }

  bool filled() const { return in_ == in_end_ && aux_ == aux_end_; }

 private:
  [[noreturn]] void overflow(const char* wires) const {
    throw std::logic_error(std::string(what_) + ": a part allocates more " + wires + " than counted");
  }
  F* in_w_;
  F* aux_w_;
  std::size_t in_, in_end_, aux_, aux_end_;
  const char* what_;
};

}  // namespace cuzk::cs
