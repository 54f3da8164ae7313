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

// A batch of `count` proofs of s's witness with `key` (one CudaBackend::compute), timed
// once after a warm-up batch: a row of the wall time per proof, the phases of the batch's
// first proof, and whether every proof's terms equal `want`. Says so instead when the batch's
// scratch does not fit `budget` beside the key.
inline void time_batch(const char* what, std::size_t k, const gpu::DeviceProvingKey<SyntheticProof::E>& key,
                       const SyntheticProof& s, int count, std::size_t budget,
                       const groth16::ProofTerms<SyntheticProof::E>& want) {
  using E = SyntheticProof::E;
  using Key = gpu::DeviceProvingKey<E>;
  const std::size_t need = key.bytes() + Key::estimate_batch_scratch_bytes(s.pk, key.layout(), key.tuning());
  if (need > budget) {
    std::printf("    a batch does not fit: key + batch scratch %.2f GiB\n", need / double(std::size_t{1} << 30));
    return;
  }
  gpu::CudaBackend<E> backend(key);
  const std::vector<std::span<const E::Fr>> ws(static_cast<std::size_t>(count), std::span<const E::Fr>(s.w));
  std::vector<groth16::PhaseTimings> ts(ws.size());
  std::vector<groth16::ProofTerms<E>> out(ws.size());
  backend.compute(s.pk, ws, ts, out);  // warm-up
  ts.assign(ws.size(), groth16::PhaseTimings{});
  const auto t0 = std::chrono::steady_clock::now();
  backend.compute(s.pk, ws, ts, out);
  const double ms = wall_ms_since(t0);
  char note[96];
  std::snprintf(note, sizeof note, "per proof, %d proofs in %.0f ms", count, ms);
  row(what, k, ms / count, note);
  std::printf("    phases of its first proof:");
  print_phases(ts[0]);
  bool same = true;
  for (const auto& t : out) same = same && t.a == want.a && t.b1 == want.b1 && t.b2 == want.b2 && t.h == want.h && t.l == want.l;
  std::printf("    every batched proof's terms equal the single proof's: %s\n", same ? "yes" : "NO");
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
