// One proof through the proving engine, in this process: the daemon's prove path (key load,
// input checks, the CUDA backend on a GPU or the CPU backend, the proof verified before it is
// returned: the engine never hands out one that does not verify). `cuzk prove` and cuzk-prover
// prove a snarkjs .zkey with a .wtns; `cuzk post | porep | snap prove` prove Filecoin requests
// with the circuits of a parameter directory. One engine, one worker, one request.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/engine/config.hpp"
#include "cuzk/engine/types.hpp"

namespace cuzk::prover {

// A backend, or none: auto (CUDA when this build has it and a GPU it runs on, else the CPU).
using BackendChoice = std::optional<engine::Backend>;

// "auto" (or ""), "cpu", "cuda"; throws std::invalid_argument naming `what` otherwise.
BackendChoice parse_backend_choice(const std::string& text, const std::string& what);

// Where a choice proves here: auto asks the GPU probe once (why not CUDA goes into notes) and may
// still fall back to the CPU if the engine does not start on the GPU.
struct BackendPlan {
  engine::Backend backend = engine::Backend::cpu;
  bool cpu_fallback = false;  // auto chose CUDA
  std::vector<std::string> notes;
};
BackendPlan plan_backend(BackendChoice choice);

// What the engine serves for the request: a .zkey (as circuit kZkeyCircuitId), or the Filecoin
// circuit (PoSt, PoRep, SnapDeals) of the request (engine::filecoin_circuit_id) from the key files
// in a parameter directory. Exactly one.
inline constexpr const char* kZkeyCircuitId = "zkey";
struct Served {
  std::string zkey_path;
  std::string filecoin_parameter_dir;
};

struct InProcessResult {
  engine::ProofResult result;  // code kOk: proof_json, public_json, proof_bytes, the engine's timings
  // A request the engine proves as partitions (PoRep, SnapDeals): each partition's result (its
  // phases), in partition order; empty for a single proof.
  std::vector<engine::ProofResult> partitions;
  std::string backend;             // "cuda" or "cpu": where it was proved
  std::vector<std::string> notes;  // why the backend was chosen (no GPU, ...)
  std::string warning;             // a GPU that was there but did not start: the CPU proved
};

// What prove_in_process throws when the engine refuses the request or no proof verifies: the
// engine's reason and code.
class EngineFailure : public std::runtime_error {
 public:
  EngineFailure(engine::ErrorCode code, const std::string& reason) : std::runtime_error(reason), code_(code) {}
  engine::ErrorCode code() const { return code_; }

 private:
  engine::ErrorCode code_;
};

// Called as each partition's proof is made (partition k, its result), before the request ends.
using PartitionDone = std::function<void(std::size_t, const engine::ProofResult&)>;

// Proves `request` with an engine serving `served`. Throws EngineFailure when the inputs are
// refused or no proof verifies, std::runtime_error when the engine does not start. With auto, a GPU that is there but on
// which the engine does not start leaves the proof to the CPU (said in `warning`); an explicit
// cuda fails instead.
InProcessResult prove_in_process(const Served& served, engine::ProofRequest request, BackendPlan plan,
                                 const PartitionDone& on_partition = {});

// One phase's line on stderr, "  name   12.34 ms": the layout of every prove command's printout.
void print_phase(const std::string& name, double ms);
// The proof's phases as the engine timed them (its "total", the request's wall time, last), one a
// line after `title`, on stderr.
void print_phases(const std::string& title, const std::vector<engine::PhaseTiming>& phases);
// The engine's "total" phase of a result: the request's wall time (0 when absent).
double engine_total_ms(const std::vector<engine::PhaseTiming>& phases);

// A .zkey and a circom .wtns (`wtns`: the file's bytes, moved into the request; wtns_name, its
// path, is named in the errors about it), through prove_in_process.
struct InProcessProof {
  std::string proof_json;   // snarkjs proof.json (pi_a, pi_b, pi_c, protocol, curve)
  std::string public_json;  // snarkjs public.json
  std::string backend;      // "cuda" or "cpu": where it was proved
  std::vector<engine::PhaseTiming> timings;
  std::vector<std::string> notes;  // why the backend was chosen (no GPU, ...)
  std::string warning;             // a GPU that was there but did not start: the CPU proved
};
InProcessProof prove_in_process(const std::string& zkey_path, std::string wtns, const std::string& wtns_name,
                                BackendPlan plan);

}  // namespace cuzk::prover
