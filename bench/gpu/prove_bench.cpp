// Whole-proof GPU timing: CudaBackend::compute (a/b/c from device CSR, H, five MSMs) on a
// mul-chain circuit z_j = z_{j-2} z_{j-1} filling a 2^k domain, BLS12-381, in both H
// conventions. The key is synthetic (query points are 2^16 distinct points repeated;
// the matrices are the circuit's), so the proof does not verify: this times the device
// work of a real-size proof without minutes of CPU setup. Correctness of full proofs is
// gpu_backend_test's job. Witness values are dense field elements (no 0/1 help).
#include <cstdio>
#include <random>
#include <vector>

#include "bench_util.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/groth16/engine.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::bench {

namespace {
using E = groth16::Bls12_381;
using Fr = E::Fr;

template <class A>
std::vector<A> tiled(const std::vector<A>& base, std::size_t n) {
  std::vector<A> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = base[i % base.size()];
  return v;
}

template <class C>
std::vector<ec::Affine<C>> base_points(std::size_t k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto g = ec::Jacobian<C>::generator();
  const auto q = g * C::Scalar::random(rng);
  std::vector<ec::Jacobian<C>> j(k);
  ec::Jacobian<C> p = g * C::Scalar::random(rng);
  for (auto& x : j) x = p, p += q;
  return ec::batch_to_affine<C>(std::span<const ec::Jacobian<C>>(j));
}
}  // namespace

void run_prove_bench(std::size_t max_log, int reps) {
  const std::size_t k = std::min<std::size_t>(max_log, 24);
  const std::size_t n = std::size_t{1} << k, np = 1, nc = n - 3, nv = nc + 4;
  // w = (1, out, x0, y0, z...), z_j = w[j-2] w[j-1]; constraint i: w[2+i] * w[3+i] = w[4+i];
  // then w[nv-1] * 1 = out; then the binding rows A = w_j (j <= np).
  std::vector<Fr> w = fill<Fr>(nv, 3);
  w[0] = Fr::one();
  for (std::size_t j = 4; j < nv; ++j) w[j] = w[j - 2] * w[j - 1];
  w[1] = w[nv - 1];
  groth16::ProvingKey<E> pk;
  auto one_term = [](r1cs::CsrMatrix<Fr>& m, std::uint32_t col) {
    m.push_term(col, Fr::one());
    m.end_row();
  };
  for (auto* m : {&pk.a, &pk.b, &pk.c}) {
    m->num_cols = static_cast<std::uint32_t>(nv);
    m->row_ptr.reserve(n + 1), m->cols.reserve(n), m->vals.reserve(n);
  }
  for (std::size_t i = 0; i < nc; ++i) {
    one_term(pk.a, static_cast<std::uint32_t>(2 + i));
    one_term(pk.b, static_cast<std::uint32_t>(3 + i));
    one_term(pk.c, static_cast<std::uint32_t>(4 + i));
  }
  one_term(pk.a, static_cast<std::uint32_t>(nv - 1)), one_term(pk.b, 0), one_term(pk.c, 1);
  for (std::uint32_t j = 0; j <= np; ++j) one_term(pk.a, j), pk.b.end_row(), pk.c.end_row();
  const auto g1 = base_points<E::G1Curve>(std::size_t{1} << 16, 1);
  const auto g2 = base_points<E::G2Curve>(std::size_t{1} << 14, 2);
  pk.vk.alpha_g1 = pk.vk.beta_g1 = pk.vk.delta_g1 = g1[0];
  pk.vk.beta_g2 = pk.vk.gamma_g2 = pk.vk.delta_g2 = g2[0];
  pk.vk.ic = {g1[1], g1[2]};
  pk.num_vars = nv;
  pk.domain_size = n;
  pk.a_query = tiled(g1, nv);
  pk.b_g1_query = tiled(g1, nv);
  pk.b_g2_query = tiled(g2, nv);
  pk.l_query = tiled(g1, nv - np - 1);
  pk.h_query = tiled(g1, n);
  for (groth16::HConvention conv : {groth16::HConvention::kZDivided, groth16::HConvention::kOddCoset}) {
    pk.h_convention = conv;
    pk.c_stored = conv == groth16::HConvention::kZDivided;  // snarkjs keys keep no C
    pk.h_query.resize(conv == groth16::HConvention::kZDivided ? n - 1 : n, g1[3]);
    const std::size_t key_b = gpu::DeviceProvingKey<E>::estimate_bytes(pk);
    const std::size_t scratch_b = gpu::DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk);
    const auto t0 = std::chrono::steady_clock::now();
    const gpu::DeviceProvingKey<E> key(pk, gpu::current_device());
    const double up = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    gpu::CudaBackend<E> backend(key);
    groth16::PhaseTimings last;
    const double ms = median_wall_ms(reps, [&] {
      groth16::PhaseTimings t;
      (void)backend.compute(pk, std::span<const Fr>(w), t);
      last = t;
    });
    const bool odd = conv == groth16::HConvention::kOddCoset;
    row(odd ? "proof, mul chain, snarkjs convention (no C)" : "proof, mul chain, bellperson convention", k, ms);
    std::printf("    key %.2f GiB (upload %.0f ms), per-proof scratch estimate %.2f GiB; phases:",
                key_b / double(1 << 30), up, scratch_b / double(1 << 30));
    for (const auto& [name, t] : last.phases) std::printf(" %s %.1f", name.c_str(), t);
    std::printf(" ms\n");
    std::size_t free_b = 0, total_b = 0;
    gpu::device_memory(&free_b, &total_b);
    std::printf("    device memory in use with the key resident: %.2f GiB\n", (total_b - free_b) / double(1 << 30));
  }
}

}  // namespace cuzk::bench
