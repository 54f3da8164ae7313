#include "bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>

#include "filecoin_verify.hpp"

namespace cuzk::bench {

using Clock = std::chrono::steady_clock;

std::vector<char> read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

pb::ProofRequest make_request(const RequestTemplate& t, std::uint64_t index, const std::vector<char>& wtns) {
  pb::ProofRequest r;
  const auto kind = server::parse_kind(t.kind);
  if (!kind) throw std::invalid_argument("unknown kind \"" + t.kind + "\" (groth16, winning_post, window_post, porep, snap_deals)");
  const auto prio = server::parse_priority(t.priority);
  if (!prio) throw std::invalid_argument("unknown priority \"" + t.priority + "\" (low, normal, high, critical)");
  r.set_kind(*kind);
  r.set_priority(*prio);
  r.set_circuit_id(t.circuit);
  if (!wtns.empty()) r.set_wtns(std::string(wtns.begin(), wtns.end()));
  else r.set_native_seed(t.seed + index);
  return r;
}

namespace {

// A Filecoin request of `kind` with the template's priority and circuit (usually empty).
pb::ProofRequest filecoin_request(const RequestTemplate& t, pb::ProofKind kind) {
  pb::ProofRequest r;
  const auto prio = server::parse_priority(t.priority);
  if (!prio) throw std::invalid_argument("unknown priority \"" + t.priority + "\" (low, normal, high, critical)");
  r.set_kind(kind);
  r.set_priority(*prio);
  r.set_circuit_id(t.circuit);
  return r;
}

}  // namespace

pb::ProofRequest make_post_request(const RequestTemplate& t, const PostJob& job) {
  pb::ProofRequest r = filecoin_request(t, job.kind);
  *r.mutable_post() = job.request;
  return r;
}

pb::ProofRequest make_partitioned_request(const RequestTemplate& t, const PartitionedJob& job) {
  pb::ProofRequest r = filecoin_request(t, job.request.kind());
  if (job.request.has_porep()) *r.mutable_porep() = job.request.porep();
  if (job.request.has_snap()) *r.mutable_snap() = job.request.snap();
  return r;
}

PartitionedJob make_partitioned_job(const RequestTemplate& t) {
  return t.porep.enabled() ? make_porep_job(t.porep) : make_snap_job(t.snap);
}

std::string Verifier::fetch(const std::string& id, Outcome& out) {
  pb::GetVerifyingKeyRequest req;
  req.set_circuit_id(id);
  pb::GetVerifyingKeyResponse resp;
  const grpc::Status st = client_.stub().GetVerifyingKey(client_.context(std::chrono::seconds(60)).get(), req, &resp);
  if (!st.ok()) {
    out.verify_error = "GetVerifyingKey(" + id + "): " + st.error_message();
    return {};
  }
  return resp.verification_key_json();
}

void Verifier::check_filecoin(Outcome& out) {
  const FilecoinExpectation& e = *out.expect;
  if (!e.underivable.empty()) {
    out.verify_error = "proof " + out.result.request_id() + " cannot be checked: " + e.underivable;
    return;
  }
  // The key of the circuit the request needs (not merely the one the result names).
  const std::string& id = e.circuit_id;
  std::shared_ptr<const FilecoinVerifyingKey> key;
  {
    std::lock_guard lock(mu_);
    if (auto it = filecoin_keys_.find(id); it != filecoin_keys_.end()) key = it->second;
  }
  if (!key) {
    const std::string json = fetch(id, out);
    if (json.empty()) return;
    try {
      key = std::make_shared<const FilecoinVerifyingKey>(id, json);
    } catch (const std::exception& ex) {
      out.verify_error = "verifying key of " + id + ": " + ex.what();
      return;
    }
    std::lock_guard lock(mu_);
    filecoin_keys_.emplace(id, key);
  }
  const std::string why = e.check(*key, out.result);
  out.verified = why.empty();
  if (!out.verified) out.verify_error = "proof " + out.result.request_id() + " does not verify: " + why;
}

void Verifier::check(Outcome& out) {
  if (out.expect) {
    check_filecoin(out);
    return;
  }
  const std::string& id = out.result.circuit_id();
  std::shared_ptr<const server::ProofChecker> checker;
  {
    std::lock_guard lock(mu_);
    if (auto it = checkers_.find(id); it != checkers_.end()) checker = it->second;
  }
  if (!checker) {
    const std::string json = fetch(id, out);
    if (json.empty()) return;
    try {
      checker = std::make_shared<const server::ProofChecker>(json);
    } catch (const std::exception& e) {
      out.verify_error = "verification key of " + id + ": " + e.what();
      return;
    }
    std::lock_guard lock(mu_);
    checkers_.emplace(id, checker);
  }
  std::string why;
  out.verified = checker->verify(out.result.proof_json(), out.result.public_json(), &why);
  if (!out.verified) out.verify_error = "proof " + out.result.request_id() + " does not verify: " + why;
}

Outcome prove_one(server::Client& client, const pb::ProofRequest& req, double timeout_s, Verifier* verifier,
                  std::shared_ptr<const FilecoinExpectation> expect) {
  Outcome out;
  out.expect = std::move(expect);
  const auto t0 = Clock::now();
  const auto until = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  pb::SubmitProofRequest sreq;
  *sreq.mutable_request() = req;
  pb::SubmitProofResponse sresp;
  out.rpc = client.stub().SubmitProof(client.context(std::chrono::seconds(60)).get(), sreq, &sresp);
  if (!out.rpc.ok()) return out;
  pb::AwaitProofRequest areq;
  areq.set_request_id(sresp.request_id());
  while (Clock::now() < until) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    const auto slice = std::min<std::chrono::milliseconds>(left, std::chrono::seconds(30));
    areq.set_timeout_ms(static_cast<std::uint32_t>(slice.count()));
    pb::AwaitProofResponse aresp;
    out.rpc = client.stub().AwaitProof(client.context(slice + std::chrono::seconds(10)).get(), areq, &aresp);
    if (!out.rpc.ok()) return out;
    out.result = aresp.result();
    if (aresp.done()) {
      out.done = true;
      break;
    }
  }
  out.latency_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (out.done && out.result.state() == pb::JOB_STATE_SUCCEEDED && verifier) verifier->check(out);
  return out;
}

bool check_connection(server::Client& client, pb::GetStatusResponse* status) {
  pb::GetStatusResponse local;
  const grpc::Status st =
      client.stub().GetStatus(client.context(std::chrono::seconds(10)).get(), pb::GetStatusRequest{}, status ? status : &local);
  if (st.ok()) return true;
  std::cerr << "error: daemon at " << client.options().target << ": " << st.error_message() << "\n";
  return false;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  // Nearest rank.
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

std::string fmt_bytes(std::uint64_t b) {
  char buf[64];
  if (b >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(b) / (1ull << 30));
  else std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1ull << 20));
  return buf;
}

void print_timings(const pb::ProofResult& r) {
  for (const auto& t : r.timings()) std::printf("  %-16s %10.2f ms\n", t.phase().c_str(), t.ms());
}

}  // namespace cuzk::bench
