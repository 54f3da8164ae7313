// The full assignment of a StackedDRG partition (ONE, inputs, aux: the R1CS wire order),
// synthesized on every core with each wire written once, at its final place.
//
// Every challenge allocates the same wires (the circuit does not depend on the values), and a
// challenge is synthesized in steps (porep_circuit.hpp PorepStep) whose wire counts are fixed:
// counted once, they give every step of every challenge its offsets among the inputs and the aux
// wires. The header is synthesized first; then each challenge's small steps (data leaf, parent
// rows, challenge bits), which produce the wires the others read; then, concurrently, the TreeD
// proof, the 14 parent proofs and the labelings of all challenges (largest first), and as a
// challenge's labels are done, its encoding with TreeR proof and its column with TreeC proof. In
// witness mode a gadget reads only its operands' values, so each step's values are those a
// sequential synthesis computes; every step is checked to fill exactly its wires. Tested equal to
// cs::witness(circuit).full().
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cuzk/filecoin/porep_circuit.hpp"

namespace cuzk::filecoin {

// Where a partition's wires lie in its full assignment.
struct PorepWitnessLayout {
  struct Start {
    std::size_t inputs = 0, aux = 0;  // relative to the challenge's first input and aux wire
  };
  std::size_t header_inputs = 0;  // ONE included
  std::size_t header_aux = 0;
  std::size_t challenge_inputs = 0, challenge_aux = 0;  // per challenge
  std::size_t challenges = 0;
  std::vector<PorepStep> steps;      // of one challenge, in order
  std::vector<Start> step_start;     // per step, then the challenge's end
  std::vector<std::size_t> step_constraints;

  std::size_t num_inputs() const { return header_inputs + challenges * challenge_inputs; }  // ONE included
  std::size_t num_aux() const { return header_aux + challenges * challenge_aux; }
  std::size_t size() const { return num_inputs() + num_aux(); }
};

// Counted once per shape (cached: the count of a 32 GiB challenge takes a while).
const PorepWitnessLayout& porep_witness_layout(const PorepShape& shape);

// Writes the full assignment into `out`, which must have porep_witness_layout(shape).size()
// elements (their previous values are ignored; the pages are first touched by the threads that
// write them).
void porep_witness_into(const StackedCircuit& c, std::span<Fr> out);

std::vector<Fr> porep_witness_full(const StackedCircuit& c);

}  // namespace cuzk::filecoin
