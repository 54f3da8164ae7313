// A rank-1 constraint system over F: constraints <A_i,w>·<B_i,w> = <C_i,w> for i < num_constraints,
// with A, B, C in CSR form (rows = constraints, columns = wires).
// Wire order (circom's): 0 is the constant one, then num_public public wires (circom: outputs, then
// public inputs), then everything else.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/r1cs/csr.hpp"

namespace cuzk::r1cs {

// Counts from a circom .r1cs header that the generic system does not need but a faithful writer does.
struct CircomMeta {
  std::uint32_t num_outputs = 0;
  std::uint32_t num_pub_inputs = 0;
  std::uint32_t num_prv_inputs = 0;
  std::uint64_t num_labels = 0;
  bool operator==(const CircomMeta&) const = default;
};

template <class F>
struct R1CS {
  std::uint32_t num_vars = 0;         // wires, including wire 0 (the constant one)
  std::uint32_t num_public = 0;       // public wires excluding wire 0 (circom: outputs + public inputs)
  std::uint32_t num_constraints = 0;  // rows of A, B and C
  CsrMatrix<F> A, B, C;

  std::vector<std::string> constraint_names;  // empty, or one per constraint (check mode)
  std::vector<std::uint64_t> wire_labels;     // empty, or one per wire (circom section 3)
  std::optional<CircomMeta> circom;           // set when read from a .r1cs

  // Name of constraint i, or "" when there are no names.
  std::string_view constraint_name(std::size_t i) const {
    return i < constraint_names.size() ? std::string_view(constraint_names[i]) : std::string_view();
  }

  // Throws std::invalid_argument naming the first inconsistency.
  void validate() const {
    auto bad = [](const std::string& m) { throw std::invalid_argument("R1CS: " + m); };
    if (num_vars == 0) bad("num_vars must be >= 1 (wire 0 is the constant one)");
    if (std::uint64_t{num_public} + 1 > num_vars) bad("num_public + 1 exceeds num_vars");
    for (const auto* m : {&A, &B, &C}) {
      const char* nm = m == &A ? "A" : m == &B ? "B" : "C";
      if (m->num_rows() != num_constraints)
        bad(std::string(nm) + " has " + std::to_string(m->num_rows()) + " rows, expected " +
            std::to_string(num_constraints));
      if (m->num_cols != num_vars) bad(std::string(nm) + ".num_cols != num_vars");
      m->validate(nm);
    }
    if (!constraint_names.empty() && constraint_names.size() != num_constraints)
      bad("constraint_names must be empty or have num_constraints entries");
    if (!wire_labels.empty() && wire_labels.size() != num_vars)
      bad("wire_labels must be empty or have num_vars entries");
    if (circom && std::uint64_t{circom->num_outputs} + circom->num_pub_inputs != num_public)
      bad("circom outputs + public inputs != num_public");
  }

  bool operator==(const R1CS&) const = default;
};

// An empty system with num_vars wires and the matrices sized accordingly (no constraints yet).
template <class F>
R1CS<F> make_empty_r1cs(std::uint32_t num_vars, std::uint32_t num_public) {
  R1CS<F> r;
  r.num_vars = num_vars;
  r.num_public = num_public;
  r.A.num_cols = r.B.num_cols = r.C.num_cols = num_vars;
  return r;
}

template <class F>
struct Term {
  std::uint32_t wire;
  F coeff;
};

// Appends the constraint <a,w>·<b,w> = <c,w>. Wire ids are checked against num_vars. A non-empty
// name turns names on (earlier constraints get ""); with names on, every constraint gets one.
template <class F>
void add_constraint(R1CS<F>& r, std::span<const Term<F>> a, std::span<const Term<F>> b,
                    std::span<const Term<F>> c, std::string name = {}) {
  for (auto lc : {a, b, c})
    for (const auto& t : lc)
      if (t.wire >= r.num_vars)
        throw std::invalid_argument("add_constraint: wire " + std::to_string(t.wire) + " >= num_vars " +
                                    std::to_string(r.num_vars));
  auto put = [](CsrMatrix<F>& m, std::span<const Term<F>> lc) {
    for (const auto& t : lc) m.push_term(t.wire, t.coeff);
    m.end_row();
  };
  put(r.A, a);
  put(r.B, b);
  put(r.C, c);
  if (!name.empty() || !r.constraint_names.empty()) {
    r.constraint_names.resize(r.num_constraints);  // turns names on: earlier constraints get ""
    r.constraint_names.push_back(std::move(name));
  }
  ++r.num_constraints;
}

}  // namespace cuzk::r1cs
