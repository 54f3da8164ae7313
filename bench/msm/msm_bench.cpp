// CPU MSM benchmarks: G1 of BLS12-381 and BN254 at 2^12 .. 2^20, G2 at 2^12 and 2^14,
// random scalars and a 90%-boolean mix (plain Pippenger vs the 0/1 split), and a window
// size sweep to check the cost model of window.hpp.
//   msm_bench --benchmark_filter=G1/          (etc.)
#include <benchmark/benchmark.h>

#include <cstddef>
#include <map>
#include <random>
#include <span>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/msm/msm.hpp"

namespace {

using namespace cuzk;

// Distinct points: successive sums of a few random multiples of G (cheap), made affine
// with one batch inversion. Cached per curve for the largest size requested so far.
template <class C>
const std::vector<ec::Affine<C>>& points(std::size_t n) {
  static std::vector<ec::Affine<C>> cache;
  if (cache.size() < n) {
    std::mt19937_64 g(42);
    std::vector<ec::Jacobian<C>> seeds;
    for (int i = 0; i < 8; ++i) seeds.push_back(ec::Jacobian<C>::generator() * C::Scalar::random(g));
    std::vector<ec::Jacobian<C>> pts(n);
    ec::Jacobian<C> acc = seeds[0];
    for (std::size_t i = 0; i < n; ++i) pts[i] = acc = acc + seeds[i % 8];
    cache = ec::batch_to_affine<C>(std::span<const ec::Jacobian<C>>(pts));
  }
  return cache;
}

template <class S>
std::vector<S> scalars(std::size_t n, unsigned pct_random) {
  std::mt19937_64 g(7);
  std::vector<S> s(n);
  for (auto& x : s) {
    unsigned r = static_cast<unsigned>(g() % 100);
    x = r < pct_random ? S::random(g) : (r % 2 ? S::one() : S::zero());
  }
  return s;
}

// mode 0: msm (plain Pippenger); 1: msm_split01; range(1) = window size (0 = auto)
template <class C>
void BM_Msm(benchmark::State& st, unsigned pct_random, int mode) {
  using S = typename C::Scalar;
  const std::size_t n = std::size_t{1} << st.range(0);
  const unsigned c = st.range(1) ? static_cast<unsigned>(st.range(1)) : 0u;
  std::span<const ec::Affine<C>> p(points<C>(n).data(), n);
  auto s = scalars<S>(n, pct_random);
  for (auto _ : st) {
    auto r = mode == 0 ? msm::msm<C>(p, std::span<const S>(s), c) : msm::msm_split01<C>(p, std::span<const S>(s), c);
    benchmark::DoNotOptimize(r);
  }
  st.counters["c"] = msm::plan_msm<S>(s, {.split01 = mode == 1, .window_bits = c}).window_bits;
}

void sizes_g1(benchmark::internal::Benchmark* b) {
  for (int k : {12, 14, 16, 18, 20}) b->Args({k, 0});
}
void sizes_g2(benchmark::internal::Benchmark* b) {
  for (int k : {12, 14}) b->Args({k, 0});
}
void sizes_bool(benchmark::internal::Benchmark* b) {
  for (int k : {16, 18}) b->Args({k, 0});
}
void window_sweep(benchmark::internal::Benchmark* b) {
  for (int k : {12, 16})
    for (int c = 8; c <= 16; ++c) b->Args({k, c});
}

using Bls1 = ec::bls12_381::G1Curve;
using Bls2 = ec::bls12_381::G2Curve;
using Bn1 = ec::bn254::G1Curve;
using Bn2 = ec::bn254::G2Curve;

template <class C>
void add(const char* name, unsigned pct, int mode, void (*args)(benchmark::internal::Benchmark*)) {
  benchmark::RegisterBenchmark(name, [pct, mode](benchmark::State& st) { BM_Msm<C>(st, pct, mode); })
      ->Apply(args)
      ->Unit(benchmark::kMillisecond)
      ->MeasureProcessCPUTime()
      ->UseRealTime();
}

void register_all() {
  add<Bls1>("G1_bls12_381_random", 100, 0, sizes_g1);
  add<Bn1>("G1_bn254_random", 100, 0, sizes_g1);
  add<Bls2>("G2_bls12_381_random", 100, 0, sizes_g2);
  add<Bn2>("G2_bn254_random", 100, 0, sizes_g2);
  add<Bls1>("G1_bls12_381_bool90_plain", 10, 0, sizes_bool);
  add<Bls1>("G1_bls12_381_bool90_split01", 10, 1, sizes_bool);
  add<Bn1>("G1_bn254_bool90_plain", 10, 0, sizes_bool);
  add<Bn1>("G1_bn254_bool90_split01", 10, 1, sizes_bool);
  add<Bn1>("Window_bn254_g1", 100, 0, window_sweep);
  add<Bls1>("Window_bls12_381_g1", 100, 0, window_sweep);
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
