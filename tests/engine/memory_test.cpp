// Memory: budgets that make jobs wait instead of failing, jobs that can never fit, key
// tiers with eviction (explicit and LRU), cancellation releasing every reservation, and
// the on-disk key cache across restarts and corruption.
#include <gtest/gtest.h>

#include <fstream>

#include "circuit.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "shape.hpp"  // the documented estimate formulas (src/engine)
#include "support.hpp"

namespace cuzk::engine::test {
namespace {

namespace fs = std::filesystem;

std::uint64_t domain_of(std::uint64_t mul_chain_constraints) {
  std::uint64_t n = 1;
  while (n < mul_chain_constraints + 1 + 2) n <<= 1;  // constraints + output binding + public rows
  return n;
}

void wait_for_state(const Engine& e, const std::string& id, JobState s) {
  const auto end = std::chrono::steady_clock::now() + 60s;
  while (e.peek(id).state != s && !is_final(e.peek(id).state) && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(1ms);
}

TEST(EngineMemory, TightVramBudgetMakesJobsWaitNotFail) {
  // The device key's size, from a probe engine.
  std::uint64_t key = 0;
  {
    Engine probe(small_config({mul_chain("c", "bn254", 1024)}));
    ASSERT_EQ(probe.preload("c"), ErrorCode::kOk);
    key = key_of(probe.status(), "c").vram_bytes;
    ASSERT_GT(key, 0u);
  }
  KeyShape s;
  s.fr_bytes = 32;
  s.domain_size = domain_of(1024);
  const std::uint64_t scratch = scratch_bytes(s);
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 1024)});
  cfg.workers_per_device = 3;
  cfg.synthesis_concurrency = 2;
  cfg.pipeline_depth = 3;
  cfg.vram_budget_bytes = key + scratch + scratch / 2;  // one proof at a time fits
  Engine e(cfg);
  std::vector<std::string> ids;
  for (int i = 0; i < 6; ++i) ids.push_back(e.submit(native_request("c", i + 1)).request_id);
  int max_busy = 0;
  std::uint64_t max_reserved = 0;
  while (!std::all_of(ids.begin(), ids.end(), [&](const auto& id) { return is_final(e.peek(id).state); })) {
    const StatusSnapshot st = e.status();
    max_busy = std::max(max_busy, st.devices[0].busy_workers);
    max_reserved = std::max(max_reserved, st.devices[0].vram_reserved);
    std::this_thread::sleep_for(1ms);
  }
  for (const auto& id : ids) {
    const ProofResult r = e.peek(id);
    EXPECT_EQ(r.state, JobState::kSucceeded) << r.error;
  }
  EXPECT_GE(max_busy, 2) << "several workers took jobs";
  EXPECT_GE(max_reserved, key + scratch) << "a proof reserves its scratch";
  EXPECT_LE(max_reserved, cfg.vram_budget_bytes) << "so the others waited for it";
  EXPECT_EQ(e.status().failed, 0u);
  expect_only_keys_reserved(e);
}

TEST(EngineMemory, TightHostBudgetMakesSynthesisWait) {
  std::uint64_t key = 0;
  {
    Engine probe(small_config({mul_chain("c", "bn254", 1024)}));
    ASSERT_EQ(probe.preload("c"), ErrorCode::kOk);
    key = key_of(probe.status(), "c").host_bytes;
  }
  const std::uint64_t witness = 2ull * 32 * (1024 + 3);  // 2 * S * num_vars
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 1024)});
  cfg.synthesis_concurrency = 3;
  cfg.workers_per_device = 2;
  cfg.pipeline_depth = 3;
  cfg.host_budget_bytes = key + witness + witness / 2;  // one witness at a time
  Engine e(cfg);
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(e.submit(native_request("c", i + 1)).request_id);
  for (const auto& id : ids) EXPECT_EQ(e.await(id, 60s)->state, JobState::kSucceeded);
  expect_only_keys_reserved(e);
}

TEST(EngineMemory, JobLargerThanAnyBudgetIsRefused) {
  EngineConfig cfg = small_config({mul_chain("small", "bn254", 128), mul_chain("big", "bn254", 4096)});
  KeyShape s;
  s.fr_bytes = 32;
  s.domain_size = domain_of(128);
  cfg.vram_budget_bytes = scratch_bytes(s) + (1ull << 20);  // small: ~0.1 MiB key + scratch; big: > 1 MiB more
  cfg.devices = 2;
  Engine e(cfg);
  const SubmitOutcome big = e.submit(native_request("big", 1));
  EXPECT_EQ(big.code, ErrorCode::kResourceExhausted);
  EXPECT_NE(big.error.find("device memory"), std::string::npos) << big.error;
  const ProofResult r = e.prove(native_request("big", 2), 60s);
  EXPECT_EQ(r.code, ErrorCode::kResourceExhausted);
  EXPECT_EQ(r.state, JobState::kFailed);
  EXPECT_EQ(e.prove(native_request("small", 1), 60s).state, JobState::kSucceeded);

  EngineConfig host = small_config({mul_chain("small", "bn254", 128)});
  host.host_budget_bytes = 4096;
  Engine h(host);
  const SubmitOutcome hs = h.submit(native_request("small", 1));
  EXPECT_EQ(hs.code, ErrorCode::kResourceExhausted);
  EXPECT_NE(hs.error.find("host memory"), std::string::npos) << hs.error;
}

TEST(EngineMemory, EvictionRefusesWhileInUseAndFreesAtZero) {
  Engine e(small_config({mul_chain("c", "bn254", 4096), mul_chain("d", "bn254", 128)}));
  EXPECT_EQ(key_of(e.status(), "c").tier, "disk");
  ASSERT_EQ(e.submit(native_request("c", 1, "running")).code, ErrorCode::kOk);
  wait_for_state(e, "running", JobState::kProving);
  KeyStatus k = key_of(e.status(), "c");
  EXPECT_EQ(k.tier, "vram");
  EXPECT_GE(k.refcount, 1);
  std::string err;
  EXPECT_EQ(e.evict("c", &err), ErrorCode::kFailedPrecondition);
  EXPECT_NE(err.find("in use"), std::string::npos) << err;
  ASSERT_EQ(e.await("running", 60s)->state, JobState::kSucceeded);
  k = key_of(e.status(), "c");
  EXPECT_EQ(k.refcount, 0);
  EXPECT_GT(k.host_bytes, 0u);
  EXPECT_GT(k.vram_bytes, 0u);
  EXPECT_EQ(k.proofs, 1u);
  EXPECT_EQ(e.evict("c", &err), ErrorCode::kOk) << err;
  k = key_of(e.status(), "c");
  EXPECT_EQ(k.tier, "disk");
  EXPECT_EQ(k.host_bytes, 0u);
  EXPECT_EQ(k.vram_bytes, 0u);
  EXPECT_TRUE(k.devices.empty());
  const StatusSnapshot s = e.status();
  EXPECT_EQ(s.budgets[0].reserved, 0u);
  EXPECT_EQ(s.devices[0].vram_reserved, 0u);
  EXPECT_EQ(e.evict("nope", &err), ErrorCode::kNotFound);
  // Preload brings it back to the fastest tier; proving from there loads nothing.
  EXPECT_EQ(e.preload("c"), ErrorCode::kOk);
  EXPECT_EQ(key_of(e.status(), "c").tier, "vram");
  EXPECT_EQ(e.preload("nope"), ErrorCode::kNotFound);
  const ProofResult r = e.prove(native_request("c", 2), 60s);
  EXPECT_EQ(r.state, JobState::kSucceeded);
  EXPECT_EQ(timing(r, "key_load"), 0.0);
}

TEST(EngineMemory, LeastRecentlyUsedKeyMakesRoom) {
  std::uint64_t host_a = 0, host_b = 0;
  {
    Engine probe(small_config({mul_chain("a", "bn254", 1024), mul_chain("b", "bn254", 1000)}));
    ASSERT_EQ(probe.preload("a"), ErrorCode::kOk);
    ASSERT_EQ(probe.preload("b"), ErrorCode::kOk);
    host_a = key_of(probe.status(), "a").host_bytes;
    host_b = key_of(probe.status(), "b").host_bytes;
  }
  EngineConfig cfg = small_config({mul_chain("a", "bn254", 1024), mul_chain("b", "bn254", 1000)});
  cfg.host_budget_bytes = std::max(host_a, host_b) + (256u << 10);  // one key (and a witness) at a time
  Engine e(cfg);
  EXPECT_EQ(e.prove(native_request("a", 1), 60s).state, JobState::kSucceeded);
  EXPECT_EQ(key_of(e.status(), "a").tier, "vram");
  EXPECT_EQ(e.prove(native_request("b", 1), 60s).state, JobState::kSucceeded);
  EXPECT_EQ(key_of(e.status(), "a").tier, "mmap");  // dropped from RAM to make room; file still mapped
  EXPECT_EQ(key_of(e.status(), "b").tier, "vram");
  const ProofResult again = e.prove(native_request("a", 2), 60s);
  EXPECT_EQ(again.state, JobState::kSucceeded);
  EXPECT_GT(timing(again, "key_load"), 0.0);  // reloaded (parsed again from the mapping)
  EXPECT_EQ(key_of(e.status(), "b").tier, "mmap");
  expect_only_keys_reserved(e);
}

TEST(EngineMemory, CancelQueuedAndRunningReleasesEverything) {
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 4096)});
  Engine e(cfg);
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(e.submit(native_request("c", 10 + i, numbered("j", i))).request_id);
  wait_for_state(e, "j0", JobState::kProving);
  // Queued: removed at once.
  std::string err;
  EXPECT_EQ(e.cancel("j3", &err), ErrorCode::kOk) << err;
  ProofResult q = e.peek("j3");
  EXPECT_EQ(q.state, JobState::kCancelled);
  EXPECT_EQ(q.code, ErrorCode::kCancelled);
  EXPECT_EQ(e.cancel("j3", &err), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(e.cancel("nope", &err), ErrorCode::kNotFound);
  // Running: stops at its next phase boundary.
  ASSERT_EQ(e.peek("j0").state, JobState::kProving);
  EXPECT_EQ(e.cancel("j0", &err), ErrorCode::kOk) << err;
  const ProofResult r = *e.await("j0", 60s);
  EXPECT_EQ(r.state, JobState::kCancelled);
  EXPECT_EQ(r.code, ErrorCode::kCancelled);
  EXPECT_TRUE(r.proof_json.empty());
  EXPECT_LT(timing(r, "verify"), 0) << "cancelled before verification";
  // The others still run.
  EXPECT_EQ(e.await("j1", 60s)->state, JobState::kSucceeded);
  EXPECT_EQ(e.await("j2", 60s)->state, JobState::kSucceeded);
  const StatusSnapshot s = e.status();
  EXPECT_EQ(s.cancelled, 2u);
  EXPECT_EQ(s.succeeded, 2u);
  expect_only_keys_reserved(e);
  EXPECT_EQ(e.evict("c"), ErrorCode::kOk);  // no lease left behind
  EXPECT_EQ(e.status().budgets[0].reserved, 0u);
  EXPECT_EQ(e.status().devices[0].vram_reserved, 0u);
}

TEST(EngineMemory, CancelWhileWaitingForTheDeviceOrItsMemory) {
  std::uint64_t key = 0;
  {
    Engine probe(small_config({mul_chain("c", "bn254", 4096)}));
    ASSERT_EQ(probe.preload("c"), ErrorCode::kOk);
    key = key_of(probe.status(), "c").vram_bytes;
  }
  KeyShape s;
  s.fr_bytes = 32;
  s.domain_size = domain_of(4096);
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 4096)});
  cfg.workers_per_device = 2;
  cfg.pipeline_depth = 2;
  cfg.vram_budget_bytes = key + scratch_bytes(s) + scratch_bytes(s) / 2;  // one proof at a time
  Engine e(cfg);
  // w0 first, until it holds its scratch: submitted together, w1's worker could reserve
  // the memory while w0's was still loading the key (seen once in a CI run), and then w0
  // would be the one waiting.
  ASSERT_EQ(e.submit(native_request("c", 20, "w0")).code, ErrorCode::kOk);
  wait_for_state(e, "w0", JobState::kProving);
  const auto end = std::chrono::steady_clock::now() + 60s;
  while (e.status().devices[0].vram_reserved <= key && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(1ms);
  ASSERT_GT(e.status().devices[0].vram_reserved, key) << "w0 never reserved its scratch";
  for (int i = 1; i < 3; ++i) ASSERT_EQ(e.submit(native_request("c", 20 + i, numbered("w", i))).code, ErrorCode::kOk);
  // w1: taken by the second worker, blocked on the device's memory.
  while (e.status().devices[0].busy_workers < 2 && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(e.peek("w1").state, JobState::kWaitingDevice);
  ASSERT_EQ(e.peek("w0").state, JobState::kProving);
  EXPECT_EQ(e.cancel("w1"), ErrorCode::kOk);
  const auto w1 = e.await("w1", 1s);  // stops waiting at once, not when w0 is done
  ASSERT_TRUE(w1.has_value());
  EXPECT_EQ(w1->state, JobState::kCancelled);
  EXPECT_EQ(w1->attempts, 0);
  EXPECT_EQ(e.await("w0", 60s)->state, JobState::kSucceeded);
  EXPECT_EQ(e.await("w2", 60s)->state, JobState::kSucceeded);
  expect_only_keys_reserved(e);
}

TEST(EngineMemory, CancelSynthesizedJobWaitingForAWorker) {
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 4096)});
  cfg.pipeline_depth = 2;
  Engine e(cfg);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(e.submit(native_request("c", 30 + i, numbered("r", i))).code, ErrorCode::kOk);
  wait_for_state(e, "r0", JobState::kProving);
  wait_for_state(e, "r1", JobState::kWaitingDevice);
  const ErrorCode c = e.cancel("r1");
  if (c == ErrorCode::kFailedPrecondition && e.peek("r1").state == JobState::kSucceeded)
    GTEST_SKIP() << "this machine proved r0 and r1 before the test thread ran again";
  ASSERT_EQ(c, ErrorCode::kOk);
  const JobState right_after = e.peek("r1").state;
  // r0 still on the only worker after the cancel: r1 was in the device queue all along, and
  // leaves it at once.
  if (e.peek("r0").state == JobState::kProving) {
    EXPECT_EQ(right_after, JobState::kCancelled);
  }
  EXPECT_EQ(e.await("r1", 60s)->state, JobState::kCancelled);
  EXPECT_EQ(e.await("r0", 60s)->state, JobState::kSucceeded);
  EXPECT_EQ(e.await("r2", 60s)->state, JobState::kSucceeded);
  expect_only_keys_reserved(e);
}

// The cpu backend proves from the matrices' values: its loaded keys get no value index (the
// cuda backend's, CurveDevice::prepare), and a key's host reservation is the key's own bytes.
TEST(EngineMemory, CpuBackendLoadsKeysWithoutTheValueIndex) {
  const CircuitSpec spec = mul_chain("c", "bn254", 1024);
  Engine e(small_config({spec}));
  ASSERT_EQ(e.preload("c"), ErrorCode::kOk);
  const auto pk = groth16::read_zkey<groth16::Bn254>(
      io::BinFile::open(cached_key(shared_cache_dir(), "mul-chain-bn254-constraints=1024-"), groth16::zkey_detail::kZkeyFile));
  const auto circuit = make_circuit(spec, shared_cache_dir(), "circuits[0]");
  const KeyShape& shape = circuit->shape();  // what the reservation is made from, before the key loads
  EXPECT_EQ(key_of(e.status(), "c").host_bytes, key_host_bytes(shape));

  const auto backend = make_sim_devices(small_config({spec}));
  EXPECT_EQ(backend->host_key_extra_bytes(shape), 0u);
  const auto key = circuit->load_key(*backend, nullptr);
  const auto& loaded = key->get<groth16::Bn254>();
  EXPECT_EQ(loaded.a, pk.a);
  EXPECT_FALSE(loaded.a.indexed());
  EXPECT_FALSE(loaded.b.indexed());
  EXPECT_FALSE(loaded.c.indexed());
}

TEST(EngineMemory, KeyCacheSurvivesRestartAndCorruptionIsRebuilt) {
  ScratchDir dir("restart");
  EngineConfig cfg = small_config({mul_chain("c", "bls12_381", 256)});
  cfg.cache_dir = dir.path().string();
  fs::path file;
  fs::file_time_type built;
  {
    Engine e(cfg);
    ASSERT_EQ(e.prove(native_request("c", 1), 60s).state, JobState::kSucceeded);
    file = cached_key(dir.path(), "mul-chain-bls12_381-");
    built = fs::last_write_time(file);
  }
  std::this_thread::sleep_for(20ms);
  {
    Engine e(cfg);  // restart: the cached key is reused, not rebuilt
    const ProofResult r = e.prove(native_request("c", 2), 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_EQ(fs::last_write_time(file), built);
    EXPECT_TRUE(verifies(r, file));
  }
  // Corrupt point bytes (the header still parses): rebuilt when the key is loaded.
  const auto size = fs::file_size(file);
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 300));
    const std::string junk(100, '\xff');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  {
    Engine e(cfg);
    const ProofResult r = e.prove(native_request("c", 3), 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_NE(fs::last_write_time(file), built);
    EXPECT_TRUE(verifies(r, file));
  }
  // Truncated (the header does not parse): rebuilt at start.
  fs::resize_file(file, 100);
  {
    Engine e(cfg);
    EXPECT_GT(fs::file_size(file), 100u);
    const ProofResult r = e.prove(native_request("c", 4), 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_TRUE(verifies(r, file));
  }
}

}  // namespace
}  // namespace cuzk::engine::test
