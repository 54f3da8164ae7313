// Key tiers below VRAM: the pinned tier (the host copy's points page-locked, against the
// pinned budget; simulated on the cpu backend exactly as it accounts the cuda one) and the
// mmap tier (a key dropped from RAM keeps its file mapped; a replaced file is not trusted).
#include <gtest/gtest.h>

#include <fstream>

#include "budget.hpp"  // src/engine
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/io/binfile.hpp"
#include "support.hpp"

namespace cuzk::engine::test {
namespace {

namespace fs = std::filesystem;

// The pinned and host bytes one key takes (from an engine with room for everything).
struct KeyBytes {
  std::uint64_t pinned = 0, host = 0;
};
KeyBytes bytes_of(const CircuitSpec& spec) {
  EngineConfig cfg = small_config({spec});
  cfg.pinned_budget_bytes = 1ull << 30;
  Engine e(cfg);
  EXPECT_EQ(e.preload(spec.id), ErrorCode::kOk);
  const KeyStatus k = key_of(e.status(), spec.id);
  return {k.pinned_bytes, k.host_bytes};
}

// A key's pin reserves its bytes plus the staging headroom, then gives the headroom back.
TEST(EngineBudget, ShrinkGivesBackTheExcessOnly) {
  Budget b(1000, 100, {});
  std::optional<Reservation> r = b.try_reserve(PoolId::pinned(), 80);
  ASSERT_TRUE(r.has_value());
  r->shrink_to(30);
  EXPECT_EQ(r->bytes(), 30u);
  EXPECT_EQ(b.reserved(PoolId::pinned()), 30u);
  r->shrink_to(50);  // never grows
  EXPECT_EQ(b.reserved(PoolId::pinned()), 30u);
  std::optional<Reservation> rest = b.try_reserve(PoolId::pinned(), 70);
  EXPECT_TRUE(rest.has_value());
  EXPECT_FALSE(b.try_reserve(PoolId::pinned(), 1).has_value());
  r->release();
  rest->release();
  EXPECT_EQ(b.reserved(PoolId::pinned()), 0u);
}

// Witness pins take only free room: no reclaiming of idle keys' pins.
TEST(EngineBudget, TryReserveWithoutReclaimLeavesOthersAlone) {
  Budget b(1000, 100, {});
  int asked = 0;
  b.set_reclaimer([&](PoolId, std::uint64_t) {
    ++asked;
    return std::uint64_t{0};
  });
  std::optional<Reservation> held = b.try_reserve(PoolId::pinned(), 60);
  ASSERT_TRUE(held.has_value());
  EXPECT_FALSE(b.try_reserve(PoolId::pinned(), 50, Budget::Reclaim::kNo).has_value());
  EXPECT_EQ(asked, 0);
  EXPECT_FALSE(b.try_reserve(PoolId::pinned(), 50).has_value());
  EXPECT_EQ(asked, 1);
  EXPECT_TRUE(b.try_reserve(PoolId::pinned(), 40, Budget::Reclaim::kNo).has_value());
}

// A synthesized witness is pinned (pinned_witness_min_bytes; the cpu backend accounts it as
// the cuda one pins it) while its job runs, only where the pinned budget has room for it beside
// the key's pin, and unpinned when the job is done.
TEST(EngineTiers, WitnessIsPinnedWhileItsJobRunsWhenThereIsRoom) {
  const CircuitSpec spec = mul_chain("c", "bn254", 4096);
  const KeyBytes key = bytes_of(spec);
  const auto pk = groth16::read_zkey<groth16::Bn254>(
      io::BinFile::open(cached_key(shared_cache_dir(), "mul-chain-bn254-constraints=4096-"), groth16::zkey_detail::kZkeyFile));
  const std::uint64_t witness = sizeof(groth16::Bn254::Fr) * pk.num_vars;  // the assignment's bytes
  EngineConfig cfg = small_config({spec});
  cfg.pinned_witness_min_bytes = 0;
  cfg.pinned_budget_bytes = key.pinned + witness;
  {
    Engine e(cfg);
    ASSERT_EQ(e.submit(native_request("c", 1, "running")).code, ErrorCode::kOk);
    const auto end = std::chrono::steady_clock::now() + 60s;
    while (e.peek("running").state != JobState::kProving && !is_final(e.peek("running").state) &&
           std::chrono::steady_clock::now() < end)
      std::this_thread::sleep_for(1ms);
    const std::uint64_t during = e.status().budgets[1].reserved;
    const ProofResult r = *e.await("running", 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_EQ(during, key.pinned + witness) << "the key's pin and the witness's";
    EXPECT_GE(timing(r, "pin_witness"), 0);
    EXPECT_EQ(key_of(e.status(), "c").pinned_bytes, key.pinned);
    expect_only_keys_reserved(e);  // the witness's pin is gone with the job
  }
  {
    // One byte short: the key keeps its pin, the witness is not pinned, the proof is unaffected.
    cfg.pinned_budget_bytes = key.pinned + witness - 1;
    Engine e(cfg);
    const ProofResult r = e.prove(native_request("c", 2), 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_EQ(timing(r, "pin_witness"), -1);
    EXPECT_EQ(key_of(e.status(), "c").pinned_bytes, key.pinned);
    expect_only_keys_reserved(e);
  }
  {
    // Below the size threshold: not pinned.
    cfg.pinned_budget_bytes = key.pinned + witness;
    cfg.pinned_witness_min_bytes = witness + 1;
    Engine e(cfg);
    const ProofResult r = e.prove(native_request("c", 3), 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_EQ(timing(r, "pin_witness"), -1);
  }
}

// Releasing a pinned witness waits for the device's other work (cudaHostUnregister, measured
// on the H200), so a job with one ends on the engine's retirer thread, not on its worker: the
// only worker proves the next job while the first one's release is still running, and each
// result is final only after its release (the memory is free before anyone sees it).
TEST(EngineTiers, WorkerProvesOnWhileAPinnedWitnessIsReleased) {
  const CircuitSpec spec = mul_chain("c", "bn254", 4096);
  EngineConfig cfg = small_config({spec});
  cfg.workers_per_device = 1;
  cfg.max_batch_size = 1;
  cfg.pinned_witness_min_bytes = 0;
  cfg.pinned_budget_bytes = 64ull << 20;
  cfg.fault.witness_unlock_ms = 1500;
  Engine e(cfg);
  ASSERT_EQ(e.submit(native_request("c", 1, "first")).code, ErrorCode::kOk);
  ASSERT_EQ(e.submit(native_request("c", 2, "second")).code, ErrorCode::kOk);
  bool second_proving_before_first_final = false;
  const auto end = std::chrono::steady_clock::now() + 60s;
  while (!is_final(e.peek("first").state) && std::chrono::steady_clock::now() < end) {
    const JobState s = e.peek("second").state;
    if (s == JobState::kProving && !is_final(e.peek("first").state)) second_proving_before_first_final = true;
    std::this_thread::sleep_for(1ms);
  }
  const ProofResult a = *e.await("first", 60s), b = *e.await("second", 60s);
  ASSERT_EQ(a.state, JobState::kSucceeded) << a.error;
  ASSERT_EQ(b.state, JobState::kSucceeded) << b.error;
  EXPECT_GE(timing(a, "pin_witness"), 0);
  EXPECT_GE(timing(b, "pin_witness"), 0);
  EXPECT_TRUE(second_proving_before_first_final) << "the worker waited for the first witness's release";
  EXPECT_GE(timing(a, "total"), 1500) << "final only after its witness's release";
  EXPECT_TRUE(verifies(a, cached_key(shared_cache_dir(), "mul-chain-bn254-constraints=4096-")));
  expect_only_keys_reserved(e);
}

TEST(EngineTiers, HostCopyIsPinnedWhenThePinnedBudgetAllows) {
  const KeyBytes b = bytes_of(mul_chain("c", "bls12_381", 512));
  ASSERT_GT(b.pinned, 0u);
  EXPECT_LT(b.pinned, b.host);  // the points only, not the matrices
  {
    EngineConfig cfg = small_config({mul_chain("c", "bls12_381", 512)});
    cfg.pinned_budget_bytes = b.pinned;
    Engine e(cfg);
    const ProofResult r = e.prove(native_request("c", 1), 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    KeyStatus k = key_of(e.status(), "c");
    EXPECT_EQ(k.pinned_bytes, b.pinned);
    EXPECT_EQ(k.tier, "vram");  // the fastest tier it has
    EXPECT_EQ(k.layout, "resident");  // the parts on its devices
    expect_only_keys_reserved(e);
    std::string err;
    ASSERT_EQ(e.evict("c", &err), ErrorCode::kOk) << err;
    k = key_of(e.status(), "c");
    EXPECT_EQ(k.tier, "disk");
    EXPECT_EQ(k.layout, "");  // on no device
    EXPECT_EQ(k.pinned_bytes, 0u);
    EXPECT_EQ(k.mapped_bytes, 0u);
    EXPECT_EQ(e.status().budgets[1].reserved, 0u);
  }
  {
    // One byte short: the key stays pageable and proofs are unaffected.
    EngineConfig cfg = small_config({mul_chain("c", "bls12_381", 512)});
    cfg.pinned_budget_bytes = b.pinned - 1;
    Engine e(cfg);
    EXPECT_EQ(e.prove(native_request("c", 2), 60s).state, JobState::kSucceeded);
    EXPECT_EQ(key_of(e.status(), "c").pinned_bytes, 0u);
    EXPECT_EQ(e.status().budgets[1].reserved, 0u);
    expect_only_keys_reserved(e);
  }
}

TEST(EngineTiers, IdleKeysPinLeastRecentlyUsedFirst) {
  const KeyBytes a = bytes_of(mul_chain("a", "bn254", 600));
  const KeyBytes b = bytes_of(mul_chain("b", "bn254", 500));
  EngineConfig cfg = small_config({mul_chain("a", "bn254", 600), mul_chain("b", "bn254", 500)});
  cfg.pinned_budget_bytes = std::max(a.pinned, b.pinned) + a.pinned / 2;  // one pin at a time
  Engine e(cfg);
  ASSERT_EQ(e.prove(native_request("a", 1), 60s).state, JobState::kSucceeded);
  EXPECT_EQ(key_of(e.status(), "a").pinned_bytes, a.pinned);
  ASSERT_EQ(e.prove(native_request("b", 1), 60s).state, JobState::kSucceeded);
  EXPECT_EQ(key_of(e.status(), "a").pinned_bytes, 0u);  // unpinned to make room, still in RAM
  EXPECT_GT(key_of(e.status(), "a").host_bytes, 0u);
  EXPECT_EQ(key_of(e.status(), "b").pinned_bytes, b.pinned);
  expect_only_keys_reserved(e);
}

TEST(EngineTiers, KeyDroppedFromRamKeepsItsMappingAndReloadsFromIt) {
  ScratchDir dir("tiers-mmap");
  const CircuitSpec sa = mul_chain("a", "bn254", 1024), sb = mul_chain("b", "bn254", 1000);
  const std::uint64_t host = std::max(bytes_of(sa).host, bytes_of(sb).host);
  EngineConfig cfg = small_config({sa, sb});
  cfg.cache_dir = dir.path().string();
  cfg.host_budget_bytes = host + (256u << 10);  // one key (and a witness) at a time
  Engine e(cfg);
  ASSERT_EQ(e.prove(native_request("a", 1), 60s).state, JobState::kSucceeded);
  EXPECT_EQ(key_of(e.status(), "a").mapped_bytes, fs::file_size(cached_key(dir.path(), "mul-chain-bn254-constraints=1024-")));
  ASSERT_EQ(e.prove(native_request("b", 1), 60s).state, JobState::kSucceeded);
  KeyStatus k = key_of(e.status(), "a");
  EXPECT_EQ(k.tier, "mmap");
  EXPECT_EQ(k.host_bytes, 0u);
  EXPECT_EQ(k.pinned_bytes, 0u);
  EXPECT_GT(k.mapped_bytes, 0u);
  const ProofResult again = e.prove(native_request("a", 2), 60s);
  ASSERT_EQ(again.state, JobState::kSucceeded) << again.error;
  EXPECT_GT(timing(again, "key_load"), 0.0);
  EXPECT_TRUE(verifies(again, cached_key(dir.path(), "mul-chain-bn254-constraints=1024-")));
  EXPECT_EQ(key_of(e.status(), "b").tier, "mmap");
  expect_only_keys_reserved(e);
  std::string err;
  ASSERT_EQ(e.evict("b", &err), ErrorCode::kOk) << err;
  EXPECT_EQ(key_of(e.status(), "b").tier, "disk");  // an explicit eviction unmaps too
  EXPECT_EQ(key_of(e.status(), "b").mapped_bytes, 0u);
}

TEST(EngineTiers, ReplacedKeyFileIsNotReadThroughTheOldMapping) {
  ScratchDir dir("tiers-replaced");
  const CircuitSpec sa = mul_chain("a", "bls12_381", 300), sb = mul_chain("b", "bls12_381", 290);
  const std::uint64_t ha = bytes_of(sa).host, hb = bytes_of(sb).host;
  EngineConfig cfg = small_config({sa, sb});
  cfg.cache_dir = dir.path().string();
  cfg.host_budget_bytes = std::max(ha, hb) + std::min(ha, hb) / 2;  // one key (and a witness) at a time
  Engine e(cfg);
  ASSERT_EQ(e.prove(native_request("a", 1), 60s).state, JobState::kSucceeded);
  ASSERT_EQ(e.prove(native_request("b", 1), 60s).state, JobState::kSucceeded);
  ASSERT_EQ(key_of(e.status(), "a").tier, "mmap");
  // Another file renamed over a's cache (as an operator or a rebuild would): garbage
  // points with an intact header. The old mapping would still parse; the new file must
  // be read (found corrupt) and the key rebuilt.
  const fs::path file = cached_key(dir.path(), "mul-chain-bls12_381-constraints=300-");
  const fs::path tmp = dir.path() / "replacement.tmp";
  fs::copy_file(file, tmp);
  {
    std::fstream f(tmp, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(tmp) - 300));
    const std::string junk(100, '\xff');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  const std::vector<std::uint8_t> junk_file = io::read_file_bytes(tmp);
  fs::rename(tmp, file);
  const ProofResult r = e.prove(native_request("a", 2), 60s);
  ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
  EXPECT_TRUE(verifies(r, file));
  EXPECT_NE(io::read_file_bytes(file), junk_file);  // rebuilt, not read through the old mapping
  const KeyStatus k = key_of(e.status(), "a");
  EXPECT_EQ(k.tier, "vram");
  EXPECT_EQ(k.mapped_bytes, 0u);  // the rebuilt file is mapped at its next load, not the stale one
}

}  // namespace
}  // namespace cuzk::engine::test
