// Device faults (through the FaultInjection hook, which throws the CUDA error type from
// inside the device backend, or returns a wrong proof): retried once on another worker or
// device, then kFailed with the reason, and the engine keeps serving. Also the Prometheus metrics.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "support.hpp"

namespace cuzk::engine::test {
namespace {

// Two devices, `f` spoiling the first proof on device 0: the job succeeds on device 1 (its
// second attempt), and device 0 serves the next job at once.
void expect_retried_on_device_1(FaultInjection f) {
  EngineConfig cfg = small_config({mul_chain("c", "bls12_381", 200)});
  cfg.devices = 2;
  cfg.fault = f;
  Engine e(cfg);
  const ProofResult r = e.prove(native_request("c", 1), 60s);
  ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
  EXPECT_EQ(r.attempts, 2);
  EXPECT_EQ(r.device, 1);
  EXPECT_TRUE(verifies(r, cached_key(shared_cache_dir(), "mul-chain-bls12_381-constraints=200-")));
  const ProofResult next = e.prove(native_request("c", 2), 60s);
  EXPECT_EQ(next.state, JobState::kSucceeded);
  EXPECT_EQ(next.attempts, 1);
  EXPECT_EQ(e.status().failed, 0u);
}

TEST(EngineFaults, FaultRetriedOnAnotherDevice) { expect_retried_on_device_1({.device = 0, .failures = 1}); }

TEST(EngineFaults, FaultRetriedOnAnotherWorkerOfTheOnlyDevice) {
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 200)});
  cfg.workers_per_device = 2;
  cfg.fault = {0, 1};
  Engine e(cfg);
  const ProofResult r = e.prove(native_request("c", 1), 60s);
  ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
  EXPECT_EQ(r.attempts, 2);
  EXPECT_EQ(r.device, 0);
}

TEST(EngineFaults, FailuresBeyondTheRetryFailTheJobAndTheNextSucceeds) {
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 200)});
  cfg.workers_per_device = 2;
  cfg.fault = {0, 2};  // the first attempt and its retry both fault
  Engine e(cfg);
  const ProofResult bad = e.prove(native_request("c", 1), 60s);
  EXPECT_EQ(bad.state, JobState::kFailed);
  EXPECT_EQ(bad.code, ErrorCode::kInternal);
  EXPECT_EQ(bad.attempts, 2);
  EXPECT_NE(bad.error.find("device fault"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("injected"), std::string::npos) << bad.error;
  EXPECT_TRUE(bad.proof_json.empty());
  const ProofResult good = e.prove(native_request("c", 2), 60s);
  ASSERT_EQ(good.state, JobState::kSucceeded) << good.error;
  EXPECT_EQ(good.attempts, 1);
  EXPECT_TRUE(verifies(good, cached_key(shared_cache_dir(), "mul-chain-bn254-constraints=200-")));
  const StatusSnapshot s = e.status();
  EXPECT_EQ(s.failed, 1u);
  EXPECT_EQ(s.succeeded, 1u);
  EXPECT_EQ(s.budgets[0].reserved, s.keys[0].host_bytes);  // the failed job released its memory
  EXPECT_EQ(s.devices[0].device_faults, 2u);
  EXPECT_EQ(s.devices[0].failed_verifications, 0u);
}

// Silent faults: a proof that comes back wrong without a CUDA error is caught by
// verification and proved again (after a second failure with its key reloaded); a native
// circuit's proof failing three times is the prover's fault (kInternal), never the caller's.
TEST(EngineFaults, WrongProofProvedAgainOnAnotherDevice) {
  expect_retried_on_device_1({.device = 0, .wrong_proofs = 1});
}

TEST(EngineFaults, NativeProofWrongTwiceIsInternalAndTheNextSucceeds) {
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 200)});
  cfg.workers_per_device = 2;
  cfg.fault.device = 0;
  cfg.fault.wrong_proofs = 3;  // the first attempt, its retry and the one with the key reloaded
  Engine e(cfg);
  const ProofResult bad = e.prove(native_request("c", 1), 60s);
  EXPECT_EQ(bad.state, JobState::kFailed);
  EXPECT_EQ(bad.code, ErrorCode::kInternal);
  EXPECT_EQ(bad.attempts, 3);
  EXPECT_NE(bad.error.find("does not verify, though the engine synthesized its witness"), std::string::npos)
      << bad.error;
  EXPECT_TRUE(bad.proof_json.empty());
  const ProofResult good = e.prove(native_request("c", 2), 60s);
  ASSERT_EQ(good.state, JobState::kSucceeded) << good.error;
  EXPECT_EQ(good.attempts, 1);
  EXPECT_EQ(e.status().devices[0].failed_verifications, 3u);  // an operator sees the faulty device
  EXPECT_EQ(e.status().devices[0].device_faults, 0u);
  const std::string text = e.metrics_text();
  EXPECT_NE(text.find("cuzk_device_failed_attempts_total{device=\"0\",reason=\"not_verified\"} 3\n"), std::string::npos)
      << text;
}

TEST(EngineFaults, GoodWitnessWithAWrongProofSucceedsOnTheRetry) {
  ScratchDir dir("wrong");
  const ZkeyFixture fx = make_zkey_fixture(dir.path(), "bn254", 64);
  EngineConfig cfg = small_config({fx.circuit("z")});
  cfg.fault.device = 0;
  cfg.fault.wrong_proofs = 1;
  Engine e(cfg);
  ProofRequest r;
  r.circuit_id = "z";
  r.wtns = make_wtns("bn254", 64, 3);
  const ProofResult res = e.prove(r, 60s);
  ASSERT_EQ(res.state, JobState::kSucceeded) << res.error;  // not blamed on the witness
  EXPECT_EQ(res.attempts, 2);
  EXPECT_TRUE(verifies(res, fx.zkey));
}

TEST(EngineMetrics, PrometheusTextCountsPhasesAndMemory) {
  ScratchDir dir("metrics");
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 200)});
  cfg.devices = 2;
  Engine e(cfg);
  ASSERT_EQ(e.prove(native_request("c", 1), 60s).state, JobState::kSucceeded);
  ASSERT_EQ(e.prove(native_request("c", 2), 60s).state, JobState::kSucceeded);
  ProofRequest bad;
  bad.circuit_id = "c";  // no seed: refused at submit, never counted as a proof
  ASSERT_NE(e.submit(bad).code, ErrorCode::kOk);
  ASSERT_EQ(e.submit(native_request("c", 3, "x")).code, ErrorCode::kOk);
  e.cancel("x");
  e.await("x", 60s);
  const std::string text = e.metrics_text();
  auto has = [&](const std::string& line) { EXPECT_NE(text.find(line + "\n"), std::string::npos) << line << "\n" << text; };
  has("cuzk_proofs_total{kind=\"groth16\",state=\"succeeded\"} 2");
  has("cuzk_phase_duration_seconds_count{phase=\"msm_a\"} 2");
  has("cuzk_phase_duration_seconds_bucket{phase=\"total\",le=\"+Inf\"} 2");
  has("cuzk_queue_depth{priority=\"critical\"} 0");
  has("cuzk_rejected_total{code=\"invalid_argument\"} 1");
  has("cuzk_memory_budget_bytes{pool=\"host\"} " + std::to_string(cfg.host_budget_bytes));
  has("cuzk_memory_budget_bytes{pool=\"vram\",device=\"1\"} " + std::to_string(cfg.vram_budget_bytes));
  has("cuzk_keys_resident{tier=\"vram\"} 1");
  has("cuzk_device_failed_attempts_total{device=\"1\",reason=\"device_fault\"} 0");
  has("# TYPE cuzk_phase_duration_seconds histogram");
  EXPECT_NE(text.find("state=\"cancelled\"} 1"), std::string::npos) << text;
  // Every sample line is "name{labels} value"; histogram buckets are cumulative.
  const std::regex sample(R"(^[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.e+-]+$)");
  std::istringstream in(text);
  std::string line;
  std::map<std::string, double> last_bucket;
  while (std::getline(in, line)) {
    if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) continue;
    EXPECT_TRUE(std::regex_match(line, sample)) << line;
    if (line.starts_with("cuzk_phase_duration_seconds_bucket")) {
      const std::string phase = line.substr(0, line.find(",le="));
      const double v = std::stod(line.substr(line.rfind(' ') + 1));
      EXPECT_GE(v, last_bucket[phase]) << line;
      last_bucket[phase] = v;
    }
  }
}

}  // namespace
}  // namespace cuzk::engine::test
