// Whole-proof timings on the CUDA backend with the synthetic key (stream_bench.cpp,
// small_card_bench.cpp): a wall clock, the median proof time with its phases, and the host
// key page-locked as the engine's pinned tier holds it.
#pragma once

#include <chrono>
#include <cstdio>
#include <span>
#include <vector>

#include "bench_util.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "synthetic_key.hpp"

namespace cuzk::bench {

inline double wall_ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Median proof time with `key` (a row), the phases of the last run, and its terms.
inline groth16::ProofTerms<SyntheticProof::E> time_proof(const char* what, std::size_t k,
                                                         const gpu::DeviceProvingKey<SyntheticProof::E>& key,
                                                         const SyntheticProof& s, int reps) {
  gpu::CudaBackend<SyntheticProof::E> backend(key);
  groth16::ProofTerms<SyntheticProof::E> terms;
  groth16::PhaseTimings last;
  const double ms = median_wall_ms(reps, [&] {
    groth16::PhaseTimings t;
    terms = backend.compute(s.pk, std::span<const SyntheticProof::E::Fr>(s.w), t);
    last = t;
  });
  row(what, k, ms);
  std::printf("    phases:");
  print_phases(last);
  return terms;
}

// The key's point arrays page-locked for the registrations' lifetime; with matrices, also the
// constraint matrices a streamed key reads at every proof (DeviceProvingKey::streamed_matrices).
inline std::vector<gpu::HostRegistration> register_key(const groth16::ProvingKey<SyntheticProof::E>& pk,
                                                       bool matrices) {
  std::vector<gpu::HostRegistration> r;
  for (auto a : gpu::DeviceProvingKey<SyntheticProof::E>::streamed_host_arrays(pk, matrices))
    r.emplace_back(a.data(), a.size());
  return r;
}

}  // namespace cuzk::bench
