// gpu_affine_bench: is batch-affine accumulation worth an MSM redesign on this device?
// BLS12-381 G1, M distinct affine points in device memory, two ways to spend the additions:
//   - xyzz: each thread sums K consecutive points with XYZZ mixed additions (madd-2008-s,
//     the formula of the MSM's accumulation), K - 1 additions per thread;
//   - affine: out[i] = in[2i] + in[2i+1] in affine coordinates, the inversions batched:
//     each thread takes K pairs, multiplies their x2 - x1 (Montgomery's trick, prefix
//     products in local memory), the block multiplies its threads' products in a binary
//     tree in shared memory, one thread inverts the root (Fermat), the tree hands each
//     thread the inverse of its product, and the thread walks back over its pairs: 6
//     products per addition (3 for the trick, lambda, lambda^2, y3) and ~3 per thread for
//     the tree, against 10 for the mixed addition. This is one level of a pairwise tree:
//     an MSM built on it runs log2(bucket size) such levels.
// Checks a sample of each kernel's outputs against the host curve arithmetic. Prints
// additions per second for each, and for the affine kernel with the root left uninverted (the
// cost of everything but the inversion; its results are wrong and not checked). Distinct x
// in every pair (no doubling or P + (-P) case: an MSM would route those elsewhere).
// H200, 2^26 points (bench/RESULTS.md): xyzz 2.25 G additions/s; affine
// 0.57 / 0.89 / 1.22 / 1.50 at K = 8 / 16 / 32 / 64 (the one-thread inversion's latency),
// 1.73 without the inversion: in this form it loses even with a free inversion.
//
// Usage: gpu_affine_bench [log2 points = 24] [reps = 5]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cu_bench.hpp"
#include "cuzk/gpu/dev_point.cuh"
#include "host_points.hpp"

namespace {

using namespace cuzk;
using C = ec::bls12_381::G1Curve;
using Fq = ec::bls12_381::Fq;
using D = gpu::DevField<Fq, true>;
using A = gpu::DevAffine<D>;
using X = gpu::DevXyzz<D>;

constexpr int kTree = 256;  // threads per block of the affine kernel

template <int K>
__global__ void __launch_bounds__(128, 4) xyzz_kernel(const A* in, X* out, std::size_t threads) {
  const std::size_t t = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  const A* p = in + t * K;
  X acc = X::from_affine(p[0]);
  for (int k = 1; k < K; ++k) acc = acc.add_mixed(p[k]);
  out[t] = acc;
}

// a^(p-2) (Fermat), bits of p - 2 from the top.
__device__ D invert(const D& a) {
  using P = gpu::DevParams<Fq>;
  D r = D::one();
  for (int w = P::kN - 1; w >= 0; --w) {
    const std::uint32_t e = w == 0 ? P::p(0) - 2 : P::p(w);  // p is odd, p(0) >= 2
    for (int b = 31; b >= 0; --b) {
      r = r.square();
      if ((e >> b) & 1u) r = r * a;
    }
  }
  return r;
}

template <int K, bool kInvert>
__global__ void __launch_bounds__(kTree, 2) affine_kernel(const A* in, A* out, std::size_t pairs) {
  __shared__ D node[2 * kTree];
  const std::size_t t = std::size_t{blockIdx.x} * kTree + threadIdx.x;
  const std::size_t first = t * K;
  D pre[K];  // pre[k] = d_0 ... d_k
  D prod = D::one();
#pragma unroll 1
  for (int k = 0; k < K; ++k) {
    const std::size_t i = first + k;
    if (i < pairs) prod = prod * (in[2 * i + 1].x - in[2 * i].x);
    pre[k] = prod;
  }
  node[kTree + threadIdx.x] = prod;
  __syncthreads();
  for (int level = kTree / 2; level >= 1; level /= 2) {
    if (threadIdx.x < level) {
      const int i = level + threadIdx.x;
      node[i] = node[2 * i] * node[2 * i + 1];
    }
    __syncthreads();
  }
  if (kInvert && threadIdx.x == 0) node[1] = invert(node[1]);
  __syncthreads();
  for (int level = 1; level < kTree; level *= 2) {  // node[i] becomes the inverse of its product
    if (threadIdx.x < level) {
      const int i = level + threadIdx.x;
      const D inv = node[i], l = node[2 * i], r = node[2 * i + 1];
      node[2 * i] = inv * r;
      node[2 * i + 1] = inv * l;
    }
    __syncthreads();
  }
  D inv = node[kTree + threadIdx.x];  // 1 / (d_0 ... d_(K-1))
#pragma unroll 1
  for (int k = K - 1; k >= 0; --k) {
    const std::size_t i = first + k;
    if (i >= pairs) continue;
    const A p = in[2 * i], q = in[2 * i + 1];
    const D dx = q.x - p.x;
    const D inv_k = k > 0 ? inv * pre[k - 1] : inv;
    inv = inv * dx;
    const D lambda = (q.y - p.y) * inv_k;
    const D x3 = lambda.square() - p.x - q.x;
    out[i] = A{x3, lambda * (p.x - x3) - p.y};
  }
}

template <class T>
std::vector<T> download(const T* d, std::size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <int K>
void run_xyzz(const A* din, const std::vector<ec::Affine<C>>& pts, std::size_t M, int reps) {
  const std::size_t threads = M / K;
  X* dout = nullptr;
  CHECK(cudaMalloc(&dout, threads * sizeof(X)));
  const unsigned blocks = static_cast<unsigned>((threads + 127) / 128);
  const double ms = bench::median_event_ms(reps, [&] { xyzz_kernel<K><<<blocks, 128>>>(din, dout, threads); });
  CHECK(cudaGetLastError());
  const auto got = download(dout, threads);
  int bad = 0;
  for (std::size_t t = 0; t < threads; t += threads / 64) {
    ec::Jacobian<C> want = ec::Jacobian<C>::from_affine(pts[(t * K) % pts.size()]);
    for (int k = 1; k < K; ++k) want = want.add_mixed(pts[(t * K + k) % pts.size()]);
    ec::Xyzz<C> g;
    static_assert(sizeof(g) == sizeof(X));
    std::memcpy(static_cast<void*>(&g), &got[t], sizeof(g));
    bad += !(g.to_affine() == want.to_affine());
  }
  const double adds = double(threads) * (K - 1);
  std::printf("xyzz   K=%-3d %9.3f ms  %6.3f G additions/s  (%s)\n", K, ms, adds / ms / 1e6, bad ? "MISMATCH" : "sample ok");
  CHECK(cudaFree(dout));
}

template <int K, bool kInvert = true>
void run_affine(const A* din, const std::vector<ec::Affine<C>>& pts, std::size_t M, int reps) {
  const std::size_t pairs = M / 2;
  A* dout = nullptr;
  CHECK(cudaMalloc(&dout, pairs * sizeof(A)));
  const std::size_t per_block = std::size_t{kTree} * K;
  const unsigned blocks = static_cast<unsigned>((pairs + per_block - 1) / per_block);
  const double ms = bench::median_event_ms(reps, [&] { affine_kernel<K, kInvert><<<blocks, kTree>>>(din, dout, pairs); });
  CHECK(cudaGetLastError());
  const auto got = download(dout, pairs);
  int bad = 0;
  for (std::size_t i = 0; i < pairs; i += pairs / 64 + 1) {
    const auto want =
        ec::Jacobian<C>::from_affine(pts[(2 * i) % pts.size()]).add_mixed(pts[(2 * i + 1) % pts.size()]).to_affine();
    ec::Affine<C> g;
    static_assert(sizeof(g) == sizeof(A));
    std::memcpy(static_cast<void*>(&g), &got[i], sizeof(g));
    bad += !(g == want);
  }
  std::printf("affine K=%-3d %9.3f ms  %6.3f G additions/s  (%s)\n", K, ms, pairs / ms / 1e6,
              !kInvert ? "root not inverted: timing of the rest only, results wrong" : bad ? "MISMATCH" : "sample ok");
  CHECK(cudaFree(dout));
}

}  // namespace

int main(int argc, char** argv) {
  const int lg = argc > 1 ? std::atoi(argv[1]) : 24;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::size_t M = std::size_t{1} << lg, distinct = std::min<std::size_t>(M, 1 << 16);
  const auto pts = bench::distinct_points<C>(distinct, 5);
  A* din = nullptr;
  CHECK(cudaMalloc(&din, M * sizeof(A)));
  CHECK(cudaMemcpy(din, pts.data(), distinct * sizeof(A), cudaMemcpyHostToDevice));
  for (std::size_t have = distinct; have < M; have *= 2)
    CHECK(cudaMemcpy(din + have, din, std::min(have, M - have) * sizeof(A), cudaMemcpyDeviceToDevice));
  std::printf("BLS12-381 G1, 2^%d points (%zu distinct, repeated)\n", lg, distinct);
  run_xyzz<32>(din, pts, M, reps);
  run_affine<8>(din, pts, M, reps);
  run_affine<16>(din, pts, M, reps);
  run_affine<32>(din, pts, M, reps);
  run_affine<64>(din, pts, M, reps);
  run_affine<16, false>(din, pts, M, reps);
  run_affine<32, false>(din, pts, M, reps);
  CHECK(cudaFree(din));
  return 0;
}
