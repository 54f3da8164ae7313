// AwaitProof and Prove without a thread per call (gRPC's callback API). A call that must wait
// becomes an AwaitCall reactor, watched by the engine (Engine::watch) and by one timer: it is
// answered exactly once by whichever comes first, the job's end (from the engine's thread),
// its timeout (timeout_ms cut to max_await_ms and the call's deadline), the client's
// cancellation, or the daemon's shutdown. A reactor lives until gRPC's OnDone, which drops its
// watch and its timer; the callbacks hold it weakly, so none outlives it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

#include <grpcpp/grpcpp.h>

#include "cuzk/engine/engine.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "rpc_metrics.hpp"
#include "timer_queue.hpp"

namespace cuzk::server {

class AwaitCall;

class WaitingCalls {
 public:
  using Clock = std::chrono::steady_clock;

  WaitingCalls(engine::Engine& engine, RpcMetrics& metrics, std::uint32_t max_await_ms);
  ~WaitingCalls();
  WaitingCalls(const WaitingCalls&) = delete;
  WaitingCalls& operator=(const WaitingCalls&) = delete;

  // The reactor answering the call `method` (counted from t0, after RpcMetrics::begin()) with
  // `id`'s result: at once when the job is final, unknown or timeout_ms is 0, else when one of
  // the events above comes.
  grpc::ServerUnaryReactor* wait(const char* method, Clock::time_point t0, grpc::CallbackServerContext* ctx,
                                 const std::string& id, std::uint32_t timeout_ms, ::cuzk::v1::AwaitProofResponse* out);
  // A reactor answering `st` at once (a refused call).
  grpc::ServerUnaryReactor* answer(const char* method, Clock::time_point t0, grpc::CallbackServerContext* ctx,
                                   const grpc::Status& st);
  // Shutdown: every waiting call answers its job's current state now; later ones at once.
  void finish_all();
  std::size_t waiting() const;

 private:
  friend class AwaitCall;
  // The answer for `r` (the job's final or current state) into `out`.
  grpc::Status fill(const engine::ProofResult& r, ::cuzk::v1::AwaitProofResponse* out) const;
  void record(const char* method, Clock::time_point t0, const grpc::Status& st);
  bool enter(AwaitCall* c);  // false once shutting down
  void leave(AwaitCall* c);

  engine::Engine& engine_;
  RpcMetrics& metrics_;
  const std::uint32_t max_await_ms_;
  mutable std::mutex m_;
  std::unordered_set<AwaitCall*> open_;  // guarded by m_; each lives until its OnDone
  bool stopping_ = false;
  TimerQueue timers_;  // last: its thread stops first
};

}  // namespace cuzk::server
