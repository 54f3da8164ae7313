// Whole-proof GPU timing: CudaBackend::compute (a/b/c from device CSR, H, five MSMs) on the
// synthetic mul-chain key of a 2^k domain (synthetic_key.hpp), BLS12-381, in both H
// conventions, the key resident. Correctness of full proofs is gpu_backend_test's job.
#include <cstdio>
#include <vector>

#include "bench_util.hpp"
#include "cuzk/gpu/backend.hpp"
#include "synthetic_key.hpp"

namespace cuzk::bench {

void run_prove_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning) {
  using E = groth16::Bls12_381;
  const std::size_t k = std::min<std::size_t>(max_log, 24);
  SyntheticProof s = synthetic_mul_chain(k);
  index_unless_disabled(s);
  const auto& pk = s.pk;
  for (groth16::HConvention conv : {groth16::HConvention::kZDivided, groth16::HConvention::kOddCoset}) {
    set_convention(s, conv);
    const std::size_t key_b = gpu::DeviceProvingKey<E>::estimate_bytes(pk);
    const std::size_t scratch_b =
        gpu::DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk, gpu::KeyLayout::all_resident(), tuning);
    const auto t0 = std::chrono::steady_clock::now();
    const gpu::DeviceProvingKey<E> key(pk, gpu::current_device(), gpu::KeyLayout::all_resident(), tuning);
    const double up = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    gpu::CudaBackend<E> backend(key);
    groth16::PhaseTimings last;
    const double ms = median_wall_ms(reps, [&] {
      groth16::PhaseTimings t;
      (void)backend.compute(pk, std::span<const E::Fr>(s.w), t);
      last = t;
    });
    const bool odd = conv == groth16::HConvention::kOddCoset;
    row(odd ? "proof, mul chain, snarkjs convention (no C)" : "proof, mul chain, bellperson convention", k, ms);
    std::printf("    key %.2f GiB (upload %.0f ms), per-proof scratch estimate %.2f GiB; phases:",
                key_b / double(1 << 30), up, scratch_b / double(1 << 30));
    print_phases(last);
    std::size_t free_b = 0, total_b = 0;
    gpu::device_memory(&free_b, &total_b);
    std::printf("    device memory in use with the key resident: %.2f GiB\n", (total_b - free_b) / double(1 << 30));
  }
}

}  // namespace cuzk::bench
