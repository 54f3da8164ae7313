// in_process_prove.hpp: an engine with one .zkey circuit and one worker, one request.
#include "in_process_prove.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "cuzk/engine/config.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/gpu_probe.hpp"

namespace cuzk::prover {

namespace {

constexpr const char* kCircuitId = "zkey";

// The machine's memory: the engine's host budget (keys and per-proof memory), so that a proof
// that fits the machine is never refused by a smaller default.
std::uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return engine::EngineConfig{}.host_budget_bytes;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

engine::EngineConfig one_circuit(const std::string& zkey_path, engine::Backend backend) {
  engine::EngineConfig c;
  c.backend = backend;
  c.devices = 1;
  c.workers_per_device = 1;
  c.max_batch_size = 1;
  c.synthesis_concurrency = 1;
  c.pipeline_depth = 1;
  c.host_budget_bytes = physical_memory();
  c.filecoin_parameter_dir.clear();  // no Filecoin circuits
  c.filecoin_preload_winning_post = false;
  engine::CircuitSpec spec;
  spec.id = kCircuitId;
  spec.zkey_path = zkey_path;
  c.circuits.push_back(spec);
  return c;
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

void print_phases(const std::string& title, const std::vector<engine::PhaseTiming>& phases) {
  std::fprintf(stderr, "%s\n", title.c_str());
  for (const auto& t : phases) std::fprintf(stderr, "  %-14s %10.2f ms\n", t.phase.c_str(), t.ms);
}

InProcessProof prove_in_process(const std::string& zkey_path, std::string wtns, const std::string& wtns_name,
                                BackendPlan plan) {
  InProcessProof out;
  out.notes = std::move(plan.notes);
  engine::Backend chosen = plan.backend;
  std::unique_ptr<engine::Engine> e;
  try {
    e = std::make_unique<engine::Engine>(one_circuit(zkey_path, chosen));
  } catch (const std::exception& ex) {
    // A GPU chosen by auto that the engine cannot start on: the CPU still proves.
    if (!plan.cpu_fallback) throw std::runtime_error(ex.what());
    out.warning = std::string("proved on the CPU: the CUDA backend did not start: ") + ex.what();
    chosen = engine::Backend::cpu;
    e = std::make_unique<engine::Engine>(one_circuit(zkey_path, chosen));
  }
  engine::ProofRequest req;
  req.kind = engine::ProofKind::kGroth16;
  req.circuit_id = kCircuitId;
  req.wtns = std::move(wtns);
  req.wtns_name = wtns_name;
  engine::ProofResult r = e->prove(std::move(req), std::chrono::hours(24 * 365));
  if (r.code != engine::ErrorCode::kOk) throw std::runtime_error(r.error);
  out.proof_json = std::move(r.proof_json);
  out.public_json = std::move(r.public_json);
  out.backend = std::string(engine::backend_name(chosen));
  out.timings = std::move(r.timings);
  return out;
}

}  // namespace cuzk::prover
