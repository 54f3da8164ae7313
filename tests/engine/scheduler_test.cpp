// Scheduling: priorities, FIFO within a priority, batching, several simulated devices with
// key affinity, and the pipeline keeping every worker fed.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "support.hpp"

namespace cuzk::engine::test {
namespace {

// Big enough that a proof takes tens of milliseconds, so the order of completion is the
// order the single worker took them in.
constexpr std::uint64_t kSlow = 4096;

std::vector<std::string> submit_many(Engine& e, const std::string& circuit, int n, Priority p, const std::string& tag) {
  std::vector<std::string> ids;
  for (int i = 0; i < n; ++i) {
    ProofRequest r = native_request(circuit, 100 + i, tag + std::to_string(i));
    r.priority = p;
    const SubmitOutcome s = e.submit(r);
    EXPECT_EQ(s.code, ErrorCode::kOk) << s.error;
    ids.push_back(s.request_id);
  }
  return ids;
}

TEST(EngineScheduler, CriticalOvertakesQueuedLows) {
  Engine e(small_config({mul_chain("c", "bn254", kSlow)}));
  std::vector<std::string> lows = submit_many(e, "c", 6, Priority::kLow, "low-");
  wait_until_proving(e, lows[0]);
  ProofRequest crit = native_request("c", 7, "crit");
  crit.priority = Priority::kCritical;
  ASSERT_EQ(e.submit(crit).code, ErrorCode::kOk);
  std::vector<std::string> all = lows;
  all.push_back("crit");
  FinishOrder order(e, all);
  const auto done = order.wait(120s);
  ASSERT_EQ(done.size(), all.size());
  const auto pos = std::find(done.begin(), done.end(), "crit") - done.begin();
  // One worker, pipeline depth 1: at most the low being proved and the one already
  // synthesized for the device finish first; the queued lows all finish after it.
  EXPECT_LE(pos, 2) << "critical finished at position " << pos;
  for (const auto& id : all) EXPECT_EQ(e.peek(id).state, JobState::kSucceeded) << id;
  EXPECT_EQ(e.peek("crit").priority, Priority::kCritical);
}

TEST(EngineScheduler, FifoWithinAPriorityAndPriorityOrderOfQueued) {
  Engine e(small_config({mul_chain("c", "bn254", kSlow)}));
  // Occupy the worker, then queue normals and highs interleaved.
  const auto first = submit_many(e, "c", 1, Priority::kLow, "first-");
  wait_until_proving(e, first[0]);
  std::vector<std::string> normals, highs;
  for (int i = 0; i < 3; ++i) {
    normals.push_back(submit_many(e, "c", 1, Priority::kNormal, numbered("n", i, "-"))[0]);
    highs.push_back(submit_many(e, "c", 1, Priority::kHigh, numbered("h", i, "-"))[0]);
  }
  std::vector<std::string> all = first;
  all.insert(all.end(), normals.begin(), normals.end());
  all.insert(all.end(), highs.begin(), highs.end());
  FinishOrder order(e, all);
  const auto done = order.wait(120s);
  ASSERT_EQ(done.size(), all.size());
  auto at = [&](const std::string& id) { return std::find(done.begin(), done.end(), id) - done.begin(); };
  // FIFO within each priority.
  for (int i = 0; i + 1 < 3; ++i) {
    EXPECT_LT(at(normals[i]), at(normals[i + 1]));
    EXPECT_LT(at(highs[i]), at(highs[i + 1]));
  }
  // n0 may have entered the pipeline before any high arrived; every later normal waits for all highs.
  for (int i = 1; i < 3; ++i)
    for (const auto& h : highs) EXPECT_LT(at(h), at(normals[i])) << h << " vs " << normals[i];
}

TEST(EngineScheduler, BatchesJobsOfOneCircuitOnOneWorker) {
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 256), mul_chain("d", "bn254", 128)});
  cfg.max_batch_size = 3;
  cfg.max_batch_wait_ms = 300;
  cfg.workers_per_device = 2;
  Engine e(cfg);
  const auto ids = submit_many(e, "c", 3, Priority::kNormal, "b-");
  std::set<int> workers;
  for (const auto& id : ids) {
    const auto r = e.await(id, 60s);
    ASSERT_TRUE(r.has_value());
    ASSERT_EQ(r->state, JobState::kSucceeded) << r->error;
    EXPECT_EQ(r->batch_size, 3u);
    workers.insert(r->worker);
  }
  EXPECT_EQ(workers.size(), 1u);  // one worker proved the batch back to back
  // A lone job is flushed by the timeout as a batch of one.
  const auto t0 = std::chrono::steady_clock::now();
  const ProofResult lone = e.prove(native_request("d", 1), 60s);
  EXPECT_EQ(lone.batch_size, 1u);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 300ms);
  // A higher-priority arrival flushes a partial batch at once.
  ProofRequest low = native_request("c", 50, "partial");
  low.priority = Priority::kLow;
  ASSERT_EQ(e.submit(low).code, ErrorCode::kOk);
  std::this_thread::sleep_for(20ms);
  ProofRequest crit = native_request("d", 51, "urgent");
  crit.priority = Priority::kCritical;
  ASSERT_EQ(e.submit(crit).code, ErrorCode::kOk);
  const auto p = e.await("partial", 60s);
  const auto u = e.await("urgent", 60s);
  ASSERT_TRUE(p && u);
  EXPECT_EQ(p->batch_size, 1u);
  EXPECT_EQ(u->state, JobState::kSucceeded);
  EXPECT_LT(timing(*p, "queue_wait"), 250) << "the partial batch waited for its timeout";
}

TEST(EngineScheduler, SeveralDevicesWithKeyAffinity) {
  EngineConfig cfg = small_config({mul_chain("a", "bn254", 1024), mul_chain("b", "bls12_381", 256)});
  cfg.devices = 2;
  cfg.pipeline_depth = 1;
  Engine e(cfg);
  // Sequential proofs of one circuit stay on the device that holds its key.
  const ProofResult a0 = e.prove(native_request("a", 1), 60s);
  ASSERT_EQ(a0.state, JobState::kSucceeded) << a0.error;
  for (int i = 0; i < 3; ++i) {
    const ProofResult r = e.prove(native_request("a", 2 + i), 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_EQ(r.device, a0.device);
    EXPECT_EQ(timing(r, "key_load"), 0.0) << "key already resident";
  }
  const ProofResult b0 = e.prove(native_request("b", 1), 60s);
  ASSERT_EQ(b0.state, JobState::kSucceeded) << b0.error;
  // A burst spills over to both devices (backpressure: one waiting batch per device).
  const auto ids = submit_many(e, "a", 6, Priority::kNormal, "burst-");
  std::set<int> devices;
  for (const auto& id : ids) {
    const auto r = e.await(id, 60s);
    ASSERT_TRUE(r && r->state == JobState::kSucceeded);
    devices.insert(r->device);
    EXPECT_TRUE(verifies(*r, cached_key(shared_cache_dir(), "mul-chain-bn254-constraints=1024-")));
  }
  EXPECT_EQ(devices, (std::set<int>{0, 1}));
  const StatusSnapshot s = e.status();
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[0].name, "cpu-sim-0");
  EXPECT_EQ(s.devices[0].proofs + s.devices[1].proofs, 11u);
  for (const auto& k : s.keys) {
    if (k.circuit_id == "a") {
      EXPECT_EQ(k.devices.size(), 2u);
    }
  }
}

TEST(EngineScheduler, SynthesisOverlapsProving) {
  EngineConfig cfg = small_config({mul_chain("c", "bn254", kSlow)});
  cfg.pipeline_depth = 2;
  Engine e(cfg);
  const auto ids = submit_many(e, "c", 4, Priority::kNormal, "p-");
  // While the first proves, the next ones are synthesized and wait for the device.
  bool overlapped = false;
  const auto end = std::chrono::steady_clock::now() + 60s;
  while (!is_final(e.peek(ids.back()).state) && std::chrono::steady_clock::now() < end) {
    const StatusSnapshot s = e.status();
    overlapped = overlapped || (s.proving == 1 && s.waiting_device >= 1);
    // Backpressure: pipeline_depth jobs ahead of the device, plus the one its worker holds.
    EXPECT_LE(s.waiting_device + s.synthesizing + s.proving, 3u);
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_TRUE(overlapped);
  for (const auto& id : ids) EXPECT_EQ(e.await(id, 60s)->state, JobState::kSucceeded);
}

}  // namespace
}  // namespace cuzk::engine::test
