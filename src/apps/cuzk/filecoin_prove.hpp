// The prove step of the Filecoin subcommands (`cuzk post | porep | snap prove`): the request
// proved through the proving engine in this process, the daemon's path (in_process_prove.hpp:
// the engine serving the parameter directory's circuits, on the GPU where one this build runs on
// is present, else the CPU; every proof verified with the .vk before it is returned), the key
// files checked before the engine starts, and the phase printout.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/engine/types.hpp"
#include "cuzk/filecoin/circuit_keys.hpp"
#include "cuzk/groth16/timings.hpp"
#include "in_process_prove.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace cuzk::cli {

// A prove command's `--backend auto|cpu|cuda` into `backend`.
void add_backend_option(CLI::App* cmd, std::string& backend);

// The key the engine will load: its files required (else the message names the missing one and
// setup_command), a warning printed when it is a TEST key. Returns whether it is one.
bool require_cli_key(const filecoin::KeyPaths& paths, std::string_view circuit, std::string_view setup_command);

// Proves `request` through an engine serving its Filecoin circuit from params_dir (its key checked
// by require_cli_key first), on `backend` ("auto", "cpu", "cuda": prover::plan_backend).
// A request proved as partitions prints each partition's phases as it ends ("partition k:"),
// unless quiet; a CPU fallback's warning is printed. Throws std::runtime_error with the engine's
// reason and "; nothing written" when the request is refused or a proof does not verify.
prover::InProcessResult prove_filecoin(const std::string& params_dir, const std::string& backend,
                                       engine::ProofRequest request, bool quiet);

// Prints the command's own phases ("  name   12.34 ms") to stderr and adds them to total.
void print_phases(const groth16::PhaseTimings& t, double& total);

// Prints the engine's phases but its "total" (the request's wall time), which it returns.
double print_engine_phases(const std::vector<engine::PhaseTiming>& phases);

// "  total   12.34 ms".
void print_total(double ms);

// The printout and output file of a command whose request the engine proves as partitions
// (porep, snap): the circuit and the preparation phases before proving, each partition's phases as
// it ends (prove_filecoin), then the proofs written and the summary. Nothing is printed when quiet.
class PartitionPrintout {
 public:
  PartitionPrintout(bool quiet, std::string_view name, bool test_key);
  // "<name>: N partition(s) of C challenges each" and the preparation phases.
  void header(std::size_t partitions, std::size_t challenges, const groth16::PhaseTimings& prep);
  // Writes the partitions' proofs (joined by the engine, 192 bytes each) to `path`, then prints
  // the total and "proved <name> on the <backend> backend: N partition proof(s) (M public inputs
  // each) -> <path>, B bytes[ (TEST key)]".
  void write(const std::string& path, const prover::InProcessResult& r) const;

 private:
  bool quiet_, test_key_;
  std::string name_;
  double prep_ms_ = 0;
};

}  // namespace cuzk::cli
