// NTT and H-polynomial benchmarks (BLS12-381 Fr and BN254 Fr).
// Run: poly_bench [--benchmark_filter=...]; sizes are log2 n.
#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <random>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "cuzk/poly/h_poly.hpp"

using namespace cuzk::poly;
using Bls = cuzk::ff::bls12_381::Fr;
using Bn = cuzk::ff::bn254::Fr;

namespace {
template <class F>
std::vector<F> random_vec(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<F> v(n);
  for (auto& x : v) x = F::random(rng);
  return v;
}

template <class F>
void BM_Ntt(benchmark::State& st) {
  EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(st.range(0));
  auto x = random_vec<F>(d.size(), 1);
  for (auto _ : st) {
    ntt<F>(d, x);
    benchmark::DoNotOptimize(x.data());
  }
  st.SetItemsProcessed(st.iterations() * d.size());
}
template <class F>
void BM_Intt(benchmark::State& st) {
  EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(st.range(0));
  auto x = random_vec<F>(d.size(), 2);
  for (auto _ : st) {
    intt<F>(d, x);
    benchmark::DoNotOptimize(x.data());
  }
  st.SetItemsProcessed(st.iterations() * d.size());
}
template <class F>
void BM_CosetNtt(benchmark::State& st) {
  EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(st.range(0));
  auto x = random_vec<F>(d.size(), 3);
  const F g = multiplicative_generator<F>();
  for (auto _ : st) {
    coset_ntt<F>(d, x, g);
    benchmark::DoNotOptimize(x.data());
  }
  st.SetItemsProcessed(st.iterations() * d.size());
}
template <class F>
void BM_CosetIntt(benchmark::State& st) {
  EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(st.range(0));
  auto x = random_vec<F>(d.size(), 4);
  const F g = multiplicative_generator<F>();
  for (auto _ : st) {
    coset_intt<F>(d, x, g);
    benchmark::DoNotOptimize(x.data());
  }
  st.SetItemsProcessed(st.iterations() * d.size());
}
// Full H including the copies into scratch vectors (what the prover pays).
template <class F>
void BM_HClassic(benchmark::State& st) {
  EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(st.range(0));
  auto a = random_vec<F>(d.size(), 5), b = random_vec<F>(d.size(), 6), c = random_vec<F>(d.size(), 7);
  for (auto _ : st) {
    auto h = compute_h_classic<F>(d, a, b, c);
    benchmark::DoNotOptimize(h.data());
  }
}
template <class F>
void BM_HSnarkjs(benchmark::State& st) {
  EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(st.range(0));
  auto a = random_vec<F>(d.size(), 5), b = random_vec<F>(d.size(), 6), c = random_vec<F>(d.size(), 7);
  for (auto _ : st) {
    auto q = compute_h_snarkjs<F>(d, a, b, c);
    benchmark::DoNotOptimize(q.data());
  }
}
// Thread scaling: args (log n, threads).
template <class F>
void BM_NttThreads(benchmark::State& st) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(st.range(1)));
  EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(st.range(0));
  auto x = random_vec<F>(d.size(), 8);
  for (auto _ : st) {
    ntt<F>(d, x);
    benchmark::DoNotOptimize(x.data());
  }
  st.SetItemsProcessed(st.iterations() * d.size());
}
template <class F>
void BM_Domain(benchmark::State& st) {
  for (auto _ : st) {
    EvaluationDomain<F> d = EvaluationDomain<F>::from_log_size(st.range(0));
    benchmark::DoNotOptimize(d.twiddles().data());
  }
}
}  // namespace

#define NTT_SIZES ->Arg(16)->Arg(18)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime()
#define H_SIZES ->Arg(16)->Arg(18)->Unit(benchmark::kMillisecond)->UseRealTime()

BENCHMARK(BM_Ntt<Bls>) NTT_SIZES;
BENCHMARK(BM_Intt<Bls>) NTT_SIZES;
BENCHMARK(BM_CosetNtt<Bls>) NTT_SIZES;
BENCHMARK(BM_CosetIntt<Bls>) NTT_SIZES;
BENCHMARK(BM_Ntt<Bn>) NTT_SIZES;
BENCHMARK(BM_HClassic<Bls>) H_SIZES;
BENCHMARK(BM_HSnarkjs<Bls>) H_SIZES;
BENCHMARK(BM_HClassic<Bn>) H_SIZES;
BENCHMARK(BM_HSnarkjs<Bn>) H_SIZES;
BENCHMARK(BM_Domain<Bls>) NTT_SIZES;
BENCHMARK(BM_NttThreads<Bls>)
    ->ArgsProduct({{16, 20}, {1, 2, 4, 8, 16}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK_MAIN();
