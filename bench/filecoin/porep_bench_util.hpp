// Shared by the Filecoin PoRep C2 benchmarks (porep_bench synth and gpu): the C1 a benchmark
// proves (a SYNTHETIC sparse C1 of a V1_1 proof, porep_vanilla_gen.hpp, made in memory and
// serialized as filecoin-ffi's JSON), the submit-time work on its bytes (decode_c1 + verify_c1,
// as the daemon's split does), a partition's witness with the public-input check of the
// daemon's synthesis, and a partition's QAP matrices A and B from its recorded R1CS.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bench_common.hpp"
#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_vanilla_gen.hpp"

namespace cuzk::bench {

// The interactive V1_1 seal proof of a sector size written "2KiB", "8MiB", "512MiB", "32GiB",
// "64GiB" (or a byte count). Throws std::invalid_argument for another size.
filecoin::RegisteredSealProof porep_proof_of_size(std::string_view size);

// A sparse C1 of `proof` (porep_gen_params seed 1: prover f01000, sector 1) and its JSON bytes.
struct PorepInput {
  filecoin::PorepGenParams params;
  filecoin::SealCommitPhase1 c1;
  std::string json;
  double generate_ms = 0, encode_ms = 0;
};
PorepInput porep_input(filecoin::RegisteredSealProof proof);

// What the daemon does with a request's C1 bytes at submit: decode_c1 (format detected), then
// verify_c1 with the prover id and sector number (replica id included).
struct CheckedC1 {
  filecoin::SealCommitPhase1 c1;
  double decode_ms = 0, verify_ms = 0;
};
CheckedC1 decode_and_check(const PorepInput& in);

// Partition k's full assignment (porep_witness_full of c1_partition_circuit, challenge steps in
// parallel) and whether its public inputs are those a verifier derives (porep_public_inputs).
struct PorepPartitionWitness {
  std::vector<filecoin::Fr> w;
  std::vector<filecoin::Fr> public_inputs;  // the verifier's
  bool inputs_match = false;
  double synth_ms = 0, inputs_ms = 0;
};
PorepPartitionWitness porep_partition_witness(const filecoin::SealCommitPhase1& c1, std::size_t k);

// A recorded partition's QAP A and B (IndexedQap), consuming it: C dropped first, each matrix
// value-indexed, its values freed, then the binding rows appended (so that no 32-byte value
// array is ever copied or grown: a 32 GiB partition's are GBs).
IndexedQap indexed_qap(r1cs::R1CS<filecoin::Fr>&& r);

}  // namespace cuzk::bench
