// cuzk-bench stress: a random mix of proof kinds and priorities from J client threads for a
// fixed duration (and at most max_jobs submissions); then a summary per kind and priority.
// The mix is every native circuit as a generic Groth16 proof and every served Filecoin PoSt
// circuit (status source "filecoin") with synthetic vanilla proofs of one sector, drawn from the
// request's seed; a WindowPoSt circuit is asked for as V1 or V1_2 at random (they share it).
// Circuits registered from a .zkey need a witness file and are left out.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <map>
#include <random>
#include <thread>

#include "commands.hpp"
#include "post_verify.hpp"
#include "progress.hpp"

namespace cuzk::bench {

namespace {

struct MixEntry {
  pb::ProofKind kind;
  std::string circuit;                 // native circuits: the circuit asked for
  std::string label;                   // kind/circuit
  std::vector<std::uint32_t> post;     // PoSt circuits: the registered proofs it serves
};

std::vector<MixEntry> build_mix(const pb::GetStatusResponse& s) {
  std::vector<MixEntry> mix;
  for (const auto& c : s.circuits()) {
    if (c.source() == "native") mix.push_back({pb::PROOF_KIND_GROTH16, c.id(), "groth16/" + c.id(), {}});
    if (c.source() != "filecoin" || c.kinds().empty()) continue;
    std::vector<std::uint32_t> proofs = post_proofs_of_circuit(c.id());
    if (proofs.empty()) continue;  // a circuit this cuzk-bench does not know
    const auto kind = static_cast<pb::ProofKind>(c.kinds(0));
    mix.push_back({kind, "", kind_name(kind) + "/" + c.id(), std::move(proofs)});
  }
  return mix;
}

}  // namespace

int run_stress(const Common& c, const StressArgs& a) {
  server::Client client(c.client);
  pb::GetStatusResponse status;
  if (!check_connection(client, &status)) return kExitUsage;
  const std::vector<MixEntry> mix = build_mix(status);
  if (mix.empty()) {
    std::cerr << "error: the daemon serves no native circuit and no Filecoin PoSt circuit to stress\n";
    return kExitUsage;
  }
  const pb::Priority prios[] = {pb::PRIORITY_UNSPECIFIED, pb::PRIORITY_LOW, pb::PRIORITY_NORMAL, pb::PRIORITY_HIGH,
                                pb::PRIORITY_CRITICAL};
  Verifier verifier(client);
  struct Record {
    std::string label;
    pb::Priority priority;
    Outcome outcome;
  };
  std::mutex mu;
  std::vector<Record> records;
  std::atomic<int> issued{0}, done{0}, failed{0};
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                            std::chrono::duration<double>(a.duration_s));
  Progress progress(0, a.progress, "stress");
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < a.concurrency; ++t)
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(a.seed * 1000003 + static_cast<std::uint64_t>(t));
      while (std::chrono::steady_clock::now() < until && issued.fetch_add(1) < a.max_jobs) {
        const MixEntry& m = mix[rng() % mix.size()];
        const pb::Priority p = prios[rng() % 5];
        pb::ProofRequest req;
        req.set_kind(m.kind);
        req.set_circuit_id(m.circuit);
        req.set_priority(p);
        Outcome o;
        if (m.post.empty()) {
          req.set_native_seed(rng());
          o = prove_one(client, req, c.timeout_s, c.verify ? &verifier : nullptr);
        } else {
          try {
            const std::uint32_t proof = m.post[rng() % m.post.size()];
            const PostJob job = synthetic_post_job(proof, rng());
            *req.mutable_post() = job.request;
            o = prove_one(client, req, c.timeout_s, c.verify ? &verifier : nullptr, job.expect);
          } catch (const std::exception& e) {
            o.rpc = grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, std::string("not sent: ") + e.what());
          }
        }
        if (!o.ok()) failed.fetch_add(1);
        progress.update(done.fetch_add(1) + 1, failed.load());
        std::lock_guard lock(mu);
        records.push_back({m.label, o.result.priority() != pb::PRIORITY_UNSPECIFIED ? o.result.priority() : p, std::move(o)});
      }
    });
  for (auto& th : threads) th.join();
  progress.finish();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  struct Group {
    int n = 0, ok = 0;
    std::vector<double> lat;
  };
  std::map<std::pair<std::string, std::string>, Group> groups;
  int ok = 0, verified = 0;
  for (const Record& r : records) {
    verified += r.outcome.verified ? 1 : 0;
    Group& g = groups[{r.label, priority_name(r.priority)}];
    ++g.n;
    if (r.outcome.ok()) {
      ++g.ok;
      ++ok;
      g.lat.push_back(r.outcome.latency_s);
    } else {
      const Outcome& o = r.outcome;
      std::cerr << "failed: " << r.label << ": "
                << (!o.rpc.ok() ? o.rpc.error_message() : !o.verify_error.empty() ? o.verify_error : o.result.error()) << "\n";
    }
  }
  std::printf("stress: %zu proofs in %.1f s (%.2f proofs/s), concurrency %d, succeeded %d, failed %zu", records.size(),
              wall, wall > 0 ? ok / wall : 0.0, a.concurrency, ok, records.size() - static_cast<std::size_t>(ok));
  if (c.verify) std::printf(", verified by cuzk-bench %d/%zu", verified, records.size());
  std::printf("\n");
  int width = 28;
  for (const auto& [key, g] : groups) width = std::max(width, static_cast<int>(key.first.size()));
  std::printf("  %-*s %-9s %6s %6s %11s %11s\n", width, "kind/circuit", "priority", "proofs", "ok", "p50 ms", "p99 ms");
  for (const auto& [key, g] : groups)
    std::printf("  %-*s %-9s %6d %6d %11.1f %11.1f\n", width, key.first.c_str(), key.second.c_str(), g.n, g.ok,
                percentile(g.lat, 50) * 1e3, percentile(g.lat, 99) * 1e3);
  return static_cast<std::size_t>(ok) == records.size() ? kExitOk : kExitProofsFailed;
}

}  // namespace cuzk::bench
