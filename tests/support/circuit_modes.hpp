// Shared checks for the gadget tests (gadgets and filecoin suites): a circuit's three synthesis modes
// agree, and a wrong witness is caught.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/r1cs/eval.hpp"

namespace cuzk::test {

struct ModeReport {
  std::size_t constraints = 0;
  std::size_t aux = 0;
  std::size_t inputs = 0;
};

// Records the circuit, computes its witness in WitnessOnly and Check modes, and checks that
// the assignments are identical, Check mode is satisfied, the R1CS is satisfied by the witness
// (E's evaluator), and the three modes see the same number of wires and constraints.
template <class F, class Circuit>
ModeReport expect_modes_agree(Circuit&& c) {
  auto r = cs::record<F>(c, /*keep_names=*/true);
  r.validate();
  cs::WitnessCS<F> w;
  cs::synthesize(c, w);
  cs::CheckCS<F> k;
  cs::synthesize(c, k);
  EXPECT_TRUE(k.is_satisfied()) << "check mode: first unsatisfied constraint "
                                << (k.first_unsatisfied() ? k.first_unsatisfied()->name : "");
  EXPECT_EQ(w.assignment().inputs, k.assignment().inputs);
  EXPECT_EQ(w.assignment().aux, k.assignment().aux);
  EXPECT_EQ(k.num_constraints(), r.num_constraints);
  const auto full = w.assignment().full();
  EXPECT_EQ(full.size(), r.num_vars);
  EXPECT_EQ(w.num_inputs(), r.num_public + 1);
  if (full.size() == r.num_vars) {
    auto bad = r1cs::check<F>(r, full);
    EXPECT_FALSE(bad.has_value()) << "R1CS unsatisfied at " << bad->index << " (" << bad->name << ")";
  }
  return {r.num_constraints, w.num_aux(), w.num_inputs()};
}

// Changes `tries` randomly chosen aux wires one at a time (w += 1) and expects both the recorded
// R1CS and Check mode (via fault injection) to report an unsatisfied constraint.
template <class F, class Circuit>
void expect_faults_caught(Circuit&& c, int tries, std::uint64_t seed = 1) {
  auto r = cs::record<F>(c, true);
  auto a = cs::witness<F>(c);
  ASSERT_GT(a.aux.size(), 0u);
  std::mt19937_64 rng(seed);
  for (int t = 0; t < tries; ++t) {
    const auto idx = static_cast<std::uint32_t>(rng() % a.aux.size());
    auto full = a.full();
    full[a.inputs.size() + idx] += F::one();
    EXPECT_TRUE(r1cs::check<F>(r, full).has_value()) << "flipping aux " << idx << " went unnoticed";
    cs::CheckCS<F> k;
    k.inject_fault(idx, a.aux[idx] + F::one());
    cs::synthesize(c, k);
    EXPECT_FALSE(k.is_satisfied()) << "check mode missed fault at aux " << idx;
  }
}

}  // namespace cuzk::test
