// The GPU work of one porep-like partition at 2^k (k = max_log, up to 27), BLS12-381:
//   - H in the bellperson convention on device-resident a, b, c (3 iNTT, 3 coset NTT,
//     pointwise, coset iNTT: compute_h_classic_device);
//   - five MSMs of n = 2^k points: H (uniform scalars), and A, B1, L over G1 and B2 over G2
//     with witness-like scalars (50% 0, 40% 1, 10% uniform: PoRep's witness is mostly the
//     bits of SHA-256), A, B1 and B2 sharing one DeviceScalars as in a proof.
// Points are 2^16 distinct ones repeated (an MSM's work does not depend on their values);
// all inputs are resident before timing, as with a resident key and an uploaded witness.
// Not included: the a/b/c evaluation from the CSR matrices (it needs the circuit: see the
// prove section, 77 ms at 2^24) and the witness upload. Sizes are upper bounds: a real
// partition's A/B queries hold one point per variable, fewer than 2^27.
#include <cstdio>
#include <vector>

#include "bench_util.hpp"
#include "cuzk/ec/curves.hpp"
#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/poly/generator.hpp"
#include "device_points.hpp"

namespace cuzk::bench {

void run_partition_bench(std::size_t max_log, int reps) {
  using G1 = ec::bls12_381::G1Curve;
  using G2 = ec::bls12_381::G2Curve;
  using Fr = ff::bls12_381::Fr;
  const std::size_t k = std::min<std::size_t>(max_log, 27);
  const std::size_t n = std::size_t{1} << k;
  std::printf("partition 2^%zu: target <= 1000 ms GPU time (supraseal-c2 ~1.6-1.8 s on an RTX 5070 Ti)\n", k);
  const auto p1 = device_points<G1>(n);
  const auto p2 = device_points<G2>(n);
  auto uniform = fill<Fr>(n, 31);
  auto wit = uniform;
  make_witness_like(wit, 32);
  const gpu::NttPlan<Fr> plan(k);
  const gpu::DeviceBuffer<Fr> src{std::span<const Fr>(uniform)};
  gpu::DeviceBuffer<Fr> abc(3 * n);
  Fr* a = abc.data();
  const Fr g = poly::multiplicative_generator<Fr>();

  double sum = 0;
  auto step = [&](const char* what, double ms) {
    sum += ms;
    row(what, k, ms);
  };
  step("partition: H (7 NTTs, bellperson)",
       median_ms(
           reps, [&] { gpu::compute_h_classic_device<Fr>(plan, a, a + n, a + 2 * n, g); },
           [&] {  // a, b, c restored before each run, untimed
             for (int j = 0; j < 3; ++j) gpu::copy_device_to_device(a + j * n, src.data(), n * sizeof(Fr));
           }));
  gpu::MsmWorkspace msm_ws;  // one scratch for the proof's MSMs, as CudaBackend::compute
  const gpu::MsmOptions o{0, 0, &msm_ws};
  {
    const auto hs = gpu::DeviceScalars<Fr>::from_device(a, n);
    step("partition: MSM H (G1, uniform)", median_wall_ms(reps, [&] { (void)gpu::msm<G1>(p1, hs, o); }));
  }
  const auto ws = gpu::DeviceScalars<Fr>::from_host(wit);
  std::printf("    witness-like scalars: %zu ones, %zu others of %zu\n", ws.num_ones(), ws.num_others(), n);
  const double g1 = median_wall_ms(reps, [&] { (void)gpu::msm<G1>(p1, ws, o); });
  step("partition: MSM A (G1, witness-like)", g1);
  step("partition: MSM B1 (G1, the same work as A)", g1);
  step("partition: MSM L (G1, the same work as A)", g1);
  step("partition: MSM B2 (G2, witness-like)", median_wall_ms(reps, [&] { (void)gpu::msm<G2>(p2, ws, o); }));
  row("partition: total GPU time", k, sum, "(sum of the rows above)");
}

}  // namespace cuzk::bench
