// Batches (max_batch_size > 1) proved together (Circuit::prove_batch; on the cpu backend
// CurveDevice's default, one proof after the other; the cuda backend shares each streamed point
// chunk, engine_cuda_test): every job gets its own verified proof and result; a job whose witness
// does not satisfy the circuit fails alone inside its batch (after one more proof alone), as a
// wrong proof is proved again alone; a device fault during a batch retries each of its jobs; a
// job cancelled in a batch, before or while it proves, ends cancelled while the others succeed
// in it; a batch whose jobs are all cancelled stops.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support.hpp"

namespace cuzk::engine::test {
namespace {

EngineConfig batching(std::vector<CircuitSpec> circuits) {
  EngineConfig cfg = small_config(std::move(circuits));
  cfg.max_batch_size = 3;
  cfg.max_batch_wait_ms = 2000;  // the three jobs are submitted at once: one batch
  return cfg;
}

std::vector<std::string> submit_three(Engine& e, const std::string& circuit, const std::string& tag) {
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    const SubmitOutcome s = e.submit(native_request(circuit, 40 + i, numbered(tag.c_str(), i)));
    EXPECT_EQ(s.code, ErrorCode::kOk) << s.error;
    ids.push_back(s.request_id);
  }
  return ids;
}

TEST(EngineBatch, UnsatisfiedWitnessFailsAloneInItsBatch) {
  ScratchDir dir("batch");
  const ZkeyFixture fx = make_zkey_fixture(dir.path(), "bn254", 64);
  const CircuitSpec spec = fx.circuit("z");
  Engine e(batching({spec}));
  const std::vector<std::string> kinds{"good", "unsatisfied", "good"};
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    ProofRequest r;
    r.circuit_id = "z";
    r.request_id = numbered("z-", static_cast<int>(i));
    r.wtns = make_wtns("bn254", 64, 7 + i, kinds[i]);
    ASSERT_EQ(e.submit(r).code, ErrorCode::kOk);
    ids.push_back(r.request_id);
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto r = e.await(ids[i], 60s);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->batch_size, 3u) << ids[i];
    // A failed proof is proved again, then with its key reloaded (key_integrity_test).
    EXPECT_EQ(r->attempts, kinds[i] == "good" ? 1 : 3) << ids[i];
    if (kinds[i] == "good") {
      ASSERT_EQ(r->state, JobState::kSucceeded) << r->error;
      EXPECT_TRUE(verifies(*r, fx.zkey)) << ids[i];
      EXPECT_GT(timing(*r, "verify"), 0.0);
      EXPECT_GT(timing(*r, "assemble"), 0.0);
    } else {
      EXPECT_EQ(r->state, JobState::kFailed);
      EXPECT_EQ(r->code, ErrorCode::kInvalidArgument);
      EXPECT_NE(r->error.find("does not verify"), std::string::npos) << r->error;
      EXPECT_TRUE(r->proof_json.empty());
    }
  }
  expect_only_keys_reserved(e);
}

TEST(EngineBatch, WrongProofInABatchIsProvedAgainAlone) {
  EngineConfig cfg = batching({mul_chain("c", "bls12_381", 200)});
  cfg.workers_per_device = 2;
  cfg.fault.device = 0;
  cfg.fault.wrong_proofs = 1;  // the batch's first proof comes back wrong (a silent fault)
  Engine e(cfg);
  int retried = 0;
  for (const auto& id : submit_three(e, "c", "w-")) {
    const auto r = e.await(id, 60s);
    ASSERT_TRUE(r.has_value());
    ASSERT_EQ(r->state, JobState::kSucceeded) << r->error;
    EXPECT_TRUE(verifies(*r, cached_key(shared_cache_dir(), "mul-chain-bls12_381-constraints=200-"))) << id;
    retried += r->attempts == 2 ? 1 : 0;
    EXPECT_LE(r->attempts, 2) << id;
  }
  EXPECT_EQ(retried, 1);  // only the job whose proof was wrong
  EXPECT_EQ(e.status().failed, 0u);
}

TEST(EngineBatch, DeviceFaultInABatchRetriesEachJob) {
  EngineConfig cfg = batching({mul_chain("c", "bn254", 200)});
  cfg.workers_per_device = 2;
  cfg.fault = {0, 1};  // the batch's first proof faults: the whole batch was the jobs' first attempt
  Engine e(cfg);
  for (const auto& id : submit_three(e, "c", "f-")) {
    const auto r = e.await(id, 60s);
    ASSERT_TRUE(r.has_value());
    ASSERT_EQ(r->state, JobState::kSucceeded) << r->error;
    EXPECT_EQ(r->attempts, 2) << id;
    EXPECT_TRUE(verifies(*r, cached_key(shared_cache_dir(), "mul-chain-bn254-constraints=200-")));
  }
  EXPECT_EQ(e.status().failed, 0u);
  expect_only_keys_reserved(e);
}

TEST(EngineBatch, CancelledJobEndsAloneAndTheOthersSucceed) {
  Engine e(batching({mul_chain("c", "bls12_381", 4000)}));
  const auto ids = submit_three(e, "c", "k-");
  ASSERT_EQ(e.cancel(ids[1]), ErrorCode::kOk);  // while its batch synthesizes or proves
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto r = e.await(ids[i], 60s);
    ASSERT_TRUE(r.has_value());
    if (i == 1) {
      EXPECT_EQ(r->state, JobState::kCancelled);
      EXPECT_TRUE(r->proof_json.empty());
    } else {
      ASSERT_EQ(r->state, JobState::kSucceeded) << r->error;
      EXPECT_EQ(r->attempts, 1);  // a batch given up for the cancel is not an attempt
      EXPECT_TRUE(verifies(*r, cached_key(shared_cache_dir(), "mul-chain-bls12_381-constraints=4000-")));
    }
  }
  expect_only_keys_reserved(e);
}

// The cancel lands while the batch proves (its jobs are kProving together; on the cpu backend
// the batch is proving its first job): the batch goes on, its other jobs finish in it (one
// attempt each, nothing proved twice), and the cancelled job ends cancelled once it is done.
TEST(EngineBatch, CancelDuringTheBatchLetsTheOthersFinishInIt) {
  Engine e(batching({mul_chain("c", "bls12_381", 4000)}));
  const auto ids = submit_three(e, "c", "m-");
  wait_until_proving(e, ids[1]);
  ASSERT_EQ(e.cancel(ids[1]), ErrorCode::kOk);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto r = e.await(ids[i], 60s);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->batch_size, 3u) << ids[i];
    EXPECT_EQ(r->attempts, 1) << ids[i];  // the batch was every job's attempt, the cancelled one's too
    if (i == 1) {
      EXPECT_EQ(r->state, JobState::kCancelled);
      EXPECT_NE(r->error.find("its batch"), std::string::npos) << r->error;
      EXPECT_TRUE(r->proof_json.empty());
      continue;
    }
    ASSERT_EQ(r->state, JobState::kSucceeded) << r->error;
    EXPECT_TRUE(verifies(*r, cached_key(shared_cache_dir(), "mul-chain-bls12_381-constraints=4000-")));
  }
  EXPECT_EQ(e.status().devices[0].proofs, 2u);
  expect_only_keys_reserved(e);
}

// Every job of a running batch cancelled: the batch stops at its next phase boundary.
TEST(EngineBatch, CancellingEveryJobOfABatchStopsIt) {
  Engine e(batching({mul_chain("c", "bls12_381", 4000)}));
  const auto ids = submit_three(e, "c", "a-");
  wait_until_proving(e, ids[0]);
  for (const auto& id : ids) ASSERT_EQ(e.cancel(id), ErrorCode::kOk);
  for (const auto& id : ids) {
    const auto r = e.await(id, 60s);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->state, JobState::kCancelled) << id;
  }
  EXPECT_EQ(e.status().devices[0].proofs, 0u);
  expect_only_keys_reserved(e);
}

}  // namespace
}  // namespace cuzk::engine::test
