// The recorded R1CS of a StackedDRG partition, made fast: every challenge synthesizes the same
// constraints over its own wires plus the header's (replica id bits, comm_d, comm_c,
// comm_r_last), so the header and one challenge are recorded and the other challenges are copies
// of that challenge with their own inputs and aux wires shifted and the header's kept. A 32 GiB
// partition (18 challenges, 130M constraints) records in the time of one challenge plus a
// parallel copy. Tested equal to recording the whole circuit.
#pragma once

#include "cuzk/filecoin/porep_circuit.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::filecoin {

r1cs::R1CS<Fr> record_porep_circuit(const PorepShape& shape);

// The partition circuit's sizes, from the same header + one challenge recording (what a key's
// memory is estimated from, without recording the whole circuit).
struct PorepCircuitSize {
  std::uint64_t public_inputs = 0;  // ONE excluded
  std::uint64_t vars = 0;           // ONE included
  std::uint64_t constraints = 0;
  std::uint64_t a_nnz = 0, b_nnz = 0, c_nnz = 0;
};
PorepCircuitSize porep_circuit_size(const PorepShape& shape);

}  // namespace cuzk::filecoin
