#include "waiting_calls.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "convert.hpp"
#include "cuzk/engine/ids.hpp"

namespace cuzk::server {

namespace {

using Clock = WaitingCalls::Clock;

// The end of the wait: timeout_ms cut to max_await_ms and to the client's deadline (less a
// little time to answer).
Clock::time_point wait_until(const grpc::CallbackServerContext* ctx, std::uint32_t timeout_ms, std::uint32_t max_await_ms) {
  const Clock::time_point now = Clock::now();
  Clock::time_point until = now + std::chrono::milliseconds(std::min(timeout_ms, max_await_ms));
  const auto client_left = ctx->deadline() - std::chrono::system_clock::now();
  if (client_left < std::chrono::hours(24 * 365))
    until = std::min(until, now + std::chrono::duration_cast<Clock::duration>(client_left) - std::chrono::milliseconds(20));
  return until;
}

}  // namespace

// One waiting call. Owned by itself (self_) from wait() to OnDone; the engine's watch and the
// timer hold it weakly. done_ makes the first answer the only one, so resp_ (gRPC's, valid
// until OnDone) is written once, before Finish.
class AwaitCall final : public grpc::ServerUnaryReactor, public std::enable_shared_from_this<AwaitCall> {
 public:
  AwaitCall(WaitingCalls& calls, const char* method, Clock::time_point t0, std::string id, ::cuzk::v1::AwaitProofResponse* resp)
      : calls_(calls), method_(method), t0_(t0), id_(std::move(id)), resp_(resp) {}

  void start(Clock::time_point until) {
    self_ = shared_from_this();
    if (!calls_.enter(this)) return answer_current();
    const std::weak_ptr<AwaitCall> weak = weak_from_this();
    watch_ = calls_.engine_.watch(id_, [weak](const engine::ProofResult& r) {
      if (auto c = weak.lock()) c->answer_final(r);
    });
    timer_ = calls_.timers_.add(until, [weak] {
      if (auto c = weak.lock()) c->answer_current();
    });
  }

  void answer_final(const engine::ProofResult& r) {
    if (done_.exchange(true)) return;
    finish(calls_.fill(r, resp_));
  }

  // The timeout or a shutdown: the job's state now (done only when final).
  void answer_current() {
    if (done_.exchange(true)) return;
    finish(calls_.fill(calls_.engine_.peek(id_), resp_));
  }

  void OnCancel() override {
    if (done_.exchange(true)) return;
    finish({grpc::StatusCode::CANCELLED, "the call was cancelled"});
  }

  void OnDone() override {
    calls_.timers_.cancel(timer_);
    calls_.engine_.unwatch(id_, watch_);
    calls_.leave(this);
    const std::shared_ptr<AwaitCall> last = std::move(self_);  // may delete this on return
  }

 private:
  void finish(const grpc::Status& st) {
    calls_.record(method_, t0_, st);
    Finish(st);
  }

  WaitingCalls& calls_;
  const char* method_;
  const Clock::time_point t0_;
  const std::string id_;
  ::cuzk::v1::AwaitProofResponse* const resp_;
  std::atomic<bool> done_{false};
  std::shared_ptr<AwaitCall> self_;
  // Set in start(), before gRPC can call OnDone (it binds the reactor after the handler returns).
  std::uint64_t watch_ = 0;
  TimerQueue::Timer timer_;
};

WaitingCalls::WaitingCalls(engine::Engine& engine, RpcMetrics& metrics, std::uint32_t max_await_ms)
    : engine_(engine), metrics_(metrics), max_await_ms_(max_await_ms) {}

WaitingCalls::~WaitingCalls() = default;

grpc::Status WaitingCalls::fill(const engine::ProofResult& r, ::cuzk::v1::AwaitProofResponse* out) const {
  // An accepted job never ends with kNotFound (its circuit was checked at submission), so
  // kNotFound here means its result has been dropped since the call began.
  if (r.code == engine::ErrorCode::kNotFound)
    return {grpc::StatusCode::NOT_FOUND, "request_id " + engine::quote_id(r.request_id) +
                                             " is no longer known (results are kept for a bounded number of jobs)"};
  out->set_done(is_final(r.state));
  to_pb(r, out->mutable_result());
  return grpc::Status::OK;
}

void WaitingCalls::record(const char* method, Clock::time_point t0, const grpc::Status& st) {
  metrics_.end(method, st.error_code(), std::chrono::duration<double>(Clock::now() - t0).count());
}

grpc::ServerUnaryReactor* WaitingCalls::answer(const char* method, Clock::time_point t0, grpc::CallbackServerContext* ctx,
                                               const grpc::Status& st) {
  record(method, t0, st);
  grpc::ServerUnaryReactor* r = ctx->DefaultReactor();
  r->Finish(st);
  return r;
}

grpc::ServerUnaryReactor* WaitingCalls::wait(const char* method, Clock::time_point t0, grpc::CallbackServerContext* ctx,
                                             const std::string& id, std::uint32_t timeout_ms,
                                             ::cuzk::v1::AwaitProofResponse* out) {
  const engine::ProofResult now = engine_.peek(id);
  if (now.code == engine::ErrorCode::kNotFound)
    return answer(method, t0, ctx, {grpc::StatusCode::NOT_FOUND, "unknown request_id " + engine::quote_id(id)});
  const Clock::time_point until = wait_until(ctx, timeout_ms, max_await_ms_);
  if (is_final(now.state) || until <= Clock::now()) return answer(method, t0, ctx, fill(now, out));
  auto call = std::make_shared<AwaitCall>(*this, method, t0, id, out);
  call->start(until);
  return call.get();  // kept by its self_ until OnDone
}

bool WaitingCalls::enter(AwaitCall* c) {
  std::lock_guard lk(m_);
  if (stopping_) return false;
  open_.insert(c);
  return true;
}

void WaitingCalls::leave(AwaitCall* c) {
  std::lock_guard lk(m_);
  open_.erase(c);
}

std::size_t WaitingCalls::waiting() const {
  std::lock_guard lk(m_);
  return open_.size();
}

void WaitingCalls::finish_all() {
  std::vector<std::shared_ptr<AwaitCall>> calls;
  {
    std::lock_guard lk(m_);
    stopping_ = true;
    // Each is alive: it leaves open_ (under m_) before its owner lets go of it.
    for (AwaitCall* c : open_) calls.push_back(c->shared_from_this());
  }
  for (auto& c : calls) c->answer_current();
}

}  // namespace cuzk::server
