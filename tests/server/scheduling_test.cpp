// Scheduling through the daemon over real gRPC: priorities with one worker, cancellation of
// queued and running jobs, eviction against refcounts, a VRAM budget smaller than the
// workers' needs (jobs wait, none fails), and a restart on the same key cache.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "test_daemon.hpp"

namespace cuzk::server::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;


bool is_running(pb::JobState s) {
  return s == pb::JOB_STATE_SYNTHESIZING || s == pb::JOB_STATE_WAITING_DEVICE || s == pb::JOB_STATE_PROVING;
}

DaemonConfig one_worker(const std::filesystem::path& dir) {
  DaemonConfig cfg = test_config(dir, 1);
  cfg.engine.max_batch_size = 1;
  cfg.engine.pipeline_depth = 1;
  cfg.engine.synthesis_concurrency = 1;
  return cfg;
}

TEST(Scheduling, CriticalOvertakesQueuedLows) {
  ScratchDir dir("sched-prio");
  Running d = start(one_worker(dir.path()));
  std::string blocker;
  ASSERT_TRUE(submit(*d.tcp, native_request("slow", 1, pb::PRIORITY_LOW), &blocker).ok());
  ASSERT_TRUE(is_running(wait_running(*d.tcp, blocker, 30s)));
  std::vector<std::string> lows(4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(submit(*d.tcp, native_request("fast", 10 + i, pb::PRIORITY_LOW), &lows[i]).ok());
  std::vector<std::string> queued_lows;  // still queued when the CRITICAL arrives
  for (const auto& id : lows)
    if (await(*d.tcp, id, 0ms).result().state() == pb::JOB_STATE_QUEUED) queued_lows.push_back(id);
  std::string critical;
  ASSERT_TRUE(submit(*d.tcp, native_request("fast", 99, pb::PRIORITY_CRITICAL), &critical).ok());
  ASSERT_GE(queued_lows.size(), 2u) << "the pipeline took too many LOW jobs for the test to mean anything";

  std::vector<std::string> all = lows;
  all.push_back(critical);
  all.push_back(blocker);
  std::map<std::string, Clock::time_point> finished;
  std::mutex mu;
  std::vector<std::thread> waiters;
  for (const auto& id : all)
    waiters.emplace_back([&, id] {
      const auto r = await(*d.tcp, id, 120s);
      const auto at = Clock::now();
      EXPECT_TRUE(proof_ok(*d.tcp, r));
      std::lock_guard lock(mu);
      finished[id] = at;
    });
  for (auto& w : waiters) w.join();
  ASSERT_EQ(finished.size(), all.size());
  for (const auto& id : queued_lows) EXPECT_LT(finished[critical], finished[id]) << "CRITICAL finished after LOW " << id;
}

TEST(Scheduling, CancelQueuedAndRunning) {
  ScratchDir dir("sched-cancel");
  Running d = start(one_worker(dir.path()));
  std::string running, queued;
  ASSERT_TRUE(submit(*d.tcp, native_request("slow", 2), &running).ok());
  ASSERT_TRUE(is_running(wait_running(*d.tcp, running, 30s)));
  ASSERT_TRUE(submit(*d.tcp, native_request("slow", 3), &queued).ok());
  ASSERT_TRUE(submit(*d.tcp, native_request("fast", 4)).ok());  // keeps `queued` out of the pipeline's one slot
  pb::CancelProofRequest req;
  pb::CancelProofResponse resp;
  req.set_request_id(queued);
  ASSERT_TRUE(d.tcp->stub().CancelProof(d.tcp->context(10s).get(), req, &resp).ok());
  auto q = await(*d.tcp, queued, 10s);
  ASSERT_TRUE(q.done());
  EXPECT_EQ(q.result().state(), pb::JOB_STATE_CANCELLED);
  EXPECT_EQ(q.result().code(), pb::ERROR_CODE_CANCELLED);

  const auto t0 = Clock::now();
  req.set_request_id(running);
  ASSERT_TRUE(d.tcp->stub().CancelProof(d.tcp->context(10s).get(), req, &resp).ok());
  auto r = await(*d.tcp, running, 60s);
  ASSERT_TRUE(r.done());
  EXPECT_EQ(r.result().state(), pb::JOB_STATE_CANCELLED);
  EXPECT_TRUE(r.result().proof_json().empty());
  EXPECT_LT(Clock::now() - t0, 30s);

  EXPECT_EQ(d.tcp->stub().CancelProof(d.tcp->context(10s).get(), req, &resp).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  req.set_request_id("nope");
  EXPECT_EQ(d.tcp->stub().CancelProof(d.tcp->context(10s).get(), req, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(proof_ok(*d.tcp, prove(*d.tcp, native_request("fast", 5))));
  EXPECT_EQ(status(*d.tcp).cancelled(), 2u);
}

const pb::KeyStatus* key_of(const pb::GetStatusResponse& s, const std::string& id) {
  for (const auto& k : s.keys())
    if (k.circuit_id() == id) return &k;
  return nullptr;
}

TEST(Scheduling, EvictRefusedWhileInUseDoneAtRefcountZero) {
  ScratchDir dir("sched-evict");
  Running d = start(one_worker(dir.path()));
  pb::PreloadSRSRequest pre;
  pre.set_circuit_id("slow");
  pb::PreloadSRSResponse pre_resp;
  ASSERT_TRUE(d.tcp->stub().PreloadSRS(d.tcp->context(120s).get(), pre, &pre_resp).ok());
  EXPECT_NE(pre_resp.key().tier(), "disk");
  EXPECT_GT(pre_resp.key().host_bytes() + pre_resp.key().vram_bytes(), 0u);

  std::string id;
  ASSERT_TRUE(submit(*d.tcp, native_request("slow", 6), &id).ok());
  // Wait until the job holds the key.
  const auto until = Clock::now() + 30s;
  while (Clock::now() < until && (!key_of(status(*d.tcp), "slow") || key_of(status(*d.tcp), "slow")->refcount() == 0))
    std::this_thread::sleep_for(5ms);
  pb::GetStatusResponse s = status(*d.tcp);
  ASSERT_TRUE(key_of(s, "slow"));
  ASSERT_GE(key_of(s, "slow")->refcount(), 1);
  EXPECT_EQ(key_of(s, "slow")->layout(), "resident");  // preloaded onto the (simulated) device whole
  pb::EvictSRSRequest ev;
  ev.set_circuit_id("slow");
  pb::EvictSRSResponse ev_resp;
  const grpc::Status busy = d.tcp->stub().EvictSRS(d.tcp->context(10s).get(), ev, &ev_resp);
  EXPECT_EQ(busy.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << busy.error_message();

  EXPECT_TRUE(proof_ok(*d.tcp, await(*d.tcp, id, 120s)));
  ASSERT_TRUE(d.tcp->stub().EvictSRS(d.tcp->context(10s).get(), ev, &ev_resp).ok());
  s = status(*d.tcp);
  const pb::KeyStatus* k = key_of(s, "slow");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->refcount(), 0);
  EXPECT_EQ(k->tier(), "disk");
  EXPECT_EQ(k->layout(), "");
  EXPECT_EQ(k->host_bytes() + k->vram_bytes(), 0u);
  ev.set_circuit_id("nope");
  EXPECT_EQ(d.tcp->stub().EvictSRS(d.tcp->context(10s).get(), ev, &ev_resp).error_code(), grpc::StatusCode::NOT_FOUND);
  // Evicted keys load again on demand.
  EXPECT_TRUE(proof_ok(*d.tcp, prove(*d.tcp, native_request("slow", 7))));
}

TEST(Scheduling, SmallVramBudgetWithThreeWorkersEveryJobSucceeds) {
  ScratchDir dir("sched-budget");
  std::uint64_t key_bytes = 0;
  {
    Running probe = start(test_config(dir.path()));
    pb::PreloadSRSRequest pre;
    pre.set_circuit_id("fast");
    pb::PreloadSRSResponse resp;
    ASSERT_TRUE(probe.tcp->stub().PreloadSRS(probe.tcp->context(60s).get(), pre, &resp).ok());
    key_bytes = std::max(resp.key().vram_bytes(), resp.key().host_bytes());
    ASSERT_GT(key_bytes, 0u);
  }
  DaemonConfig cfg = test_config(dir.path(), 3);
  // Room for the key and one proof's working memory (a proof's scratch is at least 8 MiB of
  // MSM buckets), not for three proofs at once.
  cfg.engine.vram_budget_bytes = key_bytes + (12ull << 20);
  cfg.engine.max_batch_size = 1;
  Running d = start(std::move(cfg));
  std::atomic<bool> done{false};
  std::atomic<std::uint64_t> max_reserved{0};
  std::thread sampler([&] {
    while (!done) {
      const pb::GetStatusResponse s = status(*d.tcp);
      for (const auto& dev : s.devices()) max_reserved = std::max<std::uint64_t>(max_reserved, dev.vram_reserved());
      std::this_thread::sleep_for(5ms);
    }
  });
  constexpr int kClients = 3, kEach = 3;
  std::vector<std::vector<pb::AwaitProofResponse>> got(kClients);
  std::vector<std::thread> clients;
  for (int t = 0; t < kClients; ++t)
    clients.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) got[t].push_back(prove(*d.tcp, native_request("fast", 200 + t * kEach + i)));
    });
  for (auto& c : clients) c.join();
  done = true;
  sampler.join();
  for (const auto& v : got)
    for (const auto& r : v) EXPECT_TRUE(proof_ok(*d.tcp, r));
  const pb::GetStatusResponse s = status(*d.tcp);
  EXPECT_EQ(s.failed(), 0u);
  EXPECT_EQ(s.succeeded(), std::uint64_t{kClients * kEach});
  EXPECT_LE(max_reserved.load(), key_bytes + (12ull << 20));
  EXPECT_GT(max_reserved.load(), key_bytes);  // the sampler saw proofs holding their working memory
  // A job that can never fit this budget is refused at once rather than queued forever.
  const grpc::Status never = submit(*d.tcp, native_request("slow", 1));
  EXPECT_EQ(never.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << never.error_message();
}

TEST(Scheduling, RestartOnTheSameCacheReusesTheKey) {
  ScratchDir dir("sched-restart"), cache("sched-restart-cache");
  auto config = [&] {
    DaemonConfig c = test_config(dir.path());
    c.engine.cache_dir = cache.path().string();
    c.engine.circuits.resize(1);  // "fast" only
    return c;
  };
  std::filesystem::path key;
  std::filesystem::file_time_type built;
  std::string vk_before;
  {
    Running a = start(config());
    for (const auto& e : std::filesystem::directory_iterator(cache.path()))
      if (e.path().extension() == ".zkey") key = e.path();
    ASSERT_FALSE(key.empty());
    built = std::filesystem::last_write_time(key);
    EXPECT_TRUE(proof_ok(*a.unix_socket, prove(*a.unix_socket, native_request("fast", 1))));
    pb::GetVerifyingKeyRequest req;
    req.set_circuit_id("fast");
    pb::GetVerifyingKeyResponse resp;
    ASSERT_TRUE(a.tcp->stub().GetVerifyingKey(a.tcp->context(10s).get(), req, &resp).ok());
    vk_before = resp.verification_key_json();
    a.daemon->shutdown();
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "d.sock"));
  }
  Running b = start(config());
  EXPECT_EQ(std::filesystem::last_write_time(key), built) << "the cached key was rebuilt";
  EXPECT_TRUE(proof_ok(*b.unix_socket, prove(*b.unix_socket, native_request("fast", 2))));
  pb::GetVerifyingKeyRequest req;
  req.set_circuit_id("fast");
  pb::GetVerifyingKeyResponse resp;
  ASSERT_TRUE(b.tcp->stub().GetVerifyingKey(b.tcp->context(10s).get(), req, &resp).ok());
  EXPECT_EQ(resp.verification_key_json(), vk_before);
}

}  // namespace
}  // namespace cuzk::server::test
