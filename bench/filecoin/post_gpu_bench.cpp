// One PoSt partition proved on the GPU, end to end but for the key's points: the vanilla proofs
// decoded and checked, the witness synthesized on every core, then CudaBackend::compute with
// the partition's real QAP matrices (value-indexed) and the engine's key layout for this card
// (DeviceProvingKey::choose_layout over the free VRAM, the streamed parts page-locked as the
// pinned tier holds them, the witness page-locked), and the assembly and verification of a
// proof of that size. The key's points are 2^16 distinct G1 points (2^14 in G2) tiled over the
// real query lengths, infinity where the variable has no A (B) polynomial, as in a joined
// Filecoin key: an MSM's work does not depend on the points' values, so the device work is a
// real proof's, but the proof does not verify (no setup of a 125M-constraint circuit fits the
// device time); the verification step is timed on its real sizes all the same.
#include <cstdio>
#include <optional>
#include <random>
#include <vector>

#include "bench_util.hpp"
#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "host_points.hpp"
#include "post_bench_util.hpp"

namespace cuzk::bench {

namespace {

namespace fc = filecoin;
using E = groth16::Bls12_381;
using Key = gpu::DeviceProvingKey<E>;
constexpr double kGiB = double(std::size_t{1} << 30);

template <class A>
std::vector<A> tiled_dense(const std::vector<A>& base, const std::vector<bool>* dense, std::size_t n) {
  std::vector<A> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = (dense && !(*dense)[i]) ? A::infinity() : base[i % base.size()];
  return v;
}

std::vector<bool> columns_used(const r1cs::CsrMatrix<fc::Fr>& m, std::size_t n) {
  std::vector<bool> d(n, false);
  for (std::uint32_t c : m.cols) d[c] = true;
  return d;
}

}  // namespace

void run_post_gpu_bench(fc::RegisteredPoStProof proof, const std::filesystem::path& data, int reps) {
  const auto& info = fc::post_proof_info(proof);
  const PostInput in = post_input(proof, data, 1);
  std::printf("%s on the GPU: %s\n", std::string(info.name).c_str(), in.source.c_str());

  auto t0 = std::chrono::steady_clock::now();
  const fc::PostPartition part = fc::prepare_post_partition(partition_inputs(in));
  const double check_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  std::vector<fc::Fr> w = gadgets::circuits::parallel_witness_full<fc::Fr>(part.circuit);
  const double synth_ms = ms_since(t0);

  t0 = std::chrono::steady_clock::now();
  IndexedQap q = indexed_post_qap(fc::post_shape(info));
  const double qap_ms = ms_since(t0);
  if (w.size() != q.num_vars) throw std::runtime_error("the witness does not fit the recorded circuit");
  groth16::ProvingKey<E> pk;
  pk.h_convention = groth16::HConvention::kZDivided;
  pk.num_vars = q.num_vars;
  pk.domain_size = q.domain_size;
  const std::vector<bool> a_dense = columns_used(q.a, q.num_vars), b_dense = columns_used(q.b, q.num_vars);
  pk.a = std::move(q.a);
  pk.b = std::move(q.b);
  pk.c.num_cols = static_cast<std::uint32_t>(q.num_vars);
  pk.c_stored = false;  // c = a.b (the bellperson H takes a and b only)
  t0 = std::chrono::steady_clock::now();
  const auto g1 = distinct_points<ec::bls12_381::G1Curve>(std::size_t{1} << 16, 1);
  const auto g2 = distinct_points<ec::bls12_381::G2Curve>(std::size_t{1} << 14, 2);
  pk.vk.alpha_g1 = g1[1], pk.vk.beta_g1 = g1[2], pk.vk.delta_g1 = g1[3];
  pk.vk.beta_g2 = g2[1], pk.vk.gamma_g2 = g2[2], pk.vk.delta_g2 = g2[3];
  pk.vk.ic = tiled_dense(g1, nullptr, q.num_public + 1);
  pk.a_query = tiled_dense(g1, &a_dense, q.num_vars);
  pk.b_g1_query = tiled_dense(g1, &b_dense, q.num_vars);
  pk.b_g2_query = tiled_dense(g2, &b_dense, q.num_vars);
  pk.l_query = tiled_dense(g1, nullptr, q.num_vars - q.num_public - 1);
  pk.h_query = tiled_dense(g1, nullptr, q.domain_size - 1);
  std::printf("  %zu constraints, %zu wires, %zu public inputs, domain 2^%d; matrices %.1f GiB (value-indexed) built "
              "in %.0f ms, points %.1f GiB tiled in %.0f ms\n",
              q.constraints, q.num_vars, q.num_public, std::countr_zero(q.domain_size),
              (gpu::DeviceCsr<fc::Fr>::bytes(pk.a) + gpu::DeviceCsr<fc::Fr>::bytes(pk.b)) / kGiB, qap_ms,
              (Key::estimate_bytes(pk) - Key::estimate_bytes(pk, gpu::KeyPlacement::kStreamPoints)) / kGiB, ms_since(t0));

  const int dev = gpu::current_device();
  std::size_t free = 0, total = 0;
  gpu::device_memory(&free, &total);
  const std::size_t budget = free - (std::size_t{1} << 30);
  const gpu::KeyLayout layout = Key::choose_layout(pk, budget);
  std::printf("  card %.1f GiB free of %.1f: layout %s, key %.1f GiB + one proof %.1f GiB\n", free / kGiB, total / kGiB,
              layout.describe().c_str(), Key::estimate_bytes(pk, layout) / kGiB,
              Key::estimate_proof_scratch_bytes(pk, layout) / kGiB);
  t0 = std::chrono::steady_clock::now();
  std::vector<gpu::HostRegistration> pins;
  for (auto a : Key::streamed_host_arrays(pk, true)) pins.emplace_back(a.data(), a.size());
  pins.emplace_back(w.data(), w.size() * sizeof(fc::Fr));
  std::printf("  streamed parts and witness page-locked in %.0f ms\n", ms_since(t0));
  t0 = std::chrono::steady_clock::now();
  const Key key(pk, dev, layout);
  std::printf("  key on the device in %.1f s\n", ms_since(t0) / 1e3);

  gpu::CudaBackend<E> backend(key);
  groth16::ProofTerms<E> terms;
  groth16::PhaseTimings last;
  const double gpu_ms = median_wall_ms(reps, [&] {
    groth16::PhaseTimings t;
    terms = backend.compute(pk, std::span<const fc::Fr>(w), t);
    last = t;
  });
  std::printf("  GPU proof (median of %d after a warm-up) %.1f ms; phases:", reps, gpu_ms);
  print_phases(last);

  t0 = std::chrono::steady_clock::now();
  std::mt19937_64 rng(5);
  const groth16::Proof<E> p = groth16::assemble_proof(pk, terms, fc::Fr::random(rng), fc::Fr::random(rng));
  const double assemble_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  const bool ok = groth16::verify(pk.vk, p, part.public_inputs);
  const double verify_ms = ms_since(t0);
  std::printf("  assembly %.1f ms; verification against %zu public inputs %.1f ms (%s: synthetic points)\n", assemble_ms,
              part.public_inputs.size(), verify_ms, ok ? "verified?!" : "does not verify, as expected");
  std::printf("  end to end: check %.0f + synthesis %.0f + GPU %.0f + assembly %.0f + verification %.0f = %.0f ms\n",
              check_ms, synth_ms, gpu_ms, assemble_ms, verify_ms,
              check_ms + synth_ms + gpu_ms + assemble_ms + verify_ms);
}

}  // namespace cuzk::bench
