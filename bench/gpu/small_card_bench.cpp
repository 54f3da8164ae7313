// A 2^k proof (default 2^27, a PoRep partition's domain) on a card with little memory: the
// synthetic mul-chain key (synthetic_key.hpp, bellperson convention) streamed
// (KeyPlacement::kStreamPoints) on a device whose free memory is cut to CUZK_BENCH_VRAM_GIB
// (default 16) by one plain allocation holding the rest, the chunk chosen as the engine
// chooses it (the largest power of two, at most the default, with which the key and one
// proof fit the budget). First, when the device can hold it, the same proof with the key
// resident: the streamed proof's terms must equal it (the synthetic proofs do not verify).
// Reports the figures the choice rests on, the device memory the streamed proof used (free
// memory before and after: the stream-ordered pool keeps what it took), and its phases.
// CUZK_BENCH_WITNESS_LIKE=1: PoRep-like witness values (50% 0, 40% 1, 10% uniform) instead
// of the chain's dense ones. CUZK_BENCH_PIN=1: the streamed proof also with the points and
// matrices page-locked, as the engine's pinned tier holds a streamed key.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "bench_util.hpp"
#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/backend.hpp"
#include "proof_timing.hpp"
#include "synthetic_key.hpp"

namespace cuzk::bench {

namespace {
using E = groth16::Bls12_381;
using Fr = E::Fr;
using Key = gpu::DeviceProvingKey<E>;
constexpr double kGiB = double(std::size_t{1} << 30);
}  // namespace

void run_small_card_bench(std::size_t max_log, int reps) {
  const std::size_t k = max_log;
  const char* cap_env = std::getenv("CUZK_BENCH_VRAM_GIB");
  const double cap_gib = cap_env != nullptr ? std::atof(cap_env) : 16.0;
  const int dev = gpu::current_device();
  auto t0 = std::chrono::steady_clock::now();
  SyntheticProof s = synthetic_mul_chain(k);
  const auto& pk = s.pk;
  const bool witness_like = std::getenv("CUZK_BENCH_WITNESS_LIKE") != nullptr;
  if (witness_like) {
    make_witness_like(s.w, 11);
    s.w[0] = Fr::one();
  }
  std::printf("small card: 2^%zu mul-chain key built on the host in %.1f s (points %.1f GiB, matrices %.1f GiB)\n", k,
              wall_ms_since(t0) / 1e3,
              (Key::estimate_bytes(pk) - Key::estimate_bytes(pk, gpu::KeyPlacement::kStreamPoints) -
               gpu::DeviceCsr<Fr>::bytes(pk.a) - gpu::DeviceCsr<Fr>::bytes(pk.b)) / kGiB,
              (gpu::DeviceCsr<Fr>::bytes(pk.a) + gpu::DeviceCsr<Fr>::bytes(pk.b) + gpu::DeviceCsr<Fr>::bytes(pk.c)) /
                  kGiB);
  std::size_t free = 0, total = 0;
  gpu::device_memory(&free, &total);
  std::optional<groth16::ProofTerms<E>> resident;
  const std::size_t res_need = Key::estimate_bytes(pk) + Key::estimate_proof_scratch_bytes(pk);
  std::printf("    resident key + one proof: %.1f GiB (device: %.1f of %.1f GiB free)\n", res_need / kGiB, free / kGiB,
              total / kGiB);
  if (res_need + (std::size_t{2} << 30) < free) {
    t0 = std::chrono::steady_clock::now();
    const Key key(pk, dev);
    std::printf("    resident key upload %.1f s\n", wall_ms_since(t0) / 1e3);
    resident = time_proof("proof, resident key", k, key, s, 1);
  }
  gpu::release_cached_device_memory();
  gpu::device_memory(&free, nullptr);
  const std::size_t cap = static_cast<std::size_t>(cap_gib * kGiB);
  if (free < cap) {
    std::printf("    skipped: %.1f GiB free, fewer than the %.1f GiB card\n", free / kGiB, cap_gib);
    return;
  }
  gpu::DeviceBuffer<unsigned char> rest(free - cap);  // what a small card does not have
  const std::size_t budget = cap - (std::size_t{256} << 20);
  auto need = [&](std::size_t c) {
    return Key::estimate_bytes(pk, gpu::KeyPlacement::kStreamPoints, c) +
           Key::estimate_proof_scratch_bytes(pk, gpu::KeyPlacement::kStreamPoints, c);
  };
  std::size_t chunk = Key::kDefaultStreamChunk;
  while (chunk > (std::size_t{1} << 12) && need(chunk) > budget) chunk /= 2;
  std::printf("    a %.1f GiB card (budget %.2f GiB): streamed key %.2f GiB + one proof %.2f GiB with chunks of %zu "
              "points%s\n",
              cap_gib, budget / kGiB, Key::estimate_bytes(pk, gpu::KeyPlacement::kStreamPoints, chunk) / kGiB,
              Key::estimate_proof_scratch_bytes(pk, gpu::KeyPlacement::kStreamPoints, chunk) / kGiB, chunk,
              need(chunk) > budget ? ": does not fit" : "");
  if (need(chunk) > budget) return;
  gpu::device_memory(&free, nullptr);
  const std::size_t free0 = free;
  t0 = std::chrono::steady_clock::now();
  const Key key(pk, dev, gpu::KeyPlacement::kStreamPoints, chunk);
  std::printf("    streamed key set up in %.1f s (matrices cut into %zu-byte pieces)\n", wall_ms_since(t0) / 1e3,
              chunk * sizeof(E::G2Affine));
  const auto terms = time_proof(witness_like ? "proof, streamed key, pageable, witness-like"
                                              : "proof, streamed key, pageable points and matrices",
                                 k, key, s, reps);
  gpu::device_memory(&free, nullptr);
  std::printf("    device memory the streamed key and proof took: %.2f GiB of the card's %.1f\n",
              (free0 - free) / kGiB, cap_gib);
  auto same = [&](const groth16::ProofTerms<E>& t) {
    return t.a == resident->a && t.b1 == resident->b1 && t.b2 == resident->b2 && t.h == resident->h &&
           t.l == resident->l;
  };
  if (resident) std::printf("    streamed terms equal the resident key's: %s\n", same(terms) ? "yes" : "NO");
  if (std::getenv("CUZK_BENCH_PIN") == nullptr) return;
  t0 = std::chrono::steady_clock::now();
  const auto regs = register_key(pk, true);
  std::printf("    page-locking the points and streamed matrices: %.1f s\n", wall_ms_since(t0) / 1e3);
  const auto pinned = time_proof("proof, streamed key, pinned points and matrices", k, key, s, reps);
  if (resident) std::printf("    pinned streamed terms equal the resident key's: %s\n", same(pinned) ? "yes" : "NO");
}

}  // namespace cuzk::bench
