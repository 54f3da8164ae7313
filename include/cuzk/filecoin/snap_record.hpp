// The SnapDeals partition circuit made fast, recorded and witnessed by parts.
//
// Recording: every challenge synthesizes the same constraints over the header's wires (phi,
// root_r_old, root_r_new, the apex leaves, the partition and h_select bits, and its own random
// bits out of gen_challenge_bits) plus aux wires of its own, and none allocates an input. So the
// header and challenge 0 are recorded once, and challenge k is challenge 0 with its own aux wires
// shifted by k·(aux per challenge) and challenge 0's random bits replaced by challenge k's. Every
// other header wire is allocated before gen_challenge_bits, and each challenge's random bits
// are consecutive wires of one digest, so the replacement keeps every row's column order. A
// 32 GiB partition (86 challenges, 81M constraints) records in the time of the header and one
// challenge plus a parallel copy. Tested equal to recording the whole circuit.
//
// Witness: the header in one witness system, the challenges concurrently in their own (oneTBB),
// joined in allocation order: ONE, the header's inputs, then the header's aux wires and each
// challenge's (challenges have no inputs). Tested equal to cs::witness(circuit).full().
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/filecoin/snap_circuit.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::filecoin {

r1cs::R1CS<Fr> record_snap_circuit(const SnapParams& params);

// The partition circuit's sizes from the same header + one challenge recording.
struct SnapCircuitSize {
  std::uint64_t public_inputs = 0;  // ONE excluded
  std::uint64_t vars = 0;           // ONE included
  std::uint64_t constraints = 0;
  std::uint64_t a_nnz = 0, b_nnz = 0, c_nnz = 0;
};
SnapCircuitSize snap_circuit_size(const SnapParams& params);

std::vector<Fr> snap_witness_full(const EmptySectorUpdateCircuit& circuit);

}  // namespace cuzk::filecoin
