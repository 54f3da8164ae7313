// The Filecoin prove commands' step through the engine (filecoin_prove.hpp).
#include "filecoin_prove.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <stdexcept>
#include <utility>

#include "cuzk/groth16/bellperson_io.hpp"
#include "files.hpp"

namespace cuzk::cli {

void add_backend_option(CLI::App* cmd, std::string& backend) {
  cmd->add_option("--backend", backend,
                  "cuda: on the GPU through the proving engine (the daemon's path); cpu; auto: the GPU when one this "
                  "build runs on is present")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
}

bool require_cli_key(const filecoin::KeyPaths& paths, std::string_view circuit, std::string_view setup_command) {
  filecoin::require_key_files(paths, circuit, setup_command);
  const bool test = filecoin::is_test_key(paths);
  if (test)
    std::fprintf(stderr,
                 "WARNING: %s is a cuzk TEST key, not Filecoin's official one: this proof is not valid on chain\n",
                 paths.params.c_str());
  return test;
}

prover::InProcessResult prove_filecoin(const std::string& params_dir, const std::string& backend,
                                       engine::ProofRequest request, bool quiet) {
  prover::BackendPlan plan = prover::plan_backend(prover::parse_backend_choice(backend, "--backend"));
  spdlog::set_level(spdlog::level::err);  // the engine's progress lines; errors come back in the result
  prover::PartitionDone on_partition;
  if (!quiet)
    on_partition = [](std::size_t k, const engine::ProofResult& r) {
      std::fprintf(stderr, "partition %zu:\n", k);
      print_engine_phases(r.timings);
    };
  prover::Served served;
  served.filecoin_parameter_dir = params_dir.empty() ? "." : params_dir;
  prover::InProcessResult r;
  try {
    r = prover::prove_in_process(served, std::move(request), std::move(plan), on_partition);
  } catch (const std::runtime_error& e) {  // the engine's reason (a key it left out says why)
    throw std::runtime_error(std::string(e.what()) + "; nothing written");
  }
  if (!r.warning.empty()) std::fprintf(stderr, "warning: %s\n", r.warning.c_str());
  return r;
}

void print_phases(const groth16::PhaseTimings& t, double& total) {
  for (const auto& [name, ms] : t.phases) {
    prover::print_phase(name, ms);
    total += ms;
  }
}

double print_engine_phases(const std::vector<engine::PhaseTiming>& phases) {
  for (const auto& t : phases)
    if (t.phase != "total") prover::print_phase(t.phase, t.ms);
  return prover::engine_total_ms(phases);
}

void print_total(double ms) { prover::print_phase("total", ms); }

PartitionPrintout::PartitionPrintout(bool quiet, std::string_view name, bool test_key)
    : quiet_(quiet), test_key_(test_key), name_(name) {}

void PartitionPrintout::header(std::size_t partitions, std::size_t challenges, const groth16::PhaseTimings& prep) {
  if (quiet_) return;
  std::fprintf(stderr, "%s: %zu partition(s) of %zu challenges each\n", name_.c_str(), partitions, challenges);
  print_phases(prep, prep_ms_);
}

void PartitionPrintout::write(const std::string& path, const prover::InProcessResult& r) const {
  const std::vector<std::uint8_t>& bytes = r.result.proof_bytes;
  write_text_file(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (quiet_) return;
  print_total(prep_ms_ + prover::engine_total_ms(r.result.timings));
  // The engine's public.json of a partitioned request: one array of decimal strings per partition.
  const nlohmann::json pub = nlohmann::json::parse(r.result.public_json, nullptr, false);
  const std::size_t num_inputs = pub.is_array() && !pub.empty() && pub[0].is_array() ? pub[0].size() : 0;
  std::fprintf(stderr,
               "proved %s on the %s backend: %zu partition proof(s) (%zu public inputs each) -> %s, %zu bytes%s\n",
               name_.c_str(), r.backend.c_str(), bytes.size() / groth16::kBellpersonProofSize, num_inputs, path.c_str(),
               bytes.size(), test_key_ ? " (TEST key)" : "");
}

}  // namespace cuzk::cli
