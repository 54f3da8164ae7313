// The engine on the CUDA backend (label gpu: run on a CUDA machine). Keys are uploaded to
// the GPUs, VRAM is reserved from the CUDA backend's own estimates, and every proof is
// verified against the key file; an injected fault takes the same path as a real one.
#include <gtest/gtest.h>

#include "support.hpp"

namespace cuzk::engine::test {
namespace {

EngineConfig cuda_config(std::vector<CircuitSpec> circuits) {
  EngineConfig c = small_config(std::move(circuits));
  c.backend = "cuda";
  c.devices = 0;  // every visible GPU
  c.vram_budget_bytes = 0;  // free memory minus 1 GiB
  c.workers_per_device = 2;
  return c;
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
    EXPECT_GT(k.vram_bytes, 0u);
  }
}

TEST(EngineCuda, InjectedFaultIsRetried) {
  EngineConfig cfg = cuda_config({mul_chain("bn", "bn254", 1024)});
  cfg.fault = {0, 1};
  Engine e(cfg);
  const ProofResult r = e.prove(native_request("bn", 1), 120s);
  ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
  EXPECT_EQ(r.attempts, 2);
  EXPECT_TRUE(verifies(r, cached_key(shared_cache_dir(), "mul-chain-bn254-constraints=1024-")));
}

}  // namespace
}  // namespace cuzk::engine::test
