// One Groth16 proof of a snarkjs .zkey and a circom .wtns through the proving engine, in this
// process: the daemon's prove path (key load, witness checks, the CUDA backend on a GPU or the CPU
// backend, the proof verified before it is returned: the engine never hands out one that does
// not verify).
#pragma once

#include <optional>
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

struct InProcessProof {
  std::string proof_json;   // snarkjs proof.json (pi_a, pi_b, pi_c, protocol, curve)
  std::string public_json;  // snarkjs public.json
  std::string backend;      // "cuda" or "cpu": where it was proved
  std::vector<engine::PhaseTiming> timings;
  std::vector<std::string> notes;  // why the backend was chosen (no GPU, ...)
  std::string warning;             // a GPU that was there but did not start: the CPU proved
};

// `wtns`: the .wtns file's bytes, moved into the engine's request (wtns_name, its path, is named
// in the errors about it). Throws std::runtime_error with
// the engine's reason when the inputs are refused or no proof verifies (a witness that does not
// satisfy the circuit).
// With auto, a GPU that is there but on which the engine does not start leaves the proof to the
// CPU (said in `warning`); an explicit cuda fails instead.
// The proof's phases as the engine timed them (its "total", the request's wall time, last), one a
// line after `title`, on stderr.
void print_phases(const std::string& title, const std::vector<engine::PhaseTiming>& phases);

InProcessProof prove_in_process(const std::string& zkey_path, std::string wtns, const std::string& wtns_name,
                                BackendPlan plan);

}  // namespace cuzk::prover
