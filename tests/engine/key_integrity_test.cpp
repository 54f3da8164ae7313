// Keys that rot: a native circuit's cached key carries a digest (<key>.sha256) checked at every
// load, so a file changed after it was written (one byte of a coefficient: it still parses) is
// rebuilt from the seeded setup and the proof succeeds; a key altered in memory after its load
// (FaultInjection::corrupt_keys) makes proofs fail verification twice, is then reloaded from its
// file and the job succeeds on its third attempt; a witness that really does not satisfy its
// circuit is still reported as such (after one reload, and at once while no proof verified since).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "cuzk/io/binfile.hpp"
#include "support.hpp"

namespace cuzk::engine::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> bytes_of(const fs::path& p) { return io::read_file_bytes(p); }

// The offset of a .zkey section's data (after its 12-byte section header).
std::size_t section_data(const std::vector<std::uint8_t>& z, std::uint32_t id) {
  auto u32 = [&](std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, z.data() + at, 4);
    return v;
  };
  std::size_t at = 12;
  for (std::uint32_t i = 0, n = u32(8); i < n; ++i) {
    std::uint64_t size;
    std::memcpy(&size, z.data() + at + 4, 8);
    if (u32(at) == id) return at + 12;
    at += 12 + size;
  }
  ADD_FAILURE() << "no section " << id;
  return 0;
}

TEST(EngineKeyIntegrity, CachedKeyWithAFlippedByteIsRebuiltAtLoad) {
  ScratchDir dir("digest");
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 200)});
  cfg.cache_dir = dir.path().string();
  fs::path key;
  std::vector<std::uint8_t> good;
  {
    Engine e(cfg);  // writes the key and its digest
    key = cached_key(dir.path(), "mul-chain-bn254-constraints=200-");
    ASSERT_TRUE(fs::exists(key.string() + ".sha256"));
    good = bytes_of(key);
  }
  // One byte of the 11th coefficient's value (section 4): the file still parses, the circuit is wrong.
  std::vector<std::uint8_t> bad = good;
  const std::size_t at = section_data(bad, 4) + 4 + 10 * 44 + 12;
  bad[at] ^= 0x01;
  io::write_file_bytes(key, bad);
  {
    Engine e(cfg);
    const ProofResult r = e.prove(native_request("c", 1), 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_EQ(r.attempts, 1);  // detected at load, not after failed proofs
    EXPECT_TRUE(verifies(r, key));
    EXPECT_EQ(bytes_of(key), good);  // rebuilt from the seeded setup
    EXPECT_EQ(e.status().devices[0].failed_verifications, 0u);
  }
  // A key without its digest (a cache from before digests, a torn write) is rebuilt too.
  fs::remove(key.string() + ".sha256");
  {
    Engine e(cfg);
    ASSERT_EQ(e.prove(native_request("c", 2), 60s).state, JobState::kSucceeded);
    EXPECT_TRUE(fs::exists(key.string() + ".sha256"));
    EXPECT_EQ(bytes_of(key), good);
  }
}

TEST(EngineKeyIntegrity, NativeKeyCorruptedInMemoryIsReloadedAndTheJobSucceeds) {
  EngineConfig cfg = small_config({mul_chain("c", "bls12_381", 200)});
  cfg.workers_per_device = 2;
  cfg.fault.corrupt_keys = 1;  // the first load is altered in memory; the file stays sound
  Engine e(cfg);
  const ProofResult r = e.prove(native_request("c", 1), 60s);
  ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
  EXPECT_EQ(r.attempts, 3);  // two proofs that did not verify, then the reloaded key
  EXPECT_TRUE(verifies(r, cached_key(shared_cache_dir(), "mul-chain-bls12_381-constraints=200-")));
  const ProofResult next = e.prove(native_request("c", 2), 60s);
  ASSERT_EQ(next.state, JobState::kSucceeded) << next.error;
  EXPECT_EQ(next.attempts, 1);
  EXPECT_EQ(e.status().failed, 0u);
  expect_only_keys_reserved(e);  // the corrupted copy was freed with its last job
}

ProofRequest wtns_request(const std::string& id, std::uint64_t seed, const std::string& kind) {
  ProofRequest r;
  r.circuit_id = std::string("z");  // not the literal: GCC 12 misreads that assignment here (-Wrestrict)
  r.request_id = id;
  r.wtns = make_wtns("bn254", 64, seed, kind);
  return r;
}

TEST(EngineKeyIntegrity, ZkeyCorruptedInMemoryDoesNotBlameAGoodWitness) {
  ScratchDir dir("suspect");
  const ZkeyFixture fx = make_zkey_fixture(dir.path(), "bn254", 64);
  EngineConfig cfg = small_config({fx.circuit("z")});
  cfg.fault.corrupt_keys = 1;
  Engine e(cfg);
  const ProofResult r = e.prove(wtns_request("good", 3, "good"), 60s);
  ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;  // was: "the witness does not satisfy the circuit"
  EXPECT_EQ(r.attempts, 3);
  EXPECT_TRUE(verifies(r, fx.zkey));
  expect_only_keys_reserved(e);
}

TEST(EngineKeyIntegrity, AnUnsatisfiedWitnessIsStillBlamedOnTheWitness) {
  ScratchDir dir("blame");
  const ZkeyFixture fx = make_zkey_fixture(dir.path(), "bn254", 64);
  Engine e(small_config({fx.circuit("z")}));
  // The first suspicion reloads the key; the proof still fails: the witness is at fault.
  const ProofResult bad = e.prove(wtns_request("bad1", 4, "unsatisfied"), 60s);
  EXPECT_EQ(bad.state, JobState::kFailed);
  EXPECT_EQ(bad.code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad.attempts, 3);
  EXPECT_NE(bad.error.find("the witness does not satisfy the circuit"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("reloaded from " + fx.zkey.string()), std::string::npos) << bad.error;
  // No proof verified since that reload: the next bad witness is not worth another.
  const ProofResult again = e.prove(wtns_request("bad2", 5, "unsatisfied"), 60s);
  EXPECT_EQ(again.code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(again.attempts, 2);
  const ProofResult good = e.prove(wtns_request("good", 6, "good"), 60s);
  ASSERT_EQ(good.state, JobState::kSucceeded) << good.error;
  EXPECT_EQ(good.attempts, 1);
  EXPECT_TRUE(verifies(good, fx.zkey));
  expect_only_keys_reserved(e);
}

}  // namespace
}  // namespace cuzk::engine::test
