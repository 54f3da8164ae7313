// The engine on the CUDA backend (label gpu: run on a CUDA machine). Keys are uploaded to
// the GPUs, VRAM is reserved from the CUDA backend's own estimates, and every proof is
// verified against the key file; an injected fault takes the same path as a real one.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/gpu/backend.hpp"
#include "cuzk/groth16/key_value_index.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "circuit.hpp"
#include "key_shape.hpp"
#include "shape.hpp"
#include "support.hpp"

namespace cuzk::engine::test {
namespace {

EngineConfig cuda_config(std::vector<CircuitSpec> circuits) {
  EngineConfig c = small_config(std::move(circuits));
  c.backend = Backend::cuda;
  c.devices = 0;  // every visible GPU
  c.vram_budget_bytes = 0;  // free memory minus 1 GiB
  c.workers_per_device = 2;
  return c;
}

// The key in a cached .zkey as the engine holds it once loaded: with its matrices' value index
// (HostKey), which the CUDA backend's VRAM figures count.
template <class E>
groth16::ProvingKey<E> engine_key(const std::filesystem::path& zkey) {
  auto pk = groth16::read_zkey<E>(io::BinFile::open(zkey, groth16::zkey_detail::kZkeyFile));
  groth16::index_key_values(pk);
  return pk;
}

// The key the engine builds for one native circuit (a probe engine preloads it and writes its
// key file), as engine_key reads it back.
template <class E>
groth16::ProvingKey<E> probe_key(const CircuitSpec& spec) {
  Engine probe(cuda_config({spec}));
  if (probe.preload(spec.id) != ErrorCode::kOk) throw std::runtime_error("preload of " + spec.id + " failed");
  return engine_key<E>(*probe.key_file(spec.id));
}

// Seeds 1..n of native circuit `id` proved through e, each succeeded (else a throw: the test
// stops) and verified against zkey; the results.
std::vector<ProofResult> prove_seeds(Engine& e, const std::string& id, int n, const std::filesystem::path& zkey) {
  std::vector<ProofResult> out;
  for (int seed = 1; seed <= n; ++seed) {
    ProofResult r = e.prove(native_request(id, seed), 300s);
    if (r.state != JobState::kSucceeded) throw std::runtime_error("seed " + std::to_string(seed) + ": " + r.error);
    EXPECT_TRUE(verifies(r, zkey)) << "seed " << seed;
    out.push_back(std::move(r));
  }
  return out;
}

TEST(EngineCuda, ProvesAndVerifiesOnBothCurves) {
  Engine e(cuda_config({mul_chain("bls", "bls12_381", 4096), mul_chain("bn", "bn254", 4096)}));
  const StatusSnapshot s0 = e.status();
  ASSERT_GE(s0.devices.size(), 1u);
  EXPECT_GT(s0.devices[0].vram_budget, 0u);
  for (const std::string id : {"bls", "bn"}) {
    for (int seed = 1; seed <= 3; ++seed) {
      const ProofResult r = e.prove(native_request(id, seed), 120s);
      ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
      EXPECT_TRUE(verifies(r, cached_key(shared_cache_dir(), std::string("mul-chain-") + r.curve + "-constraints=4096-")));
      EXPECT_GE(timing(r, "msm_a"), 0);
    }
  }
  const StatusSnapshot s = e.status();
  EXPECT_EQ(s.succeeded, 6u);
  for (const auto& k : s.keys) {
    EXPECT_EQ(k.tier, "vram") << k.circuit_id;
    EXPECT_EQ(k.layout, "resident") << k.circuit_id;
    EXPECT_GT(k.vram_bytes, 0u);
  }
}

// The cuda backend gives every loaded key its value index (CurveDevice::prepare) and reserves
// host memory for it (Devices::host_key_extra_bytes, an upper bound).
TEST(EngineCuda, LoadedKeysCarryTheValueIndex) {
  const CircuitSpec spec = mul_chain("bls", "bls12_381", 4096);
  const EngineConfig cfg = cuda_config({spec});
  Engine e(cfg);
  ASSERT_EQ(e.preload("bls"), ErrorCode::kOk);
  const auto plain = groth16::read_zkey<groth16::Bls12_381>(io::BinFile::open(
      cached_key(shared_cache_dir(), "mul-chain-bls12_381-constraints=4096-"), groth16::zkey_detail::kZkeyFile));
  const auto circuit = make_circuit(spec, shared_cache_dir(), "circuits[0]");
  const KeyShape& shape = circuit->shape();  // what the reservation is made from, before the key loads
  EXPECT_EQ(key_of(e.status(), "bls").host_bytes, key_host_bytes(shape) + key_index_bytes(shape));

  const auto backend = make_cuda_devices(cfg);
  EXPECT_EQ(backend->host_key_extra_bytes(shape), key_index_bytes(shape));
  const auto key = circuit->load_key(*backend, nullptr);
  const auto& pk = key->get<groth16::Bls12_381>();
  EXPECT_TRUE(pk.a.indexed());
  EXPECT_TRUE(pk.b.indexed());
  EXPECT_EQ(pk.a, plain.a);  // the same values, read through the index
  EXPECT_NO_THROW(pk.a.validate("A"));
}

// A synthesized witness registered with the driver (pinned_witness_min_bytes) is uploaded
// straight from its memory; the proofs verify, and the registration ends with the job.
TEST(EngineCuda, PinnedWitnessesProveAndAreReleased) {
  EngineConfig cfg = cuda_config({mul_chain("bls", "bls12_381", 4096)});
  cfg.pinned_witness_min_bytes = 0;
  cfg.pinned_budget_bytes = 1ull << 30;
  Engine e(cfg);
  for (int seed = 1; seed <= 4; ++seed) {
    const ProofResult r = e.prove(native_request("bls", seed), 120s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_GE(timing(r, "pin_witness"), 0);
    EXPECT_GE(timing(r, "transfer_witness"), 0);
    EXPECT_TRUE(verifies(r, cached_key(shared_cache_dir(), "mul-chain-bls12_381-constraints=4096-")));
  }
  expect_only_keys_reserved(e);
}

// A device fault (a CUDA error) and a silent one (a wrong proof, caught by verification) are
// both proved again, and counted against the device.
TEST(EngineCuda, InjectedFaultIsRetried) {
  for (const FaultInjection f : {FaultInjection{.device = 0, .failures = 1}, FaultInjection{.device = 0, .wrong_proofs = 1}}) {
    EngineConfig cfg = cuda_config({mul_chain("bn", "bn254", 1024)});
    cfg.fault = f;
    Engine e(cfg);
    const ProofResult r = e.prove(native_request("bn", 1), 120s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_EQ(r.attempts, 2);
    EXPECT_TRUE(verifies(r, cached_key(shared_cache_dir(), "mul-chain-bn254-constraints=1024-")));
    const DeviceStatus d = e.status().devices.at(0);
    EXPECT_EQ(d.device_faults, f.failures > 0 ? 1u : 0u);
    EXPECT_EQ(d.failed_verifications, f.wrong_proofs > 0 ? 1u : 0u);
  }
}

// Three workers on one GPU whose VRAM budget holds the key and ONE proof's scratch, not two:
// the workers take turns (reservations before allocations), every job succeeds and
// verifies, none fails with out-of-memory, and the reservation never passes the budget.
TEST(EngineCuda, TightVramBudgetThreeWorkersWaitNotFail) {
  using E = groth16::Bls12_381;
  const CircuitSpec spec = mul_chain("big", "bls12_381", 1 << 16);
  std::uint64_t key_b = 0, scratch_b = 0, shape_need = 0;
  {
    Engine probe(cuda_config({spec}));
    ASSERT_EQ(probe.preload("big"), ErrorCode::kOk);
    const auto file = probe.key_file("big");
    ASSERT_TRUE(file.has_value());
    const groth16::ProvingKey<E> pk = engine_key<E>(*file);
    key_b = gpu::DeviceProvingKey<E>::estimate_bytes(pk);
    scratch_b = gpu::DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk);
    const KeyShape shape = shape_of(pk);
    shape_need = key_host_bytes(shape) + scratch_bytes(shape);  // the engine's check before a key is loaded
  }
  EngineConfig cfg = cuda_config({spec});
  cfg.workers_per_device = 3;
  cfg.vram_budget_bytes = std::max(key_b + 2 * scratch_b - 1, shape_need);
  ASSERT_LT(cfg.vram_budget_bytes, key_b + 3 * scratch_b) << "the budget must be below the three workers' combined need";
  Engine e(cfg);
  std::vector<std::string> ids;
  for (int seed = 1; seed <= 9; ++seed) {
    const SubmitOutcome o = e.submit(native_request("big", seed));
    ASSERT_EQ(o.code, ErrorCode::kOk) << o.error;
    ids.push_back(o.request_id);
  }
  std::atomic<bool> done{false};
  std::uint64_t peak = 0;
  std::thread monitor([&] {
    while (!done.load()) {
      const StatusSnapshot s = e.status();
      peak = std::max(peak, s.devices.at(0).vram_reserved);
      std::this_thread::sleep_for(2ms);
    }
  });
  const std::filesystem::path zkey = *e.key_file("big");
  for (const auto& id : ids) {
    const auto r = e.await(id, 600s);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->state, JobState::kSucceeded) << r->error;
    EXPECT_TRUE(verifies(*r, zkey));
  }
  done = true;
  monitor.join();
  const StatusSnapshot s = e.status();
  EXPECT_EQ(s.succeeded, 9u);
  EXPECT_EQ(s.failed, 0u);
  EXPECT_GT(peak, 0u);
  EXPECT_LE(peak, cfg.vram_budget_bytes);
  EXPECT_EQ(s.devices.at(0).workers, 3);
}

// The pinned tier on a real GPU: host copies are registered with the driver, a key whose
// VRAM copy was reclaimed drops to "pinned" and is uploaded again from page-locked memory.
TEST(EngineCuda, KeyDroppedFromVramStaysPinnedAndIsUploadedAgain) {
  using E = groth16::Bls12_381;
  // Two keys of one shape: each key's figures are the same, so the budget below holds one key
  // and its proof's scratch but not a second key beside them, whatever the estimates are.
  const CircuitSpec sa = mul_chain("a", "bls12_381", 1 << 16), sb = mul_chain("b", "bls12_381", 1 << 16);
  // need_one: a key and one proof's scratch (also the engine's check before a key is loaded);
  // need_both: both keys and one proof's scratch.
  std::uint64_t need_one = 0, need_both = ~0ull;
  {
    Engine probe(cuda_config({sa, sb}));
    std::uint64_t keys = 0, scratch_min = ~0ull;
    for (const char* id : {"a", "b"}) {
      ASSERT_EQ(probe.preload(id), ErrorCode::kOk);
      const groth16::ProvingKey<E> pk = engine_key<E>(*probe.key_file(id));
      const std::uint64_t k = gpu::DeviceProvingKey<E>::estimate_bytes(pk);
      const std::uint64_t sc = gpu::DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk);
      const KeyShape shape = shape_of(pk);
      need_one = std::max({need_one, k + sc, key_host_bytes(shape) + scratch_bytes(shape)});
      keys += k;
      scratch_min = std::min(scratch_min, sc);
    }
    need_both = keys + scratch_min;
  }
  ASSERT_LT(need_one, need_both) << "the budget must hold one key and its proof, not two keys";
  // 1 GiB: the key is pinned; the staging of one worker only: it stays pageable.
  for (const std::uint64_t pinned_budget : {std::uint64_t{1} << 30, std::uint64_t{gpu::CudaBackend<E>::kStagingBytes}}) {
    EngineConfig cfg = cuda_config({sa, sb});
    cfg.workers_per_device = 1;
    cfg.pinned_budget_bytes = pinned_budget;
    cfg.vram_budget_bytes = need_one;  // one key's copy at a time
    Engine e(cfg);
    const ProofResult first = e.prove(native_request("a", 1), 120s);
    ASSERT_EQ(first.state, JobState::kSucceeded) << first.error;
    ASSERT_EQ(e.prove(native_request("b", 1), 120s).state, JobState::kSucceeded);
    const KeyStatus ka = key_of(e.status(), "a");
    const bool pinned = pinned_budget > gpu::CudaBackend<E>::kStagingBytes;
    EXPECT_EQ(ka.tier, pinned ? "pinned" : "host");
    EXPECT_EQ(ka.vram_bytes, 0u);
    EXPECT_EQ(ka.pinned_bytes > 0, pinned);
    const ProofResult again = e.prove(native_request("a", 2), 120s);
    ASSERT_EQ(again.state, JobState::kSucceeded) << again.error;
    EXPECT_TRUE(verifies(again, *e.key_file("a")));
    EXPECT_GT(timing(again, "key_load"), 0.0);
    std::printf("[ info ] pinned budget %llu: key a (%llu host bytes) first load + upload %.1f ms, again %.1f ms\n",
                static_cast<unsigned long long>(pinned_budget), static_cast<unsigned long long>(ka.host_bytes),
                timing(first, "key_load"), timing(again, "key_load"));
    expect_only_keys_reserved(e);
  }
}

// A VRAM budget just below what the resident key and one proof need: key_placement "auto"
// keeps most of the key resident and streams the rest from the host copy in chunks (its VRAM
// between the streamed and the resident key's, its layout naming both sets), and every proof
// verifies; "stream" streams every part of a key that would fit.
TEST(EngineCuda, KeyLargerThanTheVramBudgetIsStreamedInPart) {
  using E = groth16::Bls12_381;
  using K = gpu::DeviceProvingKey<E>;
  const CircuitSpec spec = mul_chain("big", "bls12_381", 1 << 16);
  std::uint64_t resident = 0, streamed = 0, resident_key = 0, streamed_key = 0;
  {
    const groth16::ProvingKey<E> pk = probe_key<E>(spec);
    // The resident key with the NTT's compact twiddle table: the least a resident key needs.
    const gpu::KeyLayout compact{gpu::KeyLayout::kAllMask, 0, true};
    resident_key = K::estimate_bytes(pk, compact);
    resident = resident_key + K::estimate_proof_scratch_bytes(pk, compact);
    const std::size_t chunk = std::size_t{1} << 14;
    streamed_key = K::estimate_bytes(pk, gpu::KeyPlacement::kStreamPoints, chunk);
    streamed = streamed_key + K::estimate_proof_scratch_bytes(pk, gpu::KeyPlacement::kStreamPoints, chunk);
  }
  ASSERT_LT(streamed, resident - 1) << "a streamed key with 2^14-point chunks must need less than the resident one";
  for (const KeyPlacement mode : {KeyPlacement::automatic, KeyPlacement::stream}) {
    EngineConfig cfg = cuda_config({spec});
    cfg.key_placement = mode;
    const std::string name(key_placement_name(mode));
    cfg.vram_budget_bytes = mode == KeyPlacement::automatic ? resident - 1 : 0;
    cfg.pinned_budget_bytes = 1ull << 30;  // the key's points pinned: truly asynchronous chunk copies
    Engine e(cfg);
    SCOPED_TRACE(name);
    for (const ProofResult& r : prove_seeds(e, "big", 3, *e.key_file("big")))
      std::printf("[ info ] %s placement, budget %llu: proof %.1f ms (msm_a %.1f ms, msm_b_g2 %.1f ms)\n", name.c_str(),
                  static_cast<unsigned long long>(cfg.vram_budget_bytes), timing(r, "total"), timing(r, "msm_a"),
                  timing(r, "msm_b_g2"));
    const KeyStatus k = key_of(e.status(), "big");
    EXPECT_EQ(k.tier, "vram");
    EXPECT_GT(k.vram_bytes, 0u);
    EXPECT_LT(k.vram_bytes, resident_key) << name << ": some points must stream";
    if (mode == KeyPlacement::automatic) {
      EXPECT_GT(k.vram_bytes, streamed_key) << "some parts must stay resident";
      EXPECT_EQ(k.layout.rfind("resident: ", 0), 0u) << k.layout;
      EXPECT_NE(k.layout.find("; streamed: "), std::string::npos) << k.layout;
    } else {
      EXPECT_EQ(k.layout.rfind("streamed (chunk ", 0), 0u) << name << ": " << k.layout;
    }
    EXPECT_GT(k.pinned_bytes, 0u);
    expect_only_keys_reserved(e);
  }
}

// A VRAM budget between what the resident key and one proof need with the NTT's compact twiddle
// table and with the full one: "auto" keeps the whole key resident with the compact table
// (every point on the device, 256 MiB of twiddles at 2^27 instead of 2 GiB), and the proofs
// verify.
TEST(EngineCuda, ResidentKeyTakesTheCompactTwiddleTableWhereOnlyThatFits) {
  using E = groth16::Bls12_381;
  using K = gpu::DeviceProvingKey<E>;
  const CircuitSpec spec = mul_chain("big", "bls12_381", 1 << 16);
  std::uint64_t full = 0, compact = 0, compact_key = 0;
  {
    const groth16::ProvingKey<E> pk = probe_key<E>(spec);
    const gpu::KeyLayout lean{gpu::KeyLayout::kAllMask, 0, true};
    full = K::estimate_bytes(pk) + K::estimate_proof_scratch_bytes(pk);
    compact_key = K::estimate_bytes(pk, lean);
    compact = compact_key + K::estimate_proof_scratch_bytes(pk, lean);
  }
  ASSERT_LT(compact, full);
  EngineConfig cfg = cuda_config({spec});
  cfg.key_placement = KeyPlacement::automatic;
  cfg.vram_budget_bytes = full - 1;
  Engine e(cfg);
  prove_seeds(e, "big", 2, *e.key_file("big"));
  const KeyStatus k = key_of(e.status(), "big");
  EXPECT_EQ(k.layout, "resident (compact twiddles)");
  EXPECT_LE(k.vram_bytes, compact_key);
  expect_only_keys_reserved(e);
}

// The engine admits a job whose budget holds just a streamed key and one proof at the
// smallest chunk it tries (its shape-based admission, before the key is loaded, must not ask
// for more: a streamed key keeps its matrices in host memory and a proof runs H in two
// domain-sized arrays), places the key streamed, and the proofs verify.
TEST(EngineCuda, StreamedKeyAdmittedAtItsSmallestNeed) {
  using E = groth16::Bls12_381;
  using K = gpu::DeviceProvingKey<E>;
  const CircuitSpec spec = mul_chain("big", "bls12_381", 1 << 16);
  std::uint64_t budget = 0, resident = 0;
  {
    const groth16::ProvingKey<E> pk = probe_key<E>(spec);
    const std::size_t chunk = std::size_t{1} << 12;
    budget = K::estimate_bytes(pk, gpu::KeyPlacement::kStreamPoints, chunk) +
             K::estimate_proof_scratch_bytes(pk, gpu::KeyPlacement::kStreamPoints, chunk) + (1u << 20);
    resident = K::estimate_bytes(pk) + K::estimate_proof_scratch_bytes(pk);
  }
  ASSERT_LT(budget, resident);
  EngineConfig cfg = cuda_config({spec});
  cfg.key_placement = KeyPlacement::automatic;
  cfg.vram_budget_bytes = budget;
  Engine e(cfg);
  for (const ProofResult& r : prove_seeds(e, "big", 2, *e.key_file("big")))
    std::printf("[ info ] streamed, budget %llu (resident: %llu): proof %.1f ms (eval_abc %.1f ms)\n",
                static_cast<unsigned long long>(budget), static_cast<unsigned long long>(resident), timing(r, "total"),
                timing(r, "eval_abc"));
  const KeyStatus k = key_of(e.status(), "big");
  EXPECT_LT(k.vram_bytes, resident);
  EXPECT_LE(k.vram_bytes, budget);
  // Chunks of 4096 with the full twiddle table. With the compact table, the room it frees (with
  // the budget's last MiB) holds larger chunks or resident matrices (DeviceProvingKey::choose_layout;
  // the H100 chose "resident: matrices; streamed: H, A, B1, B2, L (chunk 4096, compact twiddles)").
  EXPECT_NE(k.layout.find("streamed"), std::string::npos) << k.layout;
  EXPECT_TRUE(k.layout == "streamed (chunk 4096)" || k.layout.find(", compact twiddles)") != std::string::npos)
      << k.layout;
  expect_only_keys_reserved(e);
}

// A batch of jobs with a streamed key: one prove_batch (each point chunk uploaded once for the
// three proofs), every proof verified against the key file, one result per job. The batch's
// first proof comes back wrong (a silent fault): that job alone is proved again.
TEST(EngineCuda, BatchWithAStreamedKeyProvesEachJob) {
  const CircuitSpec spec = mul_chain("sb", "bls12_381", 1 << 14);
  EngineConfig cfg = cuda_config({spec});
  cfg.key_placement = KeyPlacement::stream;
  cfg.max_batch_size = 3;
  cfg.max_batch_wait_ms = 2000;
  cfg.workers_per_device = 1;
  cfg.fault.device = 0;
  cfg.fault.wrong_proofs = 1;
  Engine e(cfg);
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    const SubmitOutcome s = e.submit(native_request("sb", 60 + i, numbered("sb-", i)));
    ASSERT_EQ(s.code, ErrorCode::kOk) << s.error;
    ids.push_back(s.request_id);
  }
  const std::filesystem::path zkey = *e.key_file("sb");
  int retried = 0;
  for (const auto& id : ids) {
    const auto r = e.await(id, 300s);
    ASSERT_TRUE(r.has_value());
    ASSERT_EQ(r->state, JobState::kSucceeded) << r->error;
    EXPECT_EQ(r->batch_size, 3u);
    EXPECT_LE(r->attempts, 2) << id;
    retried += r->attempts == 2 ? 1 : 0;
    EXPECT_TRUE(verifies(*r, zkey)) << id;
    EXPECT_GT(timing(*r, "msm_b_g2"), 0.0);
  }
  EXPECT_EQ(retried, 1);  // only the job whose proof came back wrong
  EXPECT_EQ(e.status().devices.at(0).failed_verifications, 1u);
  EXPECT_NE(key_of(e.status(), "sb").layout.find("streamed"), std::string::npos);
  expect_only_keys_reserved(e);
}

}  // namespace
}  // namespace cuzk::engine::test
