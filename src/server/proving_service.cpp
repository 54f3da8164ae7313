#include "proving_service.hpp"

#include <algorithm>
#include <exception>

#include "convert.hpp"
#include "cuzk/engine/ids.hpp"
#include "process_memory.hpp"
#include "status_report.hpp"

namespace cuzk::server {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kSlice{100};

bool is_unix_peer(const grpc::ServerContext* ctx) { return ctx->peer().starts_with("unix:"); }

bool constant_time_equal(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  return diff == 0;
}

}  // namespace

ProvingService::ProvingService(engine::Engine& engine, ServiceOptions options, RpcMetrics& metrics)
    : engine_(engine), options_(std::move(options)), metrics_(metrics), vks_(engine) {}

grpc::Status ProvingService::check_auth(const grpc::ServerContext* ctx) const {
  if (options_.auth_token.empty()) return grpc::Status::OK;
  if (is_unix_peer(ctx) && !options_.auth_unix) return grpc::Status::OK;
  const auto& md = ctx->client_metadata();
  const auto it = md.find("authorization");
  if (it == md.end()) return {grpc::StatusCode::UNAUTHENTICATED, "missing \"authorization: Bearer <token>\" metadata"};
  const std::string_view value(it->second.data(), it->second.size());
  constexpr std::string_view kBearer = "Bearer ";
  if (!value.starts_with(kBearer) || !constant_time_equal(value.substr(kBearer.size()), options_.auth_token))
    return {grpc::StatusCode::UNAUTHENTICATED, "invalid bearer token"};
  return grpc::Status::OK;
}

template <class Fn>
grpc::Status ProvingService::handle(const char* method, grpc::ServerContext* ctx, Fn&& fn) {
  const auto t0 = Clock::now();
  metrics_.begin();
  grpc::Status st = check_auth(ctx);
  if (st.ok() && stopping_.load()) st = {grpc::StatusCode::UNAVAILABLE, "the daemon is shutting down"};
  if (st.ok()) {
    try {
      st = fn();
    } catch (const std::invalid_argument& e) {
      st = {grpc::StatusCode::INVALID_ARGUMENT, e.what()};
    } catch (const std::exception& e) {
      st = {grpc::StatusCode::INTERNAL, std::string("internal error: ") + e.what()};
    }
  }
  metrics_.end(method, st.error_code(), std::chrono::duration<double>(Clock::now() - t0).count());
  return st;
}

grpc::Status ProvingService::wait_for(grpc::ServerContext* ctx, const std::string& id, std::uint32_t timeout_ms,
                                      v1::AwaitProofResponse* out) {
  const engine::ProofResult now = engine_.peek(id);
  // An accepted job never ends with kNotFound (its circuit was checked at submission), so
  // kNotFound here means the id is unknown or its result has been dropped.
  if (now.code == engine::ErrorCode::kNotFound)
    return {grpc::StatusCode::NOT_FOUND, "unknown request_id " + engine::quote_id(id)};
  auto until = Clock::now() + std::chrono::milliseconds(std::min(timeout_ms, options_.max_await_ms));
  // The client's deadline (if any) bounds the wait too, leaving a little time to answer.
  const auto client_left = ctx->deadline() - std::chrono::system_clock::now();
  if (client_left < std::chrono::hours(24 * 365))
    until = std::min(until, Clock::now() + std::chrono::duration_cast<Clock::duration>(client_left) -
                                std::chrono::milliseconds(20));
  std::optional<engine::ProofResult> r;
  if (is_final(now.state)) r = now;
  while (!r) {
    const auto left = until - Clock::now();
    if (left <= Clock::duration::zero() || ctx->IsCancelled() || stopping_.load()) break;
    r = engine_.await(id, std::min(std::chrono::duration_cast<std::chrono::milliseconds>(left) + std::chrono::milliseconds(1), kSlice));
  }
  if (r && r->code == engine::ErrorCode::kNotFound)
    return {grpc::StatusCode::NOT_FOUND, "request_id " + engine::quote_id(id) + " is no longer known (results are kept for a bounded number of jobs)"};
  out->set_done(r.has_value());
  to_pb(r ? *r : engine_.peek(id), out->mutable_result());
  return grpc::Status::OK;
}

grpc::Status ProvingService::SubmitProof(grpc::ServerContext* ctx, const v1::SubmitProofRequest* req,
                                         v1::SubmitProofResponse* resp) {
  return handle("SubmitProof", ctx, [&] {
    const engine::SubmitOutcome o = engine_.submit(from_pb(req->request()));
    if (o.code != engine::ErrorCode::kOk) return to_grpc_status(o.code, o.error);
    resp->set_request_id(o.request_id);
    resp->set_duplicate(o.duplicate);
    return grpc::Status::OK;
  });
}

grpc::Status ProvingService::AwaitProof(grpc::ServerContext* ctx, const v1::AwaitProofRequest* req,
                                        v1::AwaitProofResponse* resp) {
  return handle("AwaitProof", ctx, [&] {
    if (req->request_id().empty()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "request_id is empty");
    return wait_for(ctx, req->request_id(), req->timeout_ms(), resp);
  });
}

grpc::Status ProvingService::Prove(grpc::ServerContext* ctx, const v1::ProveRequest* req, v1::AwaitProofResponse* resp) {
  return handle("Prove", ctx, [&] {
    const engine::SubmitOutcome o = engine_.submit(from_pb(req->request()));
    if (o.code != engine::ErrorCode::kOk) return to_grpc_status(o.code, o.error);
    return wait_for(ctx, o.request_id, req->timeout_ms(), resp);
  });
}

grpc::Status ProvingService::CancelProof(grpc::ServerContext* ctx, const v1::CancelProofRequest* req,
                                         v1::CancelProofResponse* resp) {
  return handle("CancelProof", ctx, [&] {
    std::string error;
    const engine::ErrorCode c = engine_.cancel(req->request_id(), &error);
    if (c != engine::ErrorCode::kOk) return to_grpc_status(c, error);
    resp->set_state(to_pb(engine_.peek(req->request_id()).state));
    return grpc::Status::OK;
  });
}

grpc::Status ProvingService::GetStatus(grpc::ServerContext* ctx, const v1::GetStatusRequest*, v1::GetStatusResponse* resp) {
  return handle("GetStatus", ctx, [&] {
    build_status(engine_, resp);
    return grpc::Status::OK;
  });
}

std::string ProvingService::metrics_text() const {
  std::string s = engine_.metrics_text() + metrics_.prometheus_text();
  if (const auto m = read_process_memory()) {
    s += "# HELP cuzk_daemon_resident_bytes Resident memory of the daemon process (VmRSS).\n";
    s += "# TYPE cuzk_daemon_resident_bytes gauge\n";
    s += "cuzk_daemon_resident_bytes " + std::to_string(m->rss_bytes) + "\n";
    s += "# HELP cuzk_daemon_peak_resident_bytes Peak resident memory of the daemon process (VmHWM).\n";
    s += "# TYPE cuzk_daemon_peak_resident_bytes gauge\n";
    s += "cuzk_daemon_peak_resident_bytes " + std::to_string(m->peak_rss_bytes) + "\n";
  }
  return s;
}

grpc::Status ProvingService::GetMetrics(grpc::ServerContext* ctx, const v1::GetMetricsRequest*, v1::GetMetricsResponse* resp) {
  return handle("GetMetrics", ctx, [&] {
    resp->set_text(metrics_text());
    return grpc::Status::OK;
  });
}

grpc::Status ProvingService::PreloadSRS(grpc::ServerContext* ctx, const v1::PreloadSRSRequest* req,
                                        v1::PreloadSRSResponse* resp) {
  return handle("PreloadSRS", ctx, [&] {
    std::string error;
    const engine::ErrorCode c = engine_.preload(req->circuit_id(), &error);
    if (c != engine::ErrorCode::kOk) return to_grpc_status(c, error);
    for (const auto& k : engine_.status().keys)
      if (k.circuit_id == req->circuit_id()) to_pb(k, resp->mutable_key());
    return grpc::Status::OK;
  });
}

grpc::Status ProvingService::EvictSRS(grpc::ServerContext* ctx, const v1::EvictSRSRequest* req, v1::EvictSRSResponse*) {
  return handle("EvictSRS", ctx, [&] {
    std::string error;
    return to_grpc_status(engine_.evict(req->circuit_id(), &error), error);
  });
}

grpc::Status ProvingService::GetVerifyingKey(grpc::ServerContext* ctx, const v1::GetVerifyingKeyRequest* req,
                                             v1::GetVerifyingKeyResponse* resp) {
  return handle("GetVerifyingKey", ctx, [&] {
    VerifyingKeyJson vk;
    std::string error;
    const engine::ErrorCode c = vks_.get(req->circuit_id(), &vk, &error);
    if (c != engine::ErrorCode::kOk) return to_grpc_status(c, error);
    resp->set_verification_key_json(vk.json);
    resp->set_curve(vk.curve);
    return grpc::Status::OK;
  });
}

}  // namespace cuzk::server
