// The gRPC ProvingService over an Engine. The short calls use the sync API (a thread of the
// pool each, briefly); AwaitProof and Prove use the callback API and hold no thread while they
// wait (waiting_calls.hpp): at most their timeout, cut to max_await_ms and the call's deadline,
// answered as soon as the job ends, the client cancels or the daemon shuts down. Every handler
// checks the bearer token (TCP; the unix socket too when auth_unix) and is counted in
// RpcMetrics by method and status code.
#pragma once

#include <atomic>
#include <chrono>
#include <string>

#include "cuzk/engine/engine.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "rpc_metrics.hpp"
#include "verifying_keys.hpp"
#include "waiting_calls.hpp"

namespace cuzk::server {

struct ServiceOptions {
  std::string auth_token;  // "" = no auth
  bool auth_unix = false;
  std::uint32_t max_await_ms = 600000;
};

using ProvingServiceBase = ::cuzk::v1::ProvingService::WithCallbackMethod_AwaitProof<
    ::cuzk::v1::ProvingService::WithCallbackMethod_Prove<::cuzk::v1::ProvingService::Service>>;

class ProvingService final : public ProvingServiceBase {
 public:
  ProvingService(engine::Engine& engine, ServiceOptions options, RpcMetrics& metrics);

  // Answers waiting calls with their job's current state (the jobs keep running); new calls
  // get UNAVAILABLE.
  void begin_shutdown();

  grpc::Status SubmitProof(grpc::ServerContext*, const v1::SubmitProofRequest*, v1::SubmitProofResponse*) override;
  grpc::ServerUnaryReactor* AwaitProof(grpc::CallbackServerContext*, const v1::AwaitProofRequest*,
                                       v1::AwaitProofResponse*) override;
  grpc::ServerUnaryReactor* Prove(grpc::CallbackServerContext*, const v1::ProveRequest*, v1::AwaitProofResponse*) override;
  grpc::Status CancelProof(grpc::ServerContext*, const v1::CancelProofRequest*, v1::CancelProofResponse*) override;
  grpc::Status GetStatus(grpc::ServerContext*, const v1::GetStatusRequest*, v1::GetStatusResponse*) override;
  grpc::Status GetMetrics(grpc::ServerContext*, const v1::GetMetricsRequest*, v1::GetMetricsResponse*) override;
  grpc::Status PreloadSRS(grpc::ServerContext*, const v1::PreloadSRSRequest*, v1::PreloadSRSResponse*) override;
  grpc::Status EvictSRS(grpc::ServerContext*, const v1::EvictSRSRequest*, v1::EvictSRSResponse*) override;
  grpc::Status GetVerifyingKey(grpc::ServerContext*, const v1::GetVerifyingKeyRequest*,
                               v1::GetVerifyingKeyResponse*) override;

  // Prometheus text: the engine's metrics followed by the server's.
  std::string metrics_text() const;
  // AwaitProof/Prove calls waiting now.
  std::size_t waiting_calls() const { return waits_.waiting(); }

 private:
  template <class Fn>
  grpc::Status handle(const char* method, grpc::ServerContext* ctx, Fn&& fn);
  // The token and the shutdown, then fn() with exceptions turned into statuses.
  template <class Fn>
  grpc::Status admit_and_run(const grpc::ServerContextBase* ctx, Fn&& fn);
  grpc::Status check_auth(const grpc::ServerContextBase* ctx) const;
  // A received request into the engine: a .wtns larger than its circuit takes is refused before
  // it is moved in; the request's bytes are counted in the host budget from here
  // (Engine::submit_received) and leave `r` (gRPC's request, ours until the call ends).
  engine::SubmitOutcome submit_request(v1::ProofRequest& r);

  engine::Engine& engine_;
  ServiceOptions options_;
  RpcMetrics& metrics_;
  VerifyingKeys vks_;
  std::atomic<bool> stopping_{false};
  WaitingCalls waits_;
};

}  // namespace cuzk::server
