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
// Witness: every challenge allocates the same number of aux wires and no input, so the header's
// and one challenge's counts (snap_witness_layout) place every wire: ONE, the header's inputs,
// the header's aux wires, then each challenge's. The header is synthesized first, then the
// challenges concurrently (oneTBB), each writing its wires once, at their final place
// (cs::PlacedWitnessCS), into a caller's buffer or a fresh vector. Tested equal to
// cs::witness(circuit).full().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
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

// Where a partition's wires lie in its full assignment (counted on a blank circuit: milliseconds).
struct SnapWitnessLayout {
  SnapParams params;              // the circuits it places
  std::size_t header_inputs = 0;  // ONE included: every input of the partition
  std::size_t header_aux = 0;
  std::size_t challenge_aux = 0;  // per challenge
  std::size_t challenges = 0;
  std::size_t size() const { return header_inputs + header_aux + challenges * challenge_aux; }
};
SnapWitnessLayout snap_witness_layout(const SnapParams& params);

// Writes the full assignment into `out`, which must have layout.size() elements (their previous
// values are ignored). Throws std::invalid_argument when `out`'s size or the layout's parameters are
// not the circuit's.
void snap_witness_into(const EmptySectorUpdateCircuit& circuit, const SnapWitnessLayout& layout, std::span<Fr> out);

std::vector<Fr> snap_witness_full(const EmptySectorUpdateCircuit& circuit);

}  // namespace cuzk::filecoin
