// Helpers shared by the GPU benchmark sections (gpu_bench.cpp, msm_bench.cpp,
// prove_bench.cpp, stream_bench.cpp): fast valid field elements, timing, table rows.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "cuzk/gpu/runtime.hpp"
#include "cuzk/gpu/tuning.hpp"
#include "cuzk/groth16/timings.hpp"

namespace cuzk::bench {

// Fast valid elements: random limbs, top limb below the modulus' top limb (< p), taken as
// Montgomery images. Not uniform, which timing does not need; never zero-filled.
template <class F>
std::vector<F> fill(std::size_t n, std::uint64_t seed) {
  std::vector<F> v(n);
  std::mt19937_64 rng(seed);
  for (auto& x : v) {
    typename F::Repr r{};
    for (auto& w : r) w = rng();
    r[F::kLimbs - 1] %= F::kModulus[F::kLimbs - 1];
    x = F::from_mont(r);
  }
  return v;
}

// A witness-like distribution in place: 50% zeros, 40% ones, 10% left as they are
// (circuits full of bits, such as SHA-256 in PoRep, look like this).
template <class F>
void make_witness_like(std::vector<F>& v, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (auto& s : v) {
    const auto r = rng() % 10;
    if (r < 5) s = F::zero();
    else if (r < 9) s = F::one();
  }
}

// Median device time (cudaEvents) of `reps` runs after one warm-up.
// setup (when given) runs before each body, outside the timed span (e.g. restoring inputs
// that the body transforms in place).
inline float median_ms(int reps, const std::function<void()>& body, const std::function<void()>& setup = {}) {
  gpu::EventTimer t;
  if (setup) setup();
  body();
  gpu::stream_synchronize();
  std::vector<float> ms;
  for (int r = 0; r < reps; ++r) {
    if (setup) setup();
    t.start();
    body();
    t.stop();
    ms.push_back(t.elapsed_ms());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Median wall time of `reps` runs after one warm-up (bodies that end synchronised);
// setup (when given) runs before each body, untimed.
inline double median_wall_ms(int reps, const std::function<void()>& body, const std::function<void()>& setup = {}) {
  if (setup) setup();
  body();
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    if (setup) setup();
    const auto t0 = std::chrono::steady_clock::now();
    body();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

inline void row(const char* what, std::size_t log_n, double ms, const char* note = "") {
  std::printf("%-44s 2^%-3zu %10.3f ms  %s\n", what, log_n, ms, note);
  std::fflush(stdout);
}

// " name ms" for each phase of a proof, then " ms" and a newline.
inline void print_phases(const groth16::PhaseTimings& t) {
  for (const auto& [name, ms] : t.phases) std::printf(" %s %.1f", name.c_str(), ms);
  std::printf(" ms\n");
}

void run_msm_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning);
void run_prove_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning);
void run_stream_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning);
void run_partition_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning);
void run_small_card_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning);

}  // namespace cuzk::bench
