// in_process_prove.hpp: an engine with one worker serving a .zkey or a parameter directory's
// Filecoin circuits, one request.
#include "in_process_prove.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/gpu_probe.hpp"

namespace cuzk::prover {

namespace {

constexpr std::chrono::milliseconds kNoDeadline = std::chrono::hours(24 * 365);

// The machine's memory: the engine's host budget (keys and per-proof memory), so that a proof
// that fits the machine is never refused by a smaller default.
std::uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return engine::EngineConfig{}.host_budget_bytes;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

// filecoin_circuit: the Filecoin request's circuit, the only one served (each one served costs
// seconds at start); "" for a .zkey.
engine::EngineConfig one_request(const Served& served, const std::string& filecoin_circuit, engine::Backend backend) {
  engine::EngineConfig c;
  c.backend = backend;
  c.devices = 1;
  c.workers_per_device = 1;
  c.max_batch_size = 1;
  c.synthesis_concurrency = 1;
  c.pipeline_depth = 1;
  c.host_budget_bytes = physical_memory();
  // cpu: the simulated device is this machine, whose memory the host budget already bounds
  // (its 4 GiB default would refuse a PoRep key the machine holds).
  if (backend == engine::Backend::cpu) c.vram_budget_bytes = c.host_budget_bytes;
  c.filecoin_parameter_dir = served.filecoin_parameter_dir;  // empty: no Filecoin circuits
  if (!filecoin_circuit.empty()) c.filecoin_circuits = {filecoin_circuit};
  c.filecoin_preload_winning_post = false;  // loaded by the one request that needs it
  if (!served.zkey_path.empty()) {
    engine::CircuitSpec spec;
    spec.id = kZkeyCircuitId;
    spec.zkey_path = served.zkey_path;
    c.circuits.push_back(spec);
  }
  return c;
}

// The engine's partition jobs of request `id` (`<id>/partition-<k>`, k the partition's number),
// awaited in order and handed to on_partition: partition `only` alone when given (a PoRep request
// for one partition), else from 0 on; stops at the first that is not there (a single proof) or
// did not succeed (the request fails with it).
std::vector<engine::ProofResult> await_partitions(engine::Engine& e, const std::string& id,
                                                  std::optional<std::size_t> only, const PartitionDone& on_partition) {
  std::vector<engine::ProofResult> out;
  for (std::size_t k = only.value_or(0);; ++k) {
    std::optional<engine::ProofResult> p = e.await(id + "/partition-" + std::to_string(k), kNoDeadline);
    if (!p || p->code != engine::ErrorCode::kOk) break;
    if (on_partition) on_partition(k, *p);
    out.push_back(std::move(*p));
    if (only) break;
  }
  return out;
}

}  // namespace

BackendChoice parse_backend_choice(const std::string& text, const std::string& what) {
  if (text.empty() || text == "auto") return std::nullopt;
  if (const auto b = engine::parse_backend(text)) return b;
  throw std::invalid_argument(what + "=\"" + text + "\": expected auto, cpu or cuda");
}

BackendPlan plan_backend(BackendChoice choice) {
  BackendPlan plan;
  if (choice) {
    plan.backend = *choice;
    return plan;
  }
  const engine::GpuProbe p = engine::probe_gpus();
  if (p.any_supported()) {
    plan.backend = engine::Backend::cuda;
    plan.cpu_fallback = true;
  } else if (!p.cuda_built || p.devices.empty()) {
    plan.notes.push_back("proving on the CPU: " + p.no_device_reason);
  } else {
    plan.notes.push_back("proving on the CPU: " + p.devices.front().why_unsupported);
  }
  return plan;
}

void print_phase(const std::string& name, double ms) { std::fprintf(stderr, "  %-14s %10.2f ms\n", name.c_str(), ms); }

void print_phases(const std::string& title, const std::vector<engine::PhaseTiming>& phases) {
  std::fprintf(stderr, "%s\n", title.c_str());
  for (const auto& t : phases) print_phase(t.phase, t.ms);
}

double engine_total_ms(const std::vector<engine::PhaseTiming>& phases) {
  for (const auto& t : phases)
    if (t.phase == "total") return t.ms;
  return 0;
}

InProcessResult prove_in_process(const Served& served, engine::ProofRequest request, BackendPlan plan,
                                 const PartitionDone& on_partition) {
  if (served.zkey_path.empty() == served.filecoin_parameter_dir.empty())
    throw std::logic_error("prove_in_process serves a .zkey or a Filecoin parameter directory");
  InProcessResult out;
  out.notes = std::move(plan.notes);
  const std::string fc = served.filecoin_parameter_dir.empty() ? "" : engine::filecoin_circuit_id(request);
  engine::Backend chosen = plan.backend;
  std::unique_ptr<engine::Engine> e;
  try {
    e = std::make_unique<engine::Engine>(one_request(served, fc, chosen));
  } catch (const std::exception& ex) {
    // A GPU chosen by auto that the engine cannot start on: the CPU still proves.
    if (!plan.cpu_fallback) throw std::runtime_error(ex.what());
    out.warning = std::string("proved on the CPU: the CUDA backend did not start: ") + ex.what();
    chosen = engine::Backend::cpu;
    e = std::make_unique<engine::Engine>(one_request(served, fc, chosen));
  }
  std::optional<std::size_t> only;
  if (request.porep && request.porep->partition) only = *request.porep->partition;
  const engine::SubmitOutcome s = e->submit(std::move(request));
  if (s.code != engine::ErrorCode::kOk) throw EngineFailure(s.code, s.error);
  out.partitions = await_partitions(*e, s.request_id, only, on_partition);
  std::optional<engine::ProofResult> r = e->await(s.request_id, kNoDeadline);
  if (!r) throw std::runtime_error("request " + s.request_id + " did not end");
  if (r->code != engine::ErrorCode::kOk) throw EngineFailure(r->code, r->error);
  out.result = std::move(*r);
  out.backend = std::string(engine::backend_name(chosen));
  return out;
}

InProcessProof prove_in_process(const std::string& zkey_path, std::string wtns, const std::string& wtns_name,
                                BackendPlan plan) {
  engine::ProofRequest req;
  req.kind = engine::ProofKind::kGroth16;
  req.circuit_id = kZkeyCircuitId;
  req.wtns = std::move(wtns);
  req.wtns_name = wtns_name;
  InProcessResult r = prove_in_process(Served{zkey_path, {}}, std::move(req), std::move(plan));
  InProcessProof out;
  out.proof_json = std::move(r.result.proof_json);
  out.public_json = std::move(r.result.public_json);
  out.backend = std::move(r.backend);
  out.timings = std::move(r.result.timings);
  out.notes = std::move(r.notes);
  out.warning = std::move(r.warning);
  return out;
}

}  // namespace cuzk::prover
