// cuzk-bench status / preload / evict / cancel.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "status_json.hpp"

namespace cuzk::bench {

namespace {

int rpc_error(const char* what, const grpc::Status& st) {
  std::cerr << "error: " << what << ": " << server::status_code_name(st.error_code()) << ": " << st.error_message() << "\n";
  return st.error_code() == grpc::StatusCode::UNAVAILABLE || st.error_code() == grpc::StatusCode::UNAUTHENTICATED ||
                 st.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED
             ? kExitUsage
             : kExitProofsFailed;
}

void print_status(const pb::GetStatusResponse& s) {
  std::printf("daemon pid %lld, backend %s, up %.1f s, RSS %s (peak %s)\n", static_cast<long long>(s.pid()),
              s.backend().c_str(), s.uptime_s(), fmt_bytes(s.rss_bytes()).c_str(), fmt_bytes(s.peak_rss_bytes()).c_str());
  std::printf("jobs: synthesizing %llu, waiting for a device %llu, proving %llu; succeeded %llu, failed %llu, cancelled %llu\n",
              static_cast<unsigned long long>(s.synthesizing()), static_cast<unsigned long long>(s.waiting_device()),
              static_cast<unsigned long long>(s.proving()), static_cast<unsigned long long>(s.succeeded()),
              static_cast<unsigned long long>(s.failed()), static_cast<unsigned long long>(s.cancelled()));
  std::printf("queues:");
  for (const auto& q : s.queues())
    std::printf(" %s %llu;", priority_name(q.priority()).c_str(), static_cast<unsigned long long>(q.depth()));
  std::printf("\n");
  for (const auto& d : s.devices())
    std::printf("device %d %s: workers %d (busy %d), vram %s / %s, proofs %llu, device faults %llu, failed verifications %llu\n",
                d.index(), d.name().c_str(), d.workers(), d.busy_workers(), fmt_bytes(d.vram_reserved()).c_str(),
                fmt_bytes(d.vram_budget()).c_str(), static_cast<unsigned long long>(d.proofs()),
                static_cast<unsigned long long>(d.device_faults()), static_cast<unsigned long long>(d.failed_verifications()));
  for (const auto& b : s.budgets())
    std::printf("budget %s: %s / %s\n", b.name().c_str(), fmt_bytes(b.reserved()).c_str(), fmt_bytes(b.budget()).c_str());
  for (const auto& k : s.keys())
    std::printf("key %s (%s): tier %s, host %s (pinned %s), vram %s%s, mapped file %s, refcount %d, proofs %llu\n",
                k.circuit_id().c_str(), k.curve().c_str(), k.tier().c_str(), fmt_bytes(k.host_bytes()).c_str(),
                fmt_bytes(k.pinned_bytes()).c_str(), fmt_bytes(k.vram_bytes()).c_str(),
                k.layout().empty() ? "" : (" (" + k.layout() + ")").c_str(), fmt_bytes(k.mapped_bytes()).c_str(),
                k.refcount(), static_cast<unsigned long long>(k.proofs()));
  for (const auto& c : s.circuits()) {
    std::printf("circuit %s: %s%s%s", c.id().c_str(), c.source().c_str(), c.native().empty() ? "" : (" " + c.native()).c_str(),
                c.curve().empty() ? "" : (" " + c.curve()).c_str());
    for (int k : c.kinds()) std::printf(", serves %s", kind_name(static_cast<pb::ProofKind>(k)).c_str());
    std::printf("\n");
  }
}

}  // namespace

int run_status(const Common& c, bool json) {
  server::Client client(c.client);
  pb::GetStatusResponse s;
  const grpc::Status st = client.stub().GetStatus(client.context(std::chrono::seconds(10)).get(), {}, &s);
  if (!st.ok()) return rpc_error("GetStatus", st);
  if (json) std::printf("%s\n", server::status_to_json(s).dump(1).c_str());
  else print_status(s);
  return kExitOk;
}

int run_preload(const Common& c, const std::string& circuit) {
  server::Client client(c.client);
  pb::PreloadSRSRequest req;
  req.set_circuit_id(circuit);
  pb::PreloadSRSResponse resp;
  const grpc::Status st = client.stub().PreloadSRS(client.context(std::chrono::seconds(600)).get(), req, &resp);
  if (!st.ok()) return rpc_error("PreloadSRS", st);
  std::printf("preloaded %s: tier %s, host %s, vram %s\n", circuit.c_str(), resp.key().tier().c_str(),
              fmt_bytes(resp.key().host_bytes()).c_str(), fmt_bytes(resp.key().vram_bytes()).c_str());
  return kExitOk;
}

int run_evict(const Common& c, const std::string& circuit) {
  server::Client client(c.client);
  pb::EvictSRSRequest req;
  req.set_circuit_id(circuit);
  pb::EvictSRSResponse resp;
  const grpc::Status st = client.stub().EvictSRS(client.context(std::chrono::seconds(60)).get(), req, &resp);
  if (!st.ok()) return rpc_error("EvictSRS", st);
  std::printf("evicted %s\n", circuit.c_str());
  return kExitOk;
}

int run_cancel(const Common& c, const std::string& request_id) {
  server::Client client(c.client);
  pb::CancelProofRequest req;
  req.set_request_id(request_id);
  pb::CancelProofResponse resp;
  const grpc::Status st = client.stub().CancelProof(client.context(std::chrono::seconds(60)).get(), req, &resp);
  if (!st.ok()) return rpc_error("CancelProof", st);
  std::printf("%s: %s\n", request_id.c_str(), state_name(resp.state()).c_str());
  return kExitOk;
}

}  // namespace cuzk::bench
