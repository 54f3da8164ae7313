// The GPU work of one porep-like partition at 2^k (k = max_log, up to 27), BLS12-381:
//   - H in the bellperson convention on device-resident a and b, c = a.b implied
//     (compute_h_classic_ab_device: 2 iNTT, 2 coset NTT, pointwise, 2 forward transforms;
//     the seven-transform compute_h_classic_device from a, b, c is timed beside it);
//   - five MSMs of n = 2^k points: H (uniform scalars), and A, B1, L over G1 and B2 over G2
//     with witness-like scalars (50% 0, 40% 1, 10% uniform: PoRep's witness is mostly the
//     bits of SHA-256), A, B1 and B2 sharing one DeviceScalars as in a proof.
// Points are 2^16 distinct ones repeated (an MSM's work does not depend on their values);
// all inputs are resident before timing, as with a resident key and an uploaded witness.
// Not included: the a/b/c evaluation from the CSR matrices (it needs the circuit: see the
// prove section, 77 ms at 2^24) and the witness upload. Sizes are upper bounds: a real
// partition's A/B queries hold one point per variable, fewer than 2^27.
// The last rows run the same work as whole chains: H then MSM H (its scalar conversion
// included), and the witness MSMs A, B1, L, B2; in sequence on one thread, at once on two
// host threads (each its per-thread default stream and MSM scratch), and two partitions at
// once (wall time halved).
#include <cstdio>
#include <exception>
#include <thread>
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
namespace {
// f on a new host thread (its own per-thread default stream), g on this one; rethrows f's
// exception after both ended.
template <class F, class G>
void on_two_threads(F&& f, G&& g) {
  std::exception_ptr err;
  std::thread t([&] {
    try {
      f();
    } catch (...) {
      err = std::current_exception();
    }
  });
  g();
  t.join();
  if (err) std::rethrow_exception(err);
}
}  // namespace

void run_partition_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning) {
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
  const gpu::NttPlan<Fr> plan(k, gpu::TwiddleTable::kFull, tuning);
  const gpu::DeviceBuffer<Fr> src{std::span<const Fr>(uniform)};
  gpu::DeviceBuffer<Fr> abc(3 * n);
  Fr* a = abc.data();
  const Fr g = poly::multiplicative_generator<Fr>();

  double sum = 0;
  auto step = [&](const char* what, double ms) {
    sum += ms;
    row(what, k, ms);
  };
  auto restore = [&] {  // a, b, c restored before each run, untimed
    for (int j = 0; j < 3; ++j) gpu::copy_device_to_device(a + j * n, src.data(), n * sizeof(Fr));
    gpu::stream_synchronize();
  };
  row("partition: H from a, b, c (7 NTTs)", k,
      median_ms(reps, [&] { gpu::compute_h_classic_device<Fr>(plan, a, a + n, a + 2 * n, g); }, restore),
      "(not counted: the prover runs the row below)");
  step("partition: H from a, b (6 NTTs, bellperson)",
       median_ms(reps, [&] { gpu::compute_h_classic_ab_device<Fr>(plan, a, a + n, a + 2 * n, g); }, restore));
  gpu::MsmWorkspace msm_ws;  // one scratch for the proof's MSMs, as CudaBackend::compute
  const gpu::MsmOptions o{0, 0, &msm_ws, tuning};
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

  gpu::DeviceBuffer<Fr> abc2(3 * n);
  gpu::MsmWorkspace ws_h, ws_h2, ws_w2;
  auto h_chain = [&](Fr* x, gpu::MsmWorkspace* w) {
    gpu::compute_h_classic_ab_device<Fr>(plan, x, x + n, x + 2 * n, g);
    const auto hs = gpu::DeviceScalars<Fr>::from_device(x, n);
    (void)gpu::msm<G1>(p1, hs, gpu::MsmOptions{0, 0, w, tuning});
  };
  auto witness_msms = [&](gpu::MsmWorkspace* w) {
    const gpu::MsmOptions ow{0, 0, w, tuning};
    for (int j = 0; j < 3; ++j) (void)gpu::msm<G1>(p1, ws, ow);
    (void)gpu::msm<G2>(p2, ws, ow);
  };
  auto restore2 = [&] {
    restore();
    for (int j = 0; j < 3; ++j) gpu::copy_device_to_device(abc2.data() + j * n, src.data(), n * sizeof(Fr));
    gpu::stream_synchronize();
  };
  auto sequence = [&] {
    h_chain(a, &ws_h);
    witness_msms(&msm_ws);
  };
  row("partition: chains in sequence (1 thread)", k, median_wall_ms(reps, sequence, restore), "(wall)");
  row("partition: chains at once (2 threads)", k,
      median_wall_ms(
          reps, [&] { on_two_threads([&] { h_chain(a, &ws_h); }, [&] { witness_msms(&msm_ws); }); }, restore),
      "(wall)");
  auto second = [&] {
    h_chain(abc2.data(), &ws_h2);
    witness_msms(&ws_w2);
  };
  row("partition: 2 partitions at once, each", k,
      median_wall_ms(reps, [&] { on_two_threads(sequence, second); }, restore2) / 2, "(wall / 2)");
}

}  // namespace cuzk::bench
