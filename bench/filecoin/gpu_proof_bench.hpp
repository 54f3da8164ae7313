// Shared by the Filecoin GPU benchmarks (post_gpu_bench.cpp, porep_gpu_bench.cpp): one
// partition's proof on the CUDA backend with its real QAP matrices and the engine's key layout
// for this card, the key's points SYNTHETIC. 2^16 distinct G1 points (2^14 in G2) are tiled over
// the real query lengths, infinity where the variable has no A (B) polynomial, as in a joined
// Filecoin key: an MSM's work does not depend on the points' values, so the device work is a
// real proof's, but the proof does not verify (no setup of a 10^8-constraint circuit fits the
// device time); the verification is timed on its real sizes all the same.
#pragma once

#include <span>
#include <vector>

#include "bench_common.hpp"
#include "cuzk/groth16/engine.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::bench {

using GpuEngine = groth16::Bls12_381;

// The key of q's matrices (moved in) with the synthetic points. Prints the sizes, the time the
// matrices took (qap_ms, measured by the caller) and the points'.
groth16::ProvingKey<GpuEngine> synthetic_points_key(IndexedQap&& q, double qap_ms);

struct GpuProofTimes {
  double pin_ms = 0, upload_ms = 0, gpu_ms = 0, assemble_ms = 0, verify_ms = 0;
};

// The layout for the card's free VRAM less 1 GiB (DeviceProvingKey::choose_layout), the streamed
// parts and the witness page-locked as the pinned tier holds them, the key uploaded, then reps
// proofs after a warm-up (CudaBackend::compute, median) and one proof assembled and verified
// against public_inputs. Prints each step.
GpuProofTimes time_gpu_proof(const groth16::ProvingKey<GpuEngine>& pk, const std::vector<filecoin::Fr>& w,
                             std::span<const filecoin::Fr> public_inputs, int reps);

}  // namespace cuzk::bench
