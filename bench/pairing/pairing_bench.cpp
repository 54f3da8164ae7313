// Pairing benchmarks per curve: Miller loop, final exponentiation, full pairing, and a
// 4-pair pairing_check (the Groth16 verification shape), plain and with prepared G2 points.
#include <benchmark/benchmark.h>

#include <array>
#include <random>

#include "cuzk/ec/pairing.hpp"

namespace {
using namespace cuzk;

template <class E>
struct Inputs {
  using Ops = ec::PairingOps<E>;
  using Fr = typename E::G1Curve::Scalar;
  std::array<typename Ops::Pair, 4> pairs;
  Inputs() {
    std::mt19937_64 g(1);
    for (auto& pr : pairs) {
      pr.first = (ec::Jacobian<typename E::G1Curve>::generator() * Fr::random(g)).to_affine();
      pr.second = (ec::Jacobian<typename E::G2Curve>::generator() * Fr::random(g)).to_affine();
    }
  }
};

template <class E>
void BM_MillerLoop(benchmark::State& st) {
  Inputs<E> in;
  for (auto _ : st) benchmark::DoNotOptimize(ec::miller_loop(in.pairs[0].first, in.pairs[0].second));
}
template <class E>
void BM_FinalExp(benchmark::State& st) {
  Inputs<E> in;
  auto f = ec::miller_loop(in.pairs[0].first, in.pairs[0].second);
  for (auto _ : st) benchmark::DoNotOptimize(ec::final_exponentiation<E>(f));
}
template <class E>
void BM_Pairing(benchmark::State& st) {
  Inputs<E> in;
  for (auto _ : st) benchmark::DoNotOptimize(ec::pairing(in.pairs[0].first, in.pairs[0].second));
}
template <class E>
void BM_PairingCheck4(benchmark::State& st) {
  Inputs<E> in;
  for (auto _ : st) benchmark::DoNotOptimize(ec::pairing_check(in.pairs));
}
// Groth16 verification shape: 4 pairs, three G2 points prepared in advance (verifying key),
// the fourth (the proof's B) prepared inside the timed loop.
template <class E>
void BM_PairingCheck4Prepared(benchmark::State& st) {
  using Ops = ec::PairingOps<E>;
  Inputs<E> in;
  std::array<typename Ops::G2Prepared, 3> vk{typename Ops::G2Prepared(in.pairs[1].second),
                                            typename Ops::G2Prepared(in.pairs[2].second),
                                            typename Ops::G2Prepared(in.pairs[3].second)};
  std::array<typename Ops::G1Affine, 4> ps{in.pairs[0].first, in.pairs[1].first, in.pairs[2].first, in.pairs[3].first};
  for (auto _ : st) {
    typename Ops::G2Prepared b(in.pairs[0].second);
    std::array<const typename Ops::G2Prepared*, 4> qs{&b, &vk[0], &vk[1], &vk[2]};
    benchmark::DoNotOptimize(Ops::pairing_check_prepared(ps, qs));
  }
}
template <class E>
void BM_Fq12Mul(benchmark::State& st) {
  std::mt19937_64 g(2);
  auto a = E::Fq12::random(g), b = E::Fq12::random(g);
  for (auto _ : st) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}

using Bls = ec::bls12_381::PairingEngine;
using Bn = ec::bn254::PairingEngine;
BENCHMARK(BM_Fq12Mul<Bls>)->Name("bls12_381/fq12_mul");
BENCHMARK(BM_MillerLoop<Bls>)->Name("bls12_381/miller_loop")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FinalExp<Bls>)->Name("bls12_381/final_exp")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Pairing<Bls>)->Name("bls12_381/pairing")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PairingCheck4<Bls>)->Name("bls12_381/pairing_check_4")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PairingCheck4Prepared<Bls>)->Name("bls12_381/pairing_check_4_prepared")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Fq12Mul<Bn>)->Name("bn254/fq12_mul");
BENCHMARK(BM_MillerLoop<Bn>)->Name("bn254/miller_loop")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FinalExp<Bn>)->Name("bn254/final_exp")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Pairing<Bn>)->Name("bn254/pairing")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PairingCheck4<Bn>)->Name("bn254/pairing_check_4")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PairingCheck4Prepared<Bn>)->Name("bn254/pairing_check_4_prepared")->Unit(benchmark::kMicrosecond);
}  // namespace

BENCHMARK_MAIN();
