// GPU MSM timings: G1 BLS12-381 at 2^20 .. 2^26 (points resident; scalars uploaded from
// host memory and classified inside the timed region, and again with resident scalars),
// a witness-like 0/1-heavy G1 MSM, G2 BLS12-381 and G1 BN254 at 2^20.
#include <cstdio>
#include <random>
#include <vector>

#include "bench_util.hpp"
#include "device_points.hpp"
#include "cuzk/ec/curves.hpp"
#include "cuzk/gpu/msm.hpp"

namespace cuzk::bench {

namespace {
template <class C>
void time_msm(const char* what, std::size_t log_n, int reps, const gpu::Tuning& tuning, bool witness_like = false) {
  using Fr = typename C::Scalar;
  const std::size_t n = std::size_t{1} << log_n;
  const auto pts = device_points<C>(n);
  auto sc = fill<Fr>(n, 5 + log_n);
  if (witness_like) make_witness_like(sc, 9);
  gpu::MsmWorkspace ws;  // the scratch reused across repetitions, as across a proof's MSMs
  const gpu::MsmOptions o{0, 0, &ws, tuning};
  const double total = median_wall_ms(reps, [&] {
    const auto ds = gpu::DeviceScalars<Fr>::from_host(sc);
    (void)gpu::msm<C>(pts, ds, o);
  });
  const auto ds = gpu::DeviceScalars<Fr>::from_host(sc);
  const double resident = median_wall_ms(reps, [&] { (void)gpu::msm<C>(pts, ds, o); });
  char note[96];
  std::snprintf(note, sizeof note, "(scalars resident: %.3f ms, window %u bits)", resident,
                gpu::plan_msm_layout(ds.num_others(), ds.num_ones(), ds.view().nbits).c);
  row(what, log_n, total, note);
}
}  // namespace

void run_msm_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning) {
  std::printf("peer (sppark, same H200): G1 MSM 2^20 24.1 ms, 2^22 61.5 ms, 2^24 185 ms, 2^26 651 ms; target 2^26 <= 400 ms\n");
  using B1 = ec::bls12_381::G1Curve;
  for (std::size_t k : {20u, 22u, 24u, 26u}) {
    if (k > max_log) continue;
    time_msm<B1>("G1 MSM bls12-381 (scalars from host)", k, k >= 26 ? std::max(2, reps / 3) : reps, tuning);
  }
  time_msm<B1>("G1 MSM bls12-381, 90% 0/1 scalars", 20, reps, tuning, true);
  time_msm<ec::bls12_381::G2Curve>("G2 MSM bls12-381 (scalars from host)", 20, std::max(3, reps / 2), tuning);
  time_msm<ec::bn254::G1Curve>("G1 MSM bn254 (scalars from host)", 20, reps, tuning);
}

}  // namespace cuzk::bench
