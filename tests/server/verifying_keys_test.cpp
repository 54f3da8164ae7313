// GetVerifyingKey's cache (VerifyingKeys) follows the key file: after a .zkey is replaced on
// disk (renamed over, as a deployment does) and its key evicted, the daemon proves with the new
// key and must serve the new verifying key, not the one it read first.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "cuzk/engine/engine.hpp"
#include "verifying_keys.hpp"
#include "support/scratch_dir.hpp"

namespace cuzk::server {
namespace {

namespace fs = std::filesystem;


engine::EngineConfig config(const fs::path& cache, std::vector<engine::CircuitSpec> circuits) {
  engine::EngineConfig c;
  c.workers_per_device = 1;
  c.synthesis_concurrency = 1;
  c.host_budget_bytes = 1ull << 30;
  c.vram_budget_bytes = 1ull << 30;
  c.cache_dir = cache.string();
  c.circuits = std::move(circuits);
  return c;
}

// Two valid keys of one circuit (TEST setups with seeds 1 and 2), as the engine caches them.
std::pair<fs::path, fs::path> two_keys(const fs::path& cache) {
  std::vector<engine::CircuitSpec> specs;
  for (std::uint64_t seed : {1, 2}) {
    engine::CircuitSpec s;
    s.id = "k";  // appended: "k" + std::to_string(seed) trips GCC 12's -Wrestrict (a false positive)
    s.id += std::to_string(seed);
    s.native = "mul-chain";
    s.curve = r1cs::Curve::bn254;
    s.params = {{"constraints", 64}};
    s.setup_seed = seed;
    specs.push_back(s);
  }
  engine::Engine e(config(cache, specs));
  return {*e.key_file("k1"), *e.key_file("k2")};
}

TEST(VerifyingKeys, ServesTheKeyOfTheFileOnDiskAfterItIsReplaced) {
  const cuzk::test::ScratchDir dir("vk-test");
  const auto [first, second] = two_keys(dir.path() / "cache");
  const fs::path zkey = dir.path() / "circuit.zkey";
  fs::copy_file(first, zkey);
  engine::CircuitSpec z;
  z.id = "z";
  z.zkey_path = zkey.string();
  engine::Engine e(config(dir.path() / "cache", {z}));
  VerifyingKeys vks(e);

  VerifyingKeyJson vk;
  std::string error;
  ASSERT_EQ(vks.get("z", &vk, &error), engine::ErrorCode::kOk) << error;
  EXPECT_EQ(vk.json, read_zkey_verifying_key(first).json);
  EXPECT_EQ(vk.curve, "bn254");
  ASSERT_NE(read_zkey_verifying_key(first).json, read_zkey_verifying_key(second).json);

  // Replaced by rename (a new inode), then evicted: the next load proves with the new key.
  fs::copy_file(second, dir.path() / "circuit.zkey.new");
  fs::rename(dir.path() / "circuit.zkey.new", zkey);
  ASSERT_EQ(e.evict("z", &error), engine::ErrorCode::kOk) << error;
  ASSERT_EQ(vks.get("z", &vk, &error), engine::ErrorCode::kOk) << error;
  EXPECT_EQ(vk.json, read_zkey_verifying_key(second).json);

  // Unchanged since: served from the cache (the same answer).
  VerifyingKeyJson again;
  ASSERT_EQ(vks.get("z", &again, &error), engine::ErrorCode::kOk) << error;
  EXPECT_EQ(again.json, vk.json);

  // A file that disappears is an error naming it, not the old key.
  fs::remove(zkey);
  error.clear();
  EXPECT_EQ(vks.get("z", &vk, &error), engine::ErrorCode::kInternal);
  EXPECT_NE(error.find(zkey.string()), std::string::npos) << error;
}

}  // namespace
}  // namespace cuzk::server
