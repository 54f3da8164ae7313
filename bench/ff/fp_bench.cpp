// Prime-field micro-benchmarks: every op runs in a dependent chain (x = op(x, y)),
// so the time per iteration is the op's latency, as in the blst peer harness
// (bench/RESULTS.md). *_x4 variants run four independent chains (throughput).
// The chain's value is handed to DoNotOptimize once, after the loop: the chain is
// data-dependent, so nothing can be dropped, and forcing it through memory every
// iteration would time store-forwarding rather than arithmetic.
// On a shared machine run with repetitions and read the _min aggregate:
//   ff_bench --benchmark_repetitions=15 --benchmark_min_time=0.05 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "cuzk/ff/fields.hpp"

namespace {
using namespace cuzk::ff;

template <class F>
std::pair<F, F> inputs() {
  std::mt19937_64 g(0xbe4c);
  return {F::random(g), F::random(g)};
}

template <class F>
void BM_mul(benchmark::State& st) {
  auto [x, y] = inputs<F>();
  for (auto _ : st) {
    x = x * y;
  }
  benchmark::DoNotOptimize(x);
}

template <class F>
void BM_mul_x4(benchmark::State& st) {
  auto [x, y] = inputs<F>();
  F a = x, b = x + y, c = x - y, d = y;
  for (auto _ : st) {
    a = a * y;
    b = b * y;
    c = c * y;
    d = d * x;
  }
  benchmark::DoNotOptimize(a);
  benchmark::DoNotOptimize(b);
  benchmark::DoNotOptimize(c);
  benchmark::DoNotOptimize(d);
  st.SetItemsProcessed(4 * st.iterations());
}

template <class F>
void BM_square(benchmark::State& st) {
  auto [x, y] = inputs<F>();
  for (auto _ : st) {
    x = x.square();
  }
  benchmark::DoNotOptimize(x);
}

template <class F>
void BM_add(benchmark::State& st) {
  auto [x, y] = inputs<F>();
  for (auto _ : st) {
    x = x + y;
  }
  benchmark::DoNotOptimize(x);
}

template <class F>
void BM_sub(benchmark::State& st) {
  auto [x, y] = inputs<F>();
  for (auto _ : st) {
    x = x - y;
  }
  benchmark::DoNotOptimize(x);
}

template <class F>
void BM_inverse(benchmark::State& st) {
  auto [x, y] = inputs<F>();
  for (auto _ : st) {
    x = x.inverse();
  }
  benchmark::DoNotOptimize(x);
}

double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

#define CUZK_FIELD_BENCH(F)                                      \
  BENCHMARK(BM_mul<F>)->ComputeStatistics("min", min_of);        \
  BENCHMARK(BM_mul_x4<F>)->ComputeStatistics("min", min_of);     \
  BENCHMARK(BM_square<F>)->ComputeStatistics("min", min_of);     \
  BENCHMARK(BM_add<F>)->ComputeStatistics("min", min_of);        \
  BENCHMARK(BM_sub<F>)->ComputeStatistics("min", min_of);        \
  BENCHMARK(BM_inverse<F>)->ComputeStatistics("min", min_of)

CUZK_FIELD_BENCH(bls12_381::Fq);
CUZK_FIELD_BENCH(bls12_381::Fr);
CUZK_FIELD_BENCH(bn254::Fq);
CUZK_FIELD_BENCH(bn254::Fr);

}  // namespace

BENCHMARK_MAIN();
