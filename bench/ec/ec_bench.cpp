// Point arithmetic of the four groups: Jacobian add/dbl/mixed add, XYZZ mixed add,
// scalar multiplication (wNAF), subgroup checks, batch affine conversion.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/ec/curves.hpp"

namespace {
using namespace cuzk::ec;

template <class C>
Jacobian<C> rnd(std::mt19937_64& g) {
  return Jacobian<C>::generator() * C::Scalar::random(g);
}

template <class C>
void BM_Add(benchmark::State& st) {
  std::mt19937_64 g(1);
  Jacobian<C> a = rnd<C>(g), b = rnd<C>(g);
  for (auto _ : st) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}
template <class C>
void BM_Dbl(benchmark::State& st) {
  std::mt19937_64 g(1);
  Jacobian<C> a = rnd<C>(g);
  for (auto _ : st) {
    a = a.dbl();
    benchmark::DoNotOptimize(a);
  }
}
template <class C>
void BM_AddMixed(benchmark::State& st) {
  std::mt19937_64 g(1);
  Jacobian<C> a = rnd<C>(g);
  Affine<C> b = rnd<C>(g).to_affine();
  for (auto _ : st) {
    a = a.add_mixed(b);
    benchmark::DoNotOptimize(a);
  }
}
template <class C>
void BM_XyzzAddMixed(benchmark::State& st) {
  std::mt19937_64 g(1);
  Xyzz<C> a = Xyzz<C>::from_jacobian(rnd<C>(g));
  Affine<C> b = rnd<C>(g).to_affine();
  for (auto _ : st) {
    a = a.add_mixed(b);
    benchmark::DoNotOptimize(a);
  }
}
template <class C>
void BM_ScalarMul(benchmark::State& st) {
  std::mt19937_64 g(1);
  Jacobian<C> a = rnd<C>(g);
  auto k = C::Scalar::random(g);
  for (auto _ : st) {
    a = a * k;
    benchmark::DoNotOptimize(a);
  }
}
template <class C>
void BM_SubgroupFast(benchmark::State& st) {
  std::mt19937_64 g(1);
  Jacobian<C> a = rnd<C>(g);
  for (auto _ : st) benchmark::DoNotOptimize(a.is_in_subgroup());
}
template <class C>
void BM_SubgroupSlow(benchmark::State& st) {
  std::mt19937_64 g(1);
  Jacobian<C> a = rnd<C>(g);
  for (auto _ : st) benchmark::DoNotOptimize(in_subgroup_slow(a));
}
template <class C>
void BM_BatchToAffine(benchmark::State& st) {
  std::mt19937_64 g(1);
  std::vector<Jacobian<C>> ps(static_cast<std::size_t>(st.range(0)));
  ps[0] = rnd<C>(g);
  for (std::size_t i = 1; i < ps.size(); ++i) ps[i] = ps[i - 1].dbl();
  std::vector<Affine<C>> out(ps.size());
  for (auto _ : st) {
    batch_to_affine(std::span<const Jacobian<C>>(ps), std::span<Affine<C>>(out));
    benchmark::DoNotOptimize(out.data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

#define CUZK_EC_BENCH(C)                        \
  BENCHMARK_TEMPLATE(BM_Add, C);                \
  BENCHMARK_TEMPLATE(BM_Dbl, C);                \
  BENCHMARK_TEMPLATE(BM_AddMixed, C);           \
  BENCHMARK_TEMPLATE(BM_XyzzAddMixed, C);       \
  BENCHMARK_TEMPLATE(BM_ScalarMul, C);          \
  BENCHMARK_TEMPLATE(BM_SubgroupFast, C);       \
  BENCHMARK_TEMPLATE(BM_SubgroupSlow, C);       \
  BENCHMARK_TEMPLATE(BM_BatchToAffine, C)->Arg(1024);

CUZK_EC_BENCH(bls12_381::G1Curve)
CUZK_EC_BENCH(bn254::G1Curve)
CUZK_EC_BENCH(bls12_381::G2Curve)
CUZK_EC_BENCH(bn254::G2Curve)

}  // namespace

BENCHMARK_MAIN();
