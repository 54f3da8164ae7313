// GPU timings (a plain main, median of repeated runs after a warm-up), in sections:
//   ntt:   Fr multiplication throughput; NTT forward 2^20/2^24/2^26/2^27, inverse and coset
//          (BLS12-381 Fr, device-resident data, kernels only), the same forward including
//          the host<->device copies, and the snarkjs H pipeline;
//   sizes: NTT forward (kernels) at every size from 2^14 to 2^max_log, with the pass shape
//          each plan chose (NttPassShape::for_device, or CUZK_NTT_PASSES for all); only when
//          named, not in "all";
//   msm:   G1/G2 MSMs (msm_bench.cpp);
//   prove: a whole proof through CudaBackend (prove_bench.cpp);
//   partition: the GPU work of a porep-like 2^27 partition (partition_bench.cpp);
//   stream: a proof with the key resident vs streamed from host memory, and witness
//           uploads pageable-staged vs pinned (stream_bench.cpp);
//   smallcard: a 2^max_log proof streamed on the device cut to a small card's memory
//           (small_card_bench.cpp); only when named, not in "all".
// Usage: gpu_bench [max_log=27] [reps=10] [sections=all | e.g. msm,prove,stream]
// CUZK_EMULATE_SMEM_PER_SM_KIB=100 runs every section with a consumer card's blocks per SM
// (runtime.hpp: the NTT's tiles for that SM, shared-memory blocks padded to its occupancy). The
// GPU layer's CUZK_* variables (gpu::tuning_from_environment, read once here) steer every section.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/field_ops.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/runtime.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::bench;
using Fr = ff::bls12_381::Fr;

bool wants(const std::string& sections, const char* s) {
  return sections == "all" || sections.find(s) != std::string::npos;
}

void run_ntt_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning) {
  std::printf("peer (sppark, same H200): NTT 2^24 4.7 ms, 2^26 23.8 ms, 2^27 44.4 ms, coset 2^27 49.2 ms\n\n");
  {  // multiplication throughput: 2^24 elements x 256 dependent products each
    const std::size_t n = std::size_t{1} << 24;
    const int chain = 256;
    const auto hx = fill<Fr>(n, 1), hy = fill<Fr>(n, 2);
    gpu::DeviceBuffer<Fr> x{std::span<const Fr>(hx)}, y{std::span<const Fr>(hy)};
    const float ms = median_ms(reps, [&] { gpu::mul_chain_device<Fr>(x.data(), y.data(), n, chain); });
    std::printf("%-44s 2^%-3d %10.3f ms  %.2f Gmul/s\n", "Fr mul (chains of 256)", 24, ms,
                double(n) * chain / (ms * 1e-3) / 1e9);
  }
  for (std::size_t k : {20u, 24u, 26u, 27u}) {
    if (k > max_log) continue;
    const gpu::NttPlan<Fr> plan(k, gpu::TwiddleTable::kFull, tuning);
    const auto h = fill<Fr>(plan.size(), 3 + k);
    gpu::DeviceBuffer<Fr> x{std::span<const Fr>(h)};
    row("NTT forward (kernels)", k, median_ms(reps, [&] { plan.forward(x.data()); }));
    if (k == max_log || k == 27) {
      row("NTT inverse (kernels)", k, median_ms(reps, [&] { plan.inverse(x.data()); }));
      const gpu::PowerTable<Fr> g(Fr::from_u64(7), Fr::one(), plan.size());
      row("coset NTT forward (kernels)", k, median_ms(reps, [&] { plan.coset_forward(x.data(), g); }));
      // The table a streamed key's plan keeps (KeyLayout::compact_twiddles).
      const gpu::NttPlan<Fr> lean(k, plan.shape(), gpu::TwiddleTable::kCompact, tuning);
      row("NTT forward, compact twiddles (kernels)", k, median_ms(reps, [&] { lean.forward(x.data()); }));
      row("NTT inverse, compact twiddles (kernels)", k, median_ms(reps, [&] { lean.inverse(x.data()); }));
    }
    std::vector<Fr> back(plan.size());
    const int copy_reps = std::max(3, reps / 3);
    row("NTT forward incl. H2D+D2H copies", k, median_ms(copy_reps, [&] {
          x.upload(h);
          plan.forward(x.data());
          x.download(back);
        }),
        "(pageable host memory)");
  }
  if (max_log >= 24) {  // snarkjs H: 3 x (iNTT + shift + NTT) + a*b-c, device-resident
    const std::size_t k = std::min<std::size_t>(max_log, 24);
    const gpu::NttPlan<Fr> plan(k, gpu::TwiddleTable::kFull, tuning);
    const auto h = fill<Fr>(3 * plan.size(), 9);
    gpu::DeviceBuffer<Fr> abc{std::span<const Fr>(h)};
    Fr* p = abc.data();
    const std::size_t n = plan.size();
    row("snarkjs H (device-resident)", k,
        median_ms(reps, [&] { gpu::compute_h_snarkjs_device<Fr>(plan, p, p + n, p + 2 * n); }));
  }
}

void run_ntt_sizes(std::size_t max_log, int reps, const gpu::Tuning& tuning) {
  for (std::size_t k = 14; k <= max_log; ++k) {
    const gpu::NttPlan<Fr> plan(k, gpu::TwiddleTable::kFull, tuning);
    const auto h = fill<Fr>(plan.size(), 5 + k);
    gpu::DeviceBuffer<Fr> x{std::span<const Fr>(h)};
    const auto& sh = plan.shape();
    char note[64];
    std::snprintf(note, sizeof note, "(passes %d,%d,%d,%d)", sh.last, sh.inner, sh.log_cols, sh.radix);
    row("NTT forward (kernels)", k, median_ms(reps, [&] { plan.forward(x.data()); }), note);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t max_log = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 27;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  const std::string sections = argc > 3 ? argv[3] : "all";
  try {
    const gpu::Tuning tuning = gpu::tuning_from_environment();
    gpu::configure_device_memory(tuning);
    gpu::require_device();
    std::printf("device: %s\n", gpu::device_description().c_str());
    if (tuning.emulate_smem_per_sm_kib != 0)
      std::printf(
          "emulating an SM of %zu KiB shared memory (CUZK_EMULATE_SMEM_PER_SM_KIB): blocks per SM as on such a "
          "card, the speed of this one\n",
          gpu::device_smem_limits(tuning.emulate_smem_per_sm_kib).per_sm >> 10);
    if (wants(sections, "ntt")) run_ntt_bench(max_log, reps, tuning);
    if (sections.find("sizes") != std::string::npos) run_ntt_sizes(max_log, reps, tuning);  // not in "all"
    if (wants(sections, "msm")) run_msm_bench(max_log, reps, tuning);
    if (wants(sections, "prove")) run_prove_bench(max_log, std::max(2, reps / 4), tuning);
    if (wants(sections, "partition")) run_partition_bench(max_log, std::max(2, reps / 4), tuning);
    if (wants(sections, "stream")) run_stream_bench(max_log, std::max(2, reps / 4), tuning);
    if (sections.find("smallcard") != std::string::npos) run_small_card_bench(max_log, reps, tuning);  // not in "all"
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
