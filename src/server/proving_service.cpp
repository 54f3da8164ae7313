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

bool is_unix_peer(const grpc::ServerContextBase* ctx) { return ctx->peer().starts_with("unix:"); }

bool constant_time_equal(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  return diff == 0;
}

}  // namespace

ProvingService::ProvingService(engine::Engine& engine, ServiceOptions options, RpcMetrics& metrics)
    : engine_(engine),
      options_(std::move(options)),
      metrics_(metrics),
      vks_(engine),
      waits_(engine, metrics, options_.max_await_ms) {}

void ProvingService::begin_shutdown() {
  stopping_.store(true);
  waits_.finish_all();
}

grpc::Status ProvingService::check_auth(const grpc::ServerContextBase* ctx) const {
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
grpc::Status ProvingService::admit_and_run(const grpc::ServerContextBase* ctx, Fn&& fn) {
  grpc::Status st = check_auth(ctx);
  if (st.ok() && stopping_.load()) st = {grpc::StatusCode::UNAVAILABLE, "the daemon is shutting down"};
  if (!st.ok()) return st;
  try {
    return fn();
  } catch (const std::invalid_argument& e) {
    return {grpc::StatusCode::INVALID_ARGUMENT, e.what()};
  } catch (const std::exception& e) {
    return {grpc::StatusCode::INTERNAL, std::string("internal error: ") + e.what()};
  }
}

template <class Fn>
grpc::Status ProvingService::handle(const char* method, grpc::ServerContext* ctx, Fn&& fn) {
  const auto t0 = Clock::now();
  metrics_.begin();
  const grpc::Status st = admit_and_run(ctx, std::forward<Fn>(fn));
  metrics_.end(method, st.error_code(), std::chrono::duration<double>(Clock::now() - t0).count());
  return st;
}

engine::SubmitOutcome ProvingService::submit_request(v1::ProofRequest& r) {
  engine::SubmitOutcome refused;
  refused.code = engine::ErrorCode::kInvalidArgument;
  if (r.kind() == v1::PROOF_KIND_GROTH16 && !r.wtns().empty())
    if (const auto limit = engine_.max_request_bytes(r.circuit_id()); limit && r.wtns().size() > *limit) {
      refused.error = *limit == 0 ? "circuit " + r.circuit_id() + " is native: send a native_seed, not a .wtns"
                                  : "request.wtns has " + std::to_string(r.wtns().size()) + " bytes, more than circuit " +
                                        r.circuit_id() + " takes (a .wtns of " + std::to_string(*limit) + " bytes)";
      return refused;
    }
  return engine_.submit_received(payload_bytes(r), [&r] { return from_pb(std::move(r)); });
}

// The request messages gRPC hands the handlers are its own per-call objects, allocated non-const
// and dropped after the call: submit_request moves their byte fields (the witness, the C1, the
// vanilla and partition proofs) into the engine's request, so that no request is held twice
// (hence the const_casts).
grpc::Status ProvingService::SubmitProof(grpc::ServerContext* ctx, const v1::SubmitProofRequest* req,
                                         v1::SubmitProofResponse* resp) {
  return handle("SubmitProof", ctx, [&] {
    const engine::SubmitOutcome o = submit_request(*const_cast<v1::SubmitProofRequest*>(req)->mutable_request());
    if (o.code != engine::ErrorCode::kOk) return to_grpc_status(o.code, o.error);
    resp->set_request_id(o.request_id);
    resp->set_duplicate(o.duplicate);
    return grpc::Status::OK;
  });
}

grpc::ServerUnaryReactor* ProvingService::AwaitProof(grpc::CallbackServerContext* ctx, const v1::AwaitProofRequest* req,
                                                     v1::AwaitProofResponse* resp) {
  const auto t0 = Clock::now();
  metrics_.begin();
  bool wait = false;
  const grpc::Status st = admit_and_run(ctx, [&] {
    if (req->request_id().empty()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "request_id is empty");
    wait = true;
    return grpc::Status::OK;
  });
  if (!wait) return waits_.answer("AwaitProof", t0, ctx, st);
  return waits_.wait("AwaitProof", t0, ctx, req->request_id(), req->timeout_ms(), resp);
}

grpc::ServerUnaryReactor* ProvingService::Prove(grpc::CallbackServerContext* ctx, const v1::ProveRequest* req,
                                                v1::AwaitProofResponse* resp) {
  const auto t0 = Clock::now();
  metrics_.begin();
  std::string id;
  const grpc::Status st = admit_and_run(ctx, [&] {
    const engine::SubmitOutcome o = submit_request(*const_cast<v1::ProveRequest*>(req)->mutable_request());
    if (o.code != engine::ErrorCode::kOk) return to_grpc_status(o.code, o.error);
    id = o.request_id;
    return grpc::Status::OK;
  });
  if (id.empty()) return waits_.answer("Prove", t0, ctx, st);
  return waits_.wait("Prove", t0, ctx, id, req->timeout_ms(), resp);
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
