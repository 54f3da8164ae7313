#include "convert.hpp"

#include <stdexcept>

namespace cuzk::server {

grpc::StatusCode to_grpc_code(engine::ErrorCode c) {
  using E = engine::ErrorCode;
  switch (c) {
    case E::kOk: return grpc::StatusCode::OK;
    case E::kInvalidArgument: return grpc::StatusCode::INVALID_ARGUMENT;
    case E::kNotFound: return grpc::StatusCode::NOT_FOUND;
    case E::kAlreadyExists: return grpc::StatusCode::ALREADY_EXISTS;
    case E::kFailedPrecondition: return grpc::StatusCode::FAILED_PRECONDITION;
    case E::kResourceExhausted: return grpc::StatusCode::RESOURCE_EXHAUSTED;
    case E::kCancelled: return grpc::StatusCode::CANCELLED;
    case E::kDeadlineExceeded: return grpc::StatusCode::DEADLINE_EXCEEDED;
    case E::kUnavailable: return grpc::StatusCode::UNAVAILABLE;
    case E::kInternal: return grpc::StatusCode::INTERNAL;
  }
  return grpc::StatusCode::UNKNOWN;
}

grpc::Status to_grpc_status(engine::ErrorCode c, const std::string& message) {
  if (c == engine::ErrorCode::kOk) return grpc::Status::OK;
  return grpc::Status(to_grpc_code(c), message.empty() ? std::string(engine::to_string(c)) : message);
}

pb::ProofKind to_pb(engine::ProofKind k) { return static_cast<pb::ProofKind>(static_cast<int>(k)); }
pb::Priority to_pb(engine::Priority p) { return static_cast<pb::Priority>(static_cast<int>(p) + 1); }
pb::JobState to_pb(engine::JobState s) { return static_cast<pb::JobState>(static_cast<int>(s) + 1); }
pb::ErrorCode to_pb(engine::ErrorCode c) { return static_cast<pb::ErrorCode>(static_cast<int>(c)); }

std::optional<engine::ProofKind> from_pb(pb::ProofKind k) {
  const int v = static_cast<int>(k);
  if (v < 0 || v > static_cast<int>(engine::ProofKind::kSnapDeals)) return std::nullopt;
  return static_cast<engine::ProofKind>(v);
}

std::optional<engine::Priority> from_pb(pb::Priority p, bool* ok) {
  const int v = static_cast<int>(p);
  *ok = v >= 0 && v <= engine::kNumPriorities;
  if (v <= 0 || !*ok) return std::nullopt;
  return static_cast<engine::Priority>(v - 1);
}

namespace {
// engine::ProofRequest holds bytes in std::string, as protobuf does: the field's buffer moves over
// (a swap: unlike a move, it leaves the field empty by contract) and nothing is copied.
std::string take_bytes(std::string* s) {
  std::string v;
  v.swap(*s);
  return v;
}
}  // namespace

std::uint64_t payload_bytes(const pb::ProofRequest& r) {
  std::uint64_t n = r.wtns().size() + r.porep().c1().size();
  for (const auto& v : r.post().vanilla_proofs()) n += v.size();
  for (const auto& p : r.snap().partition_proofs()) n += p.size();
  return n;
}

engine::ProofRequest from_pb(pb::ProofRequest&& r) {
  engine::ProofRequest e;
  e.request_id = r.request_id();
  const auto kind = from_pb(r.kind());
  if (!kind) throw std::invalid_argument("request.kind: unknown value " + std::to_string(r.kind()));
  e.kind = *kind;
  bool ok = false;
  e.priority = from_pb(r.priority(), &ok);
  if (!ok) throw std::invalid_argument("request.priority: unknown value " + std::to_string(r.priority()));
  e.circuit_id = r.circuit_id();
  e.wtns = take_bytes(r.mutable_wtns());
  if (r.has_native_seed()) e.native_seed = r.native_seed();
  if (r.has_post()) {
    pb::PostRequest& p = *r.mutable_post();
    engine::PostRequest ep;
    ep.registered_proof = p.registered_proof();
    ep.randomness.assign(p.randomness().begin(), p.randomness().end());
    ep.prover_id.assign(p.prover_id().begin(), p.prover_id().end());
    ep.partition_index = p.partition_index();
    ep.sector_ids.assign(p.sector_ids().begin(), p.sector_ids().end());
    for (auto& v : *p.mutable_vanilla_proofs()) ep.vanilla_proofs.push_back(take_bytes(&v));
    e.post = std::move(ep);
  }
  if (r.has_porep()) {
    pb::PorepRequest& p = *r.mutable_porep();
    engine::PorepRequest ep;
    ep.c1 = take_bytes(p.mutable_c1());
    if (p.has_registered_proof()) ep.registered_proof = p.registered_proof();
    ep.prover_id.assign(p.prover_id().begin(), p.prover_id().end());
    if (p.has_sector_number()) ep.sector_number = p.sector_number();
    e.porep = std::move(ep);
  }
  if (r.has_snap()) {
    pb::SnapRequest& p = *r.mutable_snap();
    engine::SnapRequest es;
    es.registered_proof = p.registered_proof();
    es.comm_r_old.assign(p.comm_r_old().begin(), p.comm_r_old().end());
    es.comm_r_new.assign(p.comm_r_new().begin(), p.comm_r_new().end());
    es.comm_d_new.assign(p.comm_d_new().begin(), p.comm_d_new().end());
    for (auto& v : *p.mutable_partition_proofs()) es.partition_proofs.push_back(take_bytes(&v));
    e.snap = std::move(es);
  }
  return e;
}

void to_pb(const engine::ProofResult& r, pb::ProofResult* out) {
  out->set_request_id(r.request_id);
  out->set_state(to_pb(r.state));
  out->set_code(to_pb(r.code));
  out->set_error(r.error);
  out->set_circuit_id(r.circuit_id);
  out->set_kind(to_pb(r.kind));
  out->set_priority(to_pb(r.priority));
  out->set_curve(r.curve);
  out->set_proof_json(r.proof_json);
  out->set_public_json(r.public_json);
  out->set_proof_bytes(std::string(r.proof_bytes.begin(), r.proof_bytes.end()));
  for (const auto& t : r.timings) {
    auto* p = out->add_timings();
    p->set_phase(t.phase);
    p->set_ms(t.ms);
  }
  out->set_device(r.device);
  out->set_worker(r.worker);
  out->set_attempts(r.attempts);
  out->set_batch_size(r.batch_size);
}

void to_pb(const engine::KeyStatus& k, pb::KeyStatus* out) {
  out->set_circuit_id(k.circuit_id);
  out->set_curve(k.curve);
  out->set_tier(k.tier);
  out->set_host_bytes(k.host_bytes);
  out->set_pinned_bytes(k.pinned_bytes);
  out->set_mapped_bytes(k.mapped_bytes);
  out->set_vram_bytes(k.vram_bytes);
  out->set_layout(k.layout);
  for (int d : k.devices) out->add_devices(d);
  out->set_refcount(k.refcount);
  out->set_proofs(k.proofs);
}

void to_pb(const engine::StatusSnapshot& s, pb::GetStatusResponse* out) {
  out->set_backend(s.backend);
  out->set_uptime_s(s.uptime_s);
  for (const auto& d : s.devices) {
    auto* p = out->add_devices();
    p->set_index(d.index);
    p->set_name(d.name);
    p->set_vram_budget(d.vram_budget);
    p->set_vram_reserved(d.vram_reserved);
    p->set_workers(d.workers);
    p->set_busy_workers(d.busy_workers);
    p->set_proofs(d.proofs);
    p->set_device_faults(d.device_faults);
    p->set_failed_verifications(d.failed_verifications);
  }
  for (const auto& k : s.keys) to_pb(k, out->add_keys());
  for (const auto& q : s.queues) {
    auto* p = out->add_queues();
    p->set_priority(to_pb(q.priority));
    p->set_depth(q.depth);
  }
  for (const auto& b : s.budgets) {
    auto* p = out->add_budgets();
    p->set_name(b.name);
    p->set_budget(b.budget);
    p->set_reserved(b.reserved);
  }
  out->set_synthesizing(s.synthesizing);
  out->set_waiting_device(s.waiting_device);
  out->set_proving(s.proving);
  out->set_succeeded(s.succeeded);
  out->set_failed(s.failed);
  out->set_cancelled(s.cancelled);
}

}  // namespace cuzk::server
