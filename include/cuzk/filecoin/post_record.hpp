// The recorded R1CS of a FallbackPoSt partition, made fast: every sector slot synthesizes the
// same constraints over its own wires (no wire is shared between slots, and the shape does not
// depend on the values), so one slot is recorded and the others are copies of it with their
// inputs and aux wires shifted. A 32 GiB WindowPoSt partition (2349 slots, 125M constraints)
// records in the time of one slot plus a parallel copy. Tested equal to recording the whole
// circuit.
#pragma once

#include "cuzk/filecoin/post_circuit.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::filecoin {

r1cs::R1CS<Fr> record_post_circuit(const PostShape& shape);

}  // namespace cuzk::filecoin
