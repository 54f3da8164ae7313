// gpu_proof_bench.hpp.
#include "gpu_proof_bench.hpp"

#include <bit>
#include <cstdio>
#include <optional>
#include <random>
#include <stdexcept>

#include "bench_util.hpp"
#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "host_points.hpp"

namespace cuzk::bench {

namespace {

namespace fc = filecoin;
using E = GpuEngine;
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

groth16::ProvingKey<E> synthetic_points_key(IndexedQap&& q, double qap_ms) {
  groth16::ProvingKey<E> pk;
  pk.h_convention = groth16::HConvention::kZDivided;
  pk.num_vars = q.num_vars;
  pk.domain_size = q.domain_size;
  const std::vector<bool> a_dense = columns_used(q.a, q.num_vars), b_dense = columns_used(q.b, q.num_vars);
  pk.a = std::move(q.a);
  pk.b = std::move(q.b);
  pk.c.num_cols = static_cast<std::uint32_t>(q.num_vars);
  pk.c_stored = false;  // c = a.b (the bellperson H takes a and b only)
  const auto t0 = std::chrono::steady_clock::now();
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
  return pk;
}

struct GpuProofRig::Device {
  Key key;
  gpu::CudaBackend<E> backend;
  Device(const groth16::ProvingKey<E>& pk, int dev, const gpu::KeyLayout& layout, const gpu::Tuning& tuning)
      : key(pk, dev, layout, tuning), backend(key) {}
};

GpuProofRig::GpuProofRig(const groth16::ProvingKey<E>& pk, const gpu::Tuning& tuning) : pk_(pk) {
  gpu::configure_device_memory(tuning);
  const int dev = gpu::current_device();
  std::size_t free = 0, total = 0;
  gpu::device_memory(&free, &total);
  const std::size_t budget = free - (std::size_t{1} << 30);
  const gpu::KeyLayout layout = Key::choose_layout(pk, budget, std::size_t{1} << 12, Key::kMaxStreamChunk, tuning);
  std::printf("  card %.1f GiB free of %.1f: layout %s, key %.1f GiB + one proof %.1f GiB\n", free / kGiB, total / kGiB,
              layout.describe().c_str(), Key::estimate_bytes(pk, layout) / kGiB,
              Key::estimate_proof_scratch_bytes(pk, layout, tuning) / kGiB);
  auto t0 = std::chrono::steady_clock::now();
  for (auto a : Key::streamed_host_arrays(pk, true)) pins_.emplace_back(a.data(), a.size());
  pin_ms_ = ms_since(t0);
  std::printf("  streamed parts page-locked in %.0f ms\n", pin_ms_);
  t0 = std::chrono::steady_clock::now();
  dev_ = std::make_unique<Device>(pk, dev, layout, tuning);
  upload_ms_ = ms_since(t0);
  std::printf("  key on the device in %.1f s\n", upload_ms_ / 1e3);
}

GpuProofRig::~GpuProofRig() = default;

groth16::ProofTerms<E> GpuProofRig::compute(std::span<const fc::Fr> w, groth16::PhaseTimings& t) {
  if (w.size() != pk_.num_vars) throw std::runtime_error("the witness does not fit the recorded circuit");
  return dev_->backend.compute(pk_, w, t);
}

GpuProofRig::Finished GpuProofRig::finish(const groth16::ProofTerms<E>& terms,
                                          std::span<const fc::Fr> public_inputs) const {
  Finished f;
  auto t0 = std::chrono::steady_clock::now();
  std::mt19937_64 rng(5);
  const groth16::Proof<E> p = groth16::assemble_proof(pk_, terms, fc::Fr::random(rng), fc::Fr::random(rng));
  f.assemble_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  f.verified = groth16::verify(pk_.vk, p, public_inputs);
  f.verify_ms = ms_since(t0);
  return f;
}

GpuProofTimes time_gpu_proof(const groth16::ProvingKey<E>& pk, std::span<const fc::Fr> w,
                             std::span<const fc::Fr> public_inputs, int reps, const gpu::Tuning& tuning) {
  GpuProofTimes out;
  auto t0 = std::chrono::steady_clock::now();
  const gpu::HostRegistration pinned_witness(w.data(), w.size() * sizeof(fc::Fr));
  const double witness_pin_ms = ms_since(t0);
  GpuProofRig rig(pk, tuning);
  out.pin_ms = rig.pin_ms() + witness_pin_ms;
  out.upload_ms = rig.upload_ms();
  std::printf("  witness page-locked in %.0f ms\n", witness_pin_ms);

  groth16::ProofTerms<E> terms;
  groth16::PhaseTimings last;
  out.gpu_ms = median_wall_ms(reps, [&] {
    groth16::PhaseTimings t;
    terms = rig.compute(w, t);
    last = t;
  });
  std::printf("  GPU proof (median of %d after a warm-up) %.1f ms; phases:", reps, out.gpu_ms);
  print_phases(last);

  const GpuProofRig::Finished f = rig.finish(terms, public_inputs);
  out.assemble_ms = f.assemble_ms;
  out.verify_ms = f.verify_ms;
  std::printf("  assembly %.1f ms; verification against %zu public inputs %.1f ms (%s: synthetic points)\n",
              out.assemble_ms, public_inputs.size(), out.verify_ms,
              f.verified ? "verified?!" : "does not verify, as expected");
  return out;
}

}  // namespace cuzk::bench
