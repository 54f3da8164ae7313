// Shared by the Filecoin GPU benchmarks (post_gpu_bench.cpp, porep_gpu_bench.cpp): one
// partition's proof on the CUDA backend with its real QAP matrices and the engine's key layout
// for this card, the key's points SYNTHETIC. 2^16 distinct G1 points (2^14 in G2) are tiled over
// the real query lengths, infinity where the variable has no A (B) polynomial, as in a joined
// Filecoin key: an MSM's work does not depend on the points' values, so the device work is a
// real proof's, but the proof does not verify (no setup of a 10^8-constraint circuit fits the
// device time); the verification is timed on its real sizes all the same.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "bench_common.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/prover.hpp"

namespace cuzk::bench {

using GpuEngine = groth16::Bls12_381;

// The key of q's matrices (moved in) with the synthetic points. Prints the sizes, the time the
// matrices took (qap_ms, measured by the caller) and the points'.
groth16::ProvingKey<GpuEngine> synthetic_points_key(IndexedQap&& q, double qap_ms);

struct GpuProofTimes {
  double pin_ms = 0, upload_ms = 0, gpu_ms = 0, assemble_ms = 0, verify_ms = 0;
};

// A key on the card, set up as the engine's pinned tier holds it: the layout for the card's free
// VRAM less 1 GiB (DeviceProvingKey::choose_layout), the streamed parts page-locked, the key
// uploaded (each step printed and timed), all with `tuning` (the main's tuning_from_environment;
// its memory diagnostics set for the process first: configure_device_memory). compute() runs one
// proof on the CUDA backend; one thread at a time, pk must outlive the rig.
class GpuProofRig {
 public:
  GpuProofRig(const groth16::ProvingKey<GpuEngine>& pk, const gpu::Tuning& tuning);
  ~GpuProofRig();
  GpuProofRig(const GpuProofRig&) = delete;
  GpuProofRig& operator=(const GpuProofRig&) = delete;

  double pin_ms() const { return pin_ms_; }
  double upload_ms() const { return upload_ms_; }
  // The device work of one proof (CudaBackend::compute); w must have the key's variables.
  groth16::ProofTerms<GpuEngine> compute(std::span<const filecoin::Fr> w, groth16::PhaseTimings& t);
  // The proof assembled from terms (fixed r, s) and verified against public_inputs; the times
  // of both. Synthetic points: the proof does not verify, and `verified` says so.
  struct Finished {
    double assemble_ms = 0, verify_ms = 0;
    bool verified = false;
  };
  Finished finish(const groth16::ProofTerms<GpuEngine>& terms, std::span<const filecoin::Fr> public_inputs) const;

 private:
  struct Device;
  const groth16::ProvingKey<GpuEngine>& pk_;
  std::vector<gpu::HostRegistration> pins_;  // released after the key (dev_)
  std::unique_ptr<Device> dev_;
  double pin_ms_ = 0, upload_ms_ = 0;
};

// A GpuProofRig with w page-locked too, then reps proofs after a warm-up (median) and one proof
// assembled and verified against public_inputs. Prints each step.
GpuProofTimes time_gpu_proof(const groth16::ProvingKey<GpuEngine>& pk, std::span<const filecoin::Fr> w,
                             std::span<const filecoin::Fr> public_inputs, int reps, const gpu::Tuning& tuning);

}  // namespace cuzk::bench
