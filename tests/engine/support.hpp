// Shared helpers of the engine tests: configs over small native circuits, snarkjs-style
// .zkey/.wtns fixtures, proof verification against the key file (compiled once in
// support.cpp so the test files stay light), and an observer of completion order.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/engine/engine.hpp"
#include "support/scratch_dir.hpp"

namespace cuzk::engine::test {

using namespace std::chrono_literals;

using cuzk::test::ScratchDir;  // tests/support: a test's scratch directory

// Keys shared by the tests of one process (one build of each test key).
const std::filesystem::path& shared_cache_dir();

CircuitSpec mul_chain(const std::string& id, const std::string& curve, std::uint64_t constraints);
// A config with the cpu backend, one device, one worker, no batching wait and the given circuits.
EngineConfig small_config(std::vector<CircuitSpec> circuits);
ProofRequest native_request(const std::string& circuit, std::uint64_t seed, const std::string& id = "");
// prefix + i + suffix (request ids "j0", "n1-"; built by appends: `"j" + std::to_string(i)`
// trips GCC 12's -Wrestrict, a false positive).
inline std::string numbered(const char* prefix, int i, const char* suffix = "") {
  std::string s = prefix;
  s += std::to_string(i);
  s += suffix;
  return s;
}

// True when proof_json/public_json of `r` verify against the verifying key in `zkey_path`
// (its curve from the key header), and the bellperson bytes (BLS12-381) decode to the same proof.
bool verifies(const ProofResult& r, const std::filesystem::path& zkey_path);
// The .zkey a native circuit's key is cached in (the only .zkey in `dir` whose name starts with `prefix`).
std::filesystem::path cached_key(const std::filesystem::path& dir, const std::string& prefix);

// A snarkjs-style fixture: a mul-chain key written as .zkey and witnesses as .wtns bytes.
struct ZkeyFixture {
  std::filesystem::path zkey;
  std::uint64_t num_vars = 0;
  CircuitSpec circuit(const std::string& id) const {  // a .zkey circuit served from this key
    CircuitSpec s;
    s.id = id;
    s.zkey_path = zkey.string();
    return s;
  }
};
ZkeyFixture make_zkey_fixture(const std::filesystem::path& dir, const std::string& curve, std::uint64_t constraints);
// The .wtns bytes, as ProofRequest::wtns holds them. kind: "good", "unsatisfied" (one wire changed),
// "short" (one value missing), "bad_one" (w[0] = 2).
std::string make_wtns(const std::string& curve, std::uint64_t constraints, std::uint64_t seed,
                      const std::string& kind = "good");

double timing(const ProofResult& r, const std::string& phase);  // -1 when absent

// A bellperson .params at `params` for a circuit of these counts (ic, h, l; no a or b points) whose
// points are holes (a sparse file, nothing written: tens of GB long for 32 GiB), and an empty
// .vk at `vk`: enough for the engine to serve a Filecoin circuit until a key load is attempted.
void write_hole_key(const std::filesystem::path& params, const std::filesystem::path& vk, std::uint64_t public_inputs,
                    std::uint64_t constraints, std::uint64_t vars);
// Polls until the job is proving on a device (or final; at most 60 s).
void wait_until_proving(const Engine& e, const std::string& id);

// The status of one key (a test failure when absent).
KeyStatus key_of(const StatusSnapshot& s, const std::string& id);
// Host, pinned and VRAM reservations equal to what the resident keys account for: no job holds any.
void expect_only_keys_reserved(const Engine& e);

// Polls the engine and records the order in which the given requests became final.
class FinishOrder {
 public:
  FinishOrder(const Engine& e, std::vector<std::string> ids);
  ~FinishOrder();
  std::vector<std::string> wait(std::chrono::milliseconds timeout);

 private:
  void run();
  const Engine& e_;
  std::vector<std::string> ids_;
  std::mutex m_;
  std::vector<std::string> order_;
  bool stop_ = false;
  std::thread t_;
};

}  // namespace cuzk::engine::test
