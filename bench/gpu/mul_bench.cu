// gpu_mul_bench: throughput of the device Montgomery product variants of DevFp
// (MontPairs, the one DevFp uses on the device, mont_mul_portable, MontF64 on the FP64 pipe
// alone and beside MontPairs in one thread, MontKara::mul_kara) and of the square
// (MontPairs::sqr against MontPairs::mul(a, a)) for BLS12-381 Fr and Fq, each thread running
// one dependent chain of products (x = x y) or squares (x = x^2) (as the MSM's
// accumulation and the NTT's butterflies do), at two occupancies: 256 threads a block with the registers the
// compiler picks, and 128 a block bounded to 4 blocks per SM (<= 128 registers). Checks that
// the variants agree on every output.
//
// Usage: gpu_mul_bench [reps=5]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cu_bench.hpp"
#include "dev_mont_kara.cuh"
#include "cuzk/gpu/dev_params.cuh"

namespace {

using u32 = std::uint32_t;
enum Variant { kPairs, kPortable, kF64, kF64Pre, kHybrid, kKara, kSquareByMul, kSquare };
const char* kNames[] = {"pairs (aligned, DevFp's)", "portable (64-bit products)", "f64 (MontF64)",
                        "f64, y split once", "hybrid: pairs + f64 chains", "karatsuba + redc (pairs)",
                        "square as pairs a*a",
                        "square (MontPairs::sqr)"};

template <class D, int V>
__device__ __forceinline__ D mul(const D& a, const D& b) {
  D r;
  if constexpr (V == kPortable) D::mont_mul_portable(r.l, a.l, b.l);
  else if constexpr (V == kSquare) D::mont_sqr(r.l, a.l);
  else if constexpr (V == kSquareByMul) D::mont_mul(r.l, a.l, a.l);
  else if constexpr (V == kF64) D::mont_mul_f64(r.l, a.l, b.l);
#if defined(CUZK_GPU_PTX_PATH)
  else if constexpr (V == kKara) {
    cuzk::gpu::MontKara<typename D::Params>::mul_kara(r.l, a.l, b.l);
    D::reduce_once(r.l);
  }
#endif
  else D::mont_mul(r.l, a.l, b.l);
  return r;
}

// x = x y through MontF64 with y's limbs split once (as for a constant such as a twiddle).
template <class D>
struct PreSplit {
  using M = cuzk::gpu::MontF64<typename D::Params>;
  double y[M::L];
  __device__ explicit PreSplit(const D& b) { M::to_limbs(y, b.l); }
  __device__ __forceinline__ D mul(const D& a) const {
    double x[M::L];
    M::to_limbs(x, a.l);
    D r;
    M::mul_limbs(r.l, x, y);
    D::reduce_once(r.l);
    return r;
  }
};

// One dependent chain per thread; kHybrid: two independent chains per thread, elements i
// (MontPairs, integer pipe) and i + n/2 (MontF64, FP64 pipe), launched on n/2 threads.
template <class D, int V>
__device__ __forceinline__ void chain(D* x, const D* y, int reps) {
  const std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  D a = x[i];
  const D b = y[i];
  if constexpr (V == kHybrid) {
    const std::size_t j = i + std::size_t{gridDim.x} * blockDim.x;
    D c = x[j];
    const D d = y[j];
    for (int r = 0; r < reps; ++r) a = mul<D, kPairs>(a, b), c = mul<D, kF64>(c, d);
    x[j] = c;
  } else if constexpr (V == kF64Pre) {
    const PreSplit<D> pb(b);
    for (int r = 0; r < reps; ++r) a = pb.mul(a);
  } else {
    for (int r = 0; r < reps; ++r) a = mul<D, V>(a, b);
  }
  x[i] = a;
}
template <class D, int V>
__global__ void chain_free(D* x, const D* y, int reps) {
  chain<D, V>(x, y, reps);
}
template <class D, int V>
__global__ void __launch_bounds__(128, 4) chain_bound(D* x, const D* y, int reps) {
  chain<D, V>(x, y, reps);
}

template <class F>
void run_field(const char* field, int reps) {
  using D = cuzk::gpu::DevField<F>;
  constexpr std::size_t n = std::size_t{1} << 21;
  constexpr int chain = 128;
  std::vector<F> hx(n), hy(n);
  std::mt19937_64 rng(42);
  for (std::size_t i = 0; i < n; ++i) hx[i] = F::random(rng), hy[i] = F::random(rng);
  D *x = nullptr, *y = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(D)));
  CHECK(cudaMalloc(&y, n * sizeof(D)));
  CHECK(cudaMemcpy(y, hy.data(), n * sizeof(D), cudaMemcpyHostToDevice));
  std::vector<std::vector<u32>> outs;
  auto time = [&](auto launch) {
    const float ms = cuzk::bench::median_event_ms(
        reps, launch, [&] { CHECK(cudaMemcpy(x, hx.data(), n * sizeof(D), cudaMemcpyHostToDevice)); });
    std::vector<u32> out(n * D::N);
    CHECK(cudaMemcpy(out.data(), x, n * sizeof(D), cudaMemcpyDeviceToHost));
    outs.push_back(std::move(out));
    return ms;
  };
  auto report = [&](int v, const char* occ, float ms) {
    std::printf("%-4s %-32s %-22s %8.3f ms  %6.2f Gmul/s\n", field, kNames[v], occ, ms, n * double(chain) / ms / 1e6);
  };
  auto both = [&](auto vtag) {
    constexpr int V = decltype(vtag)::value;
    cudaFuncAttributes fa{}, fb{};
    CHECK(cudaFuncGetAttributes(&fa, chain_free<D, V>));
    CHECK(cudaFuncGetAttributes(&fb, chain_bound<D, V>));
    char o1[48], o2[48];
    std::snprintf(o1, sizeof o1, "256/blk, %d regs", fa.numRegs);
    std::snprintf(o2, sizeof o2, "128/blk x4, %d regs", fb.numRegs);
    const unsigned per = V == kHybrid ? 2 : 1;  // elements per thread
    report(V, o1, time([&] { chain_free<D, V><<<n / 256 / per, 256>>>(x, y, chain); }));
    report(V, o2, time([&] { chain_bound<D, V><<<n / 128 / per, 128>>>(x, y, chain); }));
  };
  auto agree = [&](std::size_t from) {
    for (std::size_t k = from + 1; k < outs.size(); ++k)
      if (outs[k] != outs[from]) {
        std::printf("%s: MISMATCH between run %zu and run %zu\n", field, from, k);
        std::exit(2);
      }
  };
  both(std::integral_constant<int, kPairs>{});
  both(std::integral_constant<int, kPortable>{});
  both(std::integral_constant<int, kF64>{});
  both(std::integral_constant<int, kF64Pre>{});
  both(std::integral_constant<int, kHybrid>{});
  both(std::integral_constant<int, kKara>{});
  agree(0);
  const std::size_t squares = outs.size();
  both(std::integral_constant<int, kSquareByMul>{});
  both(std::integral_constant<int, kSquare>{});
  agree(squares);
  std::printf("%s: all %zu runs agree (products among themselves, squares among themselves)\n", field, outs.size());
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  run_field<cuzk::ff::bls12_381::Fr>("Fr", reps);
  run_field<cuzk::ff::bls12_381::Fq>("Fq", reps);
  return 0;
}
