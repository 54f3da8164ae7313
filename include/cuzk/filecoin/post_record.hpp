// The recorded R1CS of a FallbackPoSt partition, made fast: every sector slot synthesizes the
// same constraints over its own wires (no wire is shared between slots, and the shape does not
// depend on the values), so one slot is recorded and the others are copies of it with their
// inputs and aux wires shifted. A 32 GiB WindowPoSt partition (2349 slots, 125M constraints)
// records in the time of one slot plus a parallel copy. Tested equal to recording the whole
// circuit.
#pragma once

#include <cstdint>

#include "cuzk/filecoin/post_circuit.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::filecoin {

r1cs::R1CS<Fr> record_post_circuit(const PostShape& shape);

// The column in the whole partition of column c of the one-slot system (0 = ONE, 1..slot_inputs
// its inputs, then its aux wires) for sector slot k: the slot's inputs at 1 + k·slot_inputs, its
// aux wires after all total_inputs inputs (ONE included) at k·slot_aux.
inline std::uint32_t slot_column(std::uint32_t c, std::uint32_t k, std::uint32_t slot_inputs, std::uint32_t slot_aux,
                                 std::uint32_t total_inputs) {
  if (c == 0) return 0;
  if (c <= slot_inputs) return c + k * slot_inputs;
  return total_inputs + k * slot_aux + (c - 1 - slot_inputs);
}

}  // namespace cuzk::filecoin
