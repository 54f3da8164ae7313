// Shared by the SnapDeals benchmarks (snap_bench synth and gpu): the update a benchmark proves (a
// SYNTHETIC sparse update of the size, snap_vanilla_gen.hpp: 4,096 nodes carry data), its
// partition proofs as bincode bytes, the submit-time work on them (every partition decoded and
// checked, as the daemon's split does), and a partition's witness with the public-input check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "bench_common.hpp"
#include "cuzk/filecoin/snap_circuit.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/snap_record.hpp"
#include "cuzk/filecoin/snap_vanilla_gen.hpp"

namespace cuzk::bench {

// The update proof of a sector size written "2KiB" ... "64GiB" (or bytes).
filecoin::RegisteredUpdateProof update_proof_of_size(std::string_view size);

struct SnapInput {
  filecoin::RegisteredUpdateProof proof{};
  filecoin::SnapTestUpdate update;
  std::vector<std::vector<std::uint8_t>> partitions;  // bincode PartitionProof
  double generate_ms = 0;
};
SnapInput snap_input(filecoin::RegisteredUpdateProof proof);

// Every partition decoded, checked and made its circuit (snap_partition_circuit), in parallel.
struct CheckedSnap {
  std::vector<filecoin::EmptySectorUpdateCircuit> circuits;
  double check_ms = 0;
};
CheckedSnap decode_and_check(const SnapInput& in);

// Partition k's full assignment (snap_witness_into: challenges in parallel, each wire written in
// place) and whether its public inputs are the ones a verifier derives from the commitments
// (snap_partition_inputs). `w` views either `owned` (a fresh vector) or the caller's buffer.
struct SnapPartitionWitness {
  std::vector<filecoin::Fr> owned;
  std::span<const filecoin::Fr> w;
  std::vector<filecoin::Fr> public_inputs;  // the verifier's
  bool inputs_match = false;
  double synth_ms = 0;
};
// Into a fresh vector (snap_witness_full).
SnapPartitionWitness snap_partition_witness(const SnapInput& in, const CheckedSnap& c, std::size_t k);
// Into `buf` (layout.size() elements; a reused buffer, page-locked once, as a pipeline may keep).
SnapPartitionWitness snap_partition_witness(const SnapInput& in, const CheckedSnap& c, std::size_t k,
                                            const filecoin::SnapWitnessLayout& layout, std::span<filecoin::Fr> buf);

}  // namespace cuzk::bench
