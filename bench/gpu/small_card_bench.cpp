// A 2^k proof (default 2^27, a PoRep partition's domain) on cards with less memory than the
// resident key and one proof need: the synthetic mul-chain key (synthetic_key.hpp, bellperson
// convention) on a device whose free memory is cut, by one plain allocation holding the rest, to
// each size in CUZK_BENCH_VRAM_GIB (a comma-separated list of GiB, default 16). The layout is
// the engine's: CUZK_BENCH_LAYOUT=auto picks it part by part (DeviceProvingKey::choose_layout:
// the parts that save the most link bytes resident, the rest streamed), otherwise every part
// streams (key_placement "stream"); the chunk is the largest power of two, at most the cap below,
// with which the all-streamed key and one proof fit. First, when the device can hold it, the
// same proof with the key resident: every other proof's terms must equal it (the synthetic
// proofs do not verify). Reports the figures the choice rests on, the device memory each proof
// used (free memory before and after: the stream-ordered pool keeps what it took), and its phases.
// CUZK_BENCH_MAX_CHUNK_LOG=k[,k2...]: chunks of at most 2^k points (default 24,
// kMaxStreamChunk, the engine's), each cap tried on each card.
// CUZK_BENCH_WITNESS_LIKE=1: PoRep-like witness values (50% 0, 40% 1, 10% uniform) instead
// of the chain's dense ones. CUZK_BENCH_PIN=1: the key's points and matrices page-locked once,
// before the first card, as the engine's pinned tier holds a key (else pageable).
// CUZK_BENCH_INDEX=0: the matrices without their value index (the engine gives every loaded
// key one: 16-bit value positions streamed and resident instead of 32-byte values).
// CUZK_BENCH_BATCH=n: after each card's proof, a batch of n proofs of the witness
// (one CudaBackend::compute of n proofs: each streamed point chunk uploaded once for the n), per proof.
// CUZK_BENCH_TWIDDLES=full,auto (a comma-separated list): each card's proof once per entry,
// with the tuning's ntt_twiddles set to it (full: the NTT's whole twiddle table on the device;
// auto: the compact one where it buys a larger chunk or more resident parts; DeviceProvingKey).
// CUZK_BENCH_PIN_WITNESS=1: the witness page-locked after the resident proof, which is then
// timed again with the lock, as the engine pins a synthesized witness
// (pinned_witness_min_bytes); the capped proofs upload it straight instead of through their
// staging. Before the lock is kept, it is taken and released once while another thread's
// stream runs a ~1 s kernel: a worker releases its witness's lock as its job ends, maybe while
// another worker proves, and a release that waited for that work would hold it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.hpp"
#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/field_ops.hpp"
#include "proof_timing.hpp"
#include "synthetic_key.hpp"

namespace cuzk::bench {

namespace {
using E = groth16::Bls12_381;
using Fr = E::Fr;
using Key = gpu::DeviceProvingKey<E>;
constexpr double kGiB = double(std::size_t{1} << 30);

// "full,auto" -> {"full", "auto"}.
std::vector<std::string> word_list(const std::string& s) {
  std::vector<std::string> v;
  for (std::size_t pos = 0; pos < s.size();) {
    const std::size_t end = std::min(s.find(',', pos), s.size());
    v.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return v;
}

// "80,48,24" -> {80, 48, 24}.
std::vector<double> number_list(const std::string& s) {
  std::vector<double> v;
  for (const std::string& w : word_list(s)) v.push_back(std::atof(w.c_str()));
  return v;
}

// The tuning with the twiddle choice a CUZK_BENCH_TWIDDLES entry names ("": as it is).
gpu::Tuning with_twiddles(const gpu::Tuning& tuning, const std::string& entry) {
  gpu::Tuning t = tuning;
  if (entry.empty()) return t;
  const std::optional<gpu::TwiddleChoice> c = gpu::twiddle_choice_from(entry);
  if (!c) throw std::invalid_argument("CUZK_BENCH_TWIDDLES: \"" + entry + "\": want full, compact or auto");
  t.ntt_twiddles = *c;
  return t;
}

// Takes and releases a page lock on w while another thread's stream runs one ~1 s kernel (a
// product chain), and says how long each took against the kernel's span: a lock call that
// waited for other streams' work would last until the kernel's end.
void time_page_lock_beside_work(std::span<const Fr> w) {
  const int dev = gpu::current_device();
  constexpr std::size_t kN = std::size_t{1} << 24;
  gpu::DeviceBuffer<Fr> x(kN), y(kN);
  auto chain_ms = [&](int reps) {
    const auto t0 = std::chrono::steady_clock::now();
    gpu::mul_chain_device<Fr>(x.data(), y.data(), kN, reps);
    gpu::stream_synchronize();
    return wall_ms_since(t0);
  };
  chain_ms(4);  // warm-up
  const int reps = std::max(1, static_cast<int>(1000.0 * 64 / std::max(chain_ms(64), 1e-3)));
  double busy_ms = 0;
  const auto start = std::chrono::steady_clock::now();
  std::thread busy([&] {
    gpu::DeviceGuard g(dev);
    busy_ms = chain_ms(reps);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  auto t0 = std::chrono::steady_clock::now();
  gpu::HostRegistration reg(w.data(), w.size_bytes());
  const double lock_ms = wall_ms_since(t0), lock_at = wall_ms_since(start) - lock_ms;
  t0 = std::chrono::steady_clock::now();
  reg.reset();
  const double release_ms = wall_ms_since(t0), release_at = wall_ms_since(start) - release_ms;
  busy.join();
  std::printf("    beside a %.0f ms kernel on another thread's stream: page lock %.0f ms (called at %.0f ms), release "
              "%.0f ms (called at %.0f ms)%s\n",
              busy_ms, lock_ms, lock_at, release_ms, release_at,
              release_at + release_ms >= busy_ms - 20 || lock_at + lock_ms >= busy_ms - 20
                  ? ": a call lasted until the kernel's end, it may wait for other streams"
                  : ": neither waited for the kernel");
}
}  // namespace

void run_small_card_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning) {
  const std::size_t k = max_log;
  const char* cap_env = std::getenv("CUZK_BENCH_VRAM_GIB");
  const int dev = gpu::current_device();
  auto t0 = std::chrono::steady_clock::now();
  SyntheticProof s = synthetic_mul_chain(k);
  index_unless_disabled(s);
  const auto& pk = s.pk;
  const bool witness_like = std::getenv("CUZK_BENCH_WITNESS_LIKE") != nullptr;
  if (witness_like) {
    make_witness_like(s.w, 11);
    s.w[0] = Fr::one();
  }
  std::printf("small card: 2^%zu mul-chain key built on the host in %.1f s (points %.1f GiB, matrices %.1f GiB%s)\n", k,
              wall_ms_since(t0) / 1e3,
              (Key::estimate_bytes(pk) - Key::estimate_bytes(pk, gpu::KeyPlacement::kStreamPoints) -
               gpu::DeviceCsr<Fr>::bytes(pk.a) - gpu::DeviceCsr<Fr>::bytes(pk.b)) / kGiB,
              (gpu::DeviceCsr<Fr>::bytes(pk.a) + gpu::DeviceCsr<Fr>::bytes(pk.b) + gpu::DeviceCsr<Fr>::bytes(pk.c)) /
                  kGiB,
              pk.a.indexed() ? ", value-indexed" : "");
  const bool pin_witness = std::getenv("CUZK_BENCH_PIN_WITNESS") != nullptr;
  std::optional<gpu::HostRegistration> witness_reg;
  auto lock_witness = [&] {  // first the lock's behaviour beside other work, then the lock kept
    time_page_lock_beside_work(s.w);
    t0 = std::chrono::steady_clock::now();
    witness_reg.emplace(s.w.data(), s.w.size() * sizeof(Fr));
    std::printf("    page-locking the witness (%.2f GiB): %.0f ms\n", s.w.size() * sizeof(Fr) / kGiB, wall_ms_since(t0));
  };
  std::size_t free = 0, total = 0;
  gpu::device_memory(&free, &total);
  std::optional<groth16::ProofTerms<E>> resident;
  const std::size_t res_need =
      Key::estimate_bytes(pk) + Key::estimate_proof_scratch_bytes(pk, gpu::KeyLayout::all_resident(), tuning);
  std::printf("    resident key + one proof: %.1f GiB (device: %.1f of %.1f GiB free)\n", res_need / kGiB, free / kGiB,
              total / kGiB);
  if (res_need + (std::size_t{2} << 30) < free) {
    t0 = std::chrono::steady_clock::now();
    const Key key(pk, dev, gpu::KeyLayout::all_resident(), tuning);
    std::printf("    resident key upload %.1f s\n", wall_ms_since(t0) / 1e3);
    resident = time_proof("proof, resident key", k, key, s, 1);
    if (pin_witness) {  // the same proof, its witness page-locked: the pageable one is the baseline
      lock_witness();
      time_proof("proof, resident key, page-locked witness", k, key, s, 1);
    }
  }
  if (pin_witness && !witness_reg) lock_witness();
  const bool pin = std::getenv("CUZK_BENCH_PIN") != nullptr;
  std::vector<gpu::HostRegistration> regs;
  if (pin) {
    t0 = std::chrono::steady_clock::now();
    regs = register_key(pk, true);
    std::printf("    page-locking the points and matrices: %.1f s\n", wall_ms_since(t0) / 1e3);
  }
  const char* batch_env = std::getenv("CUZK_BENCH_BATCH");
  const int batch = batch_env != nullptr ? std::atoi(batch_env) : 0;
  const char* layout_env = std::getenv("CUZK_BENCH_LAYOUT");
  const bool by_part = layout_env != nullptr && std::string(layout_env) == "auto";
  const char* max_env = std::getenv("CUZK_BENCH_MAX_CHUNK_LOG");
  const std::vector<double> max_logs = number_list(max_env != nullptr ? max_env : "24");
  const char* tw_env = std::getenv("CUZK_BENCH_TWIDDLES");
  std::vector<std::string> twiddles = word_list(tw_env != nullptr ? tw_env : "");
  if (twiddles.empty()) twiddles.push_back("");  // the tuning's choice as it is
  for (const double cap_gib : number_list(cap_env != nullptr ? cap_env : "16"))
    for (const double max_log : max_logs)
    for (const std::string& tw : twiddles) {
      const gpu::Tuning t = with_twiddles(tuning, tw);
      gpu::release_cached_device_memory();
      gpu::device_memory(&free, nullptr);
      const std::size_t cap = static_cast<std::size_t>(cap_gib * kGiB);
      if (free < cap) {
        std::printf("    %.1f GiB card skipped: %.1f GiB free\n", cap_gib, free / kGiB);
        continue;
      }
      gpu::DeviceBuffer<unsigned char> rest(free - cap);  // what a small card does not have
      const std::size_t budget = cap - (std::size_t{256} << 20);
      const std::size_t min_chunk = std::size_t{1} << 12, max_chunk = std::size_t{1} << static_cast<int>(max_log);
      const gpu::KeyLayout l = by_part ? Key::choose_layout(pk, budget, min_chunk, max_chunk, t)
                                       : Key::stream_layout(pk, budget, min_chunk, max_chunk, t);
      const std::size_t kb = Key::estimate_bytes(pk, l), pb = Key::estimate_proof_scratch_bytes(pk, l, t);
      std::printf("    a %.1f GiB card (budget %.2f GiB, chunks of at most 2^%d): %s, key %.2f GiB + one proof %.2f "
                  "GiB%s\n",
                  cap_gib, budget / kGiB, static_cast<int>(max_log), l.describe().c_str(), kb / kGiB, pb / kGiB,
                  kb + pb > budget ? ": does not fit" : "");
      if (kb + pb > budget) continue;
      gpu::device_memory(&free, nullptr);
      const std::size_t free0 = free;
      t0 = std::chrono::steady_clock::now();
      const Key key(pk, dev, l, t);
      std::printf("    key set up in %.1f s\n", wall_ms_since(t0) / 1e3);
      const std::string what = std::string("proof, ") + l.describe() + (pin ? ", pinned" : ", pageable") +
                               (witness_like ? ", witness-like" : "");
      const auto terms = time_proof(what.c_str(), k, key, s, reps);
      gpu::device_memory(&free, nullptr);
      std::printf("    device memory the key and proof took: %.2f GiB of the card's %.1f\n", (free0 - free) / kGiB,
                  cap_gib);
      if (batch > 1) time_batch((what + ", batch").c_str(), k, key, s, batch, budget, terms);
      if (resident) {
        const bool same = terms.a == resident->a && terms.b1 == resident->b1 && terms.b2 == resident->b2 &&
                          terms.h == resident->h && terms.l == resident->l;
        std::printf("    terms equal the resident key's: %s\n", same ? "yes" : "NO");
      }
    }
  if (witness_reg) {
    t0 = std::chrono::steady_clock::now();
    witness_reg.reset();
    std::printf("    releasing the witness's page lock: %.0f ms\n", wall_ms_since(t0));
  }
}

}  // namespace cuzk::bench
