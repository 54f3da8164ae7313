// The gRPC ProvingService over an Engine (sync API). Handlers only enqueue, query or wait:
// AwaitProof/Prove wait at most their timeout (cut to max_await_ms and the call's deadline)
// in short slices, so a cancelled call or a daemon shutdown frees the thread promptly.
// Every handler checks the bearer token (TCP; the unix socket too when auth_unix) and is
// counted in RpcMetrics by method and status code.
#pragma once

#include <atomic>
#include <chrono>
#include <string>

#include "cuzk/engine/engine.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "rpc_metrics.hpp"
#include "verifying_keys.hpp"

namespace cuzk::server {

struct ServiceOptions {
  std::string auth_token;  // "" = no auth
  bool auth_unix = false;
  std::uint32_t max_await_ms = 600000;
};

class ProvingService final : public ::cuzk::v1::ProvingService::Service {
 public:
  ProvingService(engine::Engine& engine, ServiceOptions options, RpcMetrics& metrics);

  // Makes waiting handlers return (their jobs keep their state); new calls get UNAVAILABLE.
  void begin_shutdown() { stopping_.store(true); }

  grpc::Status SubmitProof(grpc::ServerContext*, const v1::SubmitProofRequest*, v1::SubmitProofResponse*) override;
  grpc::Status AwaitProof(grpc::ServerContext*, const v1::AwaitProofRequest*, v1::AwaitProofResponse*) override;
  grpc::Status Prove(grpc::ServerContext*, const v1::ProveRequest*, v1::AwaitProofResponse*) override;
  grpc::Status CancelProof(grpc::ServerContext*, const v1::CancelProofRequest*, v1::CancelProofResponse*) override;
  grpc::Status GetStatus(grpc::ServerContext*, const v1::GetStatusRequest*, v1::GetStatusResponse*) override;
  grpc::Status GetMetrics(grpc::ServerContext*, const v1::GetMetricsRequest*, v1::GetMetricsResponse*) override;
  grpc::Status PreloadSRS(grpc::ServerContext*, const v1::PreloadSRSRequest*, v1::PreloadSRSResponse*) override;
  grpc::Status EvictSRS(grpc::ServerContext*, const v1::EvictSRSRequest*, v1::EvictSRSResponse*) override;
  grpc::Status GetVerifyingKey(grpc::ServerContext*, const v1::GetVerifyingKeyRequest*,
                               v1::GetVerifyingKeyResponse*) override;

  // Prometheus text: the engine's metrics followed by the server's.
  std::string metrics_text() const;

 private:
  template <class Fn>
  grpc::Status handle(const char* method, grpc::ServerContext* ctx, Fn&& fn);
  grpc::Status check_auth(const grpc::ServerContext* ctx) const;
  grpc::Status wait_for(grpc::ServerContext* ctx, const std::string& id, std::uint32_t timeout_ms,
                        v1::AwaitProofResponse* out);

  engine::Engine& engine_;
  ServiceOptions options_;
  RpcMetrics& metrics_;
  VerifyingKeys vks_;
  std::atomic<bool> stopping_{false};
};

}  // namespace cuzk::server
