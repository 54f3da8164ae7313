// Waiting calls hold no thread: a client holding a thousand AwaitProof calls open (more than
// the daemon's RPC threads many times over) locks nobody out. Status and submit calls from
// another client answer promptly meanwhile, and the job's end answers every waiting call at
// once. CUZK_TEST_AWAITS=<n> runs it with n awaits instead (10,000 was measured by hand).
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <regex>
#include <thread>

#include "test_daemon.hpp"

namespace cuzk::server::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

int awaits_to_hold() {
  const char* n = std::getenv("CUZK_TEST_AWAITS");
  return n != nullptr && std::atoi(n) > 0 ? std::atoi(n) : 1000;
}

// RPCs the daemon is serving now (its cuzk_server_rpcs_in_flight gauge, this call included).
long rpcs_in_flight(Client& c) {
  pb::GetMetricsResponse m;
  if (!c.stub().GetMetrics(c.context(10s).get(), {}, &m).ok()) return -1;
  std::smatch got;
  static const std::regex re("cuzk_server_rpcs_in_flight ([0-9]+)");
  return std::regex_search(m.text(), got, re) ? std::stol(got[1]) : -1;
}

// Many AwaitProof calls in flight on one channel (gRPC's client callback API).
class HeldAwaits {
 public:
  HeldAwaits(Client& c, const std::string& id, int n) : calls_(n) {
    for (auto& call : calls_) {
      call.req.set_request_id(id);
      call.req.set_timeout_ms(120000);
      call.ctx = c.context(180s);
      c.stub().async()->AwaitProof(call.ctx.get(), &call.req, &call.resp, [this, &call](grpc::Status st) {
        std::lock_guard lk(m_);
        call.st = std::move(st);
        call.answered = Clock::now();
        ++done_;
        cv_.notify_all();
      });
    }
  }
  ~HeldAwaits() {
    for (auto& call : calls_) call.ctx->TryCancel();
    wait_all(60s);
  }
  int answered() {
    std::lock_guard lk(m_);
    return done_;
  }
  bool wait_all(std::chrono::seconds timeout) {
    std::unique_lock lk(m_);
    return cv_.wait_for(lk, timeout, [&] { return done_ == static_cast<int>(calls_.size()); });
  }
  struct Call {
    pb::AwaitProofRequest req;
    pb::AwaitProofResponse resp;
    std::unique_ptr<grpc::ClientContext> ctx;
    grpc::Status st;
    Clock::time_point answered;
  };
  const std::vector<Call>& calls() const { return calls_; }

 private:
  std::vector<Call> calls_;
  std::mutex m_;
  std::condition_variable cv_;
  int done_ = 0;
};

TEST(AwaitLoad, ThousandsOfWaitingCallsLockNobodyOut) {
  ScratchDir dir("await-load");
  DaemonConfig cfg = test_config(dir.path(), /*workers=*/1);
  cfg.server.rpc_threads = 8;  // far fewer threads than waiting calls
  Running d = start(std::move(cfg));

  // The job the calls wait for stays queued behind slow ones on the one worker.
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(submit(*d.tcp, native_request("slow", 10 + i, pb::PRIORITY_HIGH, "ahead-" + std::to_string(i))).ok());
    ids.push_back("ahead-" + std::to_string(i));
  }
  ASSERT_TRUE(submit(*d.tcp, native_request("slow", 1, pb::PRIORITY_LOW, "held")).ok());

  const int n = awaits_to_hold();
  Client waiter(plain_client(d.tcp_target()));
  const auto t_open = Clock::now();
  HeldAwaits held(waiter, "held", n);

  // Another client: every call answers promptly while the awaits are being opened and held.
  Client other(plain_client("unix:" + d.daemon->config().server.unix_socket));
  auto prompt = [](auto&& call, const char* what) {
    const auto t0 = Clock::now();
    const grpc::Status st = call();
    const auto took = Clock::now() - t0;
    EXPECT_TRUE(st.ok()) << what << ": " << st.error_message();
    EXPECT_LT(took, 2s) << what << " took " << std::chrono::duration<double>(took).count() << " s";
  };
  long in_flight = 0;
  while (Clock::now() - t_open < 60s) {
    prompt([&] { return grpc::Status(rpcs_in_flight(other) >= 0 ? grpc::Status::OK : grpc::Status::CANCELLED); },
           "GetMetrics");
    in_flight = rpcs_in_flight(other);
    if (in_flight > n || held.answered() > 0) break;
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_EQ(held.answered(), 0) << "an await returned early: " << held.calls()[0].st.error_message();
  ASSERT_GT(in_flight, n) << "the awaits are not all held open";
  std::printf("%d awaits open after %.2f s\n", n, std::chrono::duration<double>(Clock::now() - t_open).count());

  pb::GetStatusResponse s;
  prompt([&] { return other.stub().GetStatus(other.context(10s).get(), {}, &s); }, "GetStatus");
  std::string id;
  prompt([&] { return submit(other, native_request("fast", 5), &id); }, "SubmitProof");
  pb::AwaitProofRequest now;
  now.set_request_id("held");
  pb::AwaitProofResponse state;
  prompt([&] { return other.stub().AwaitProof(other.context(10s).get(), now, &state); }, "AwaitProof (timeout 0)");
  EXPECT_FALSE(state.done());
  EXPECT_EQ(held.answered(), 0);

  // The job's end (here its cancellation) answers every waiting call at once.
  pb::CancelProofRequest cancel;
  cancel.set_request_id("held");
  pb::CancelProofResponse cancelled;
  const auto t_cancel = Clock::now();
  prompt([&] { return other.stub().CancelProof(other.context(10s).get(), cancel, &cancelled); }, "CancelProof");
  ASSERT_TRUE(held.wait_all(30s)) << held.answered() << " of " << n << " answered";
  Clock::time_point last = t_cancel;
  for (const auto& call : held.calls()) {
    ASSERT_TRUE(call.st.ok()) << call.st.error_message();
    EXPECT_TRUE(call.resp.done());
    EXPECT_EQ(call.resp.result().state(), pb::JOB_STATE_CANCELLED);
    last = std::max(last, call.answered);
  }
  EXPECT_LT(last - t_cancel, 5s);
  std::printf("all %d answered %.3f s after the cancel\n", n, std::chrono::duration<double>(last - t_cancel).count());
  EXPECT_LE(rpcs_in_flight(other), 1);
  for (const auto& a : ids) {
    cancel.set_request_id(a);
    other.stub().CancelProof(other.context(10s).get(), cancel, &cancelled);
  }
}

}  // namespace
}  // namespace cuzk::server::test
