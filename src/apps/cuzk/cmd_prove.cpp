// cuzk prove --zkey c.zkey --wtns w.wtns --proof proof.json --public public.json [--backend auto|cpu|cuda]
//
// The proof goes through the proving engine in this process, the daemon's path
// (in_process_prove.hpp): on the GPU (cuda, or auto where a GPU this build runs on is present)
// or on the CPU, verified before it is written.
#include <iostream>

#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "files.hpp"
#include "in_process_prove.hpp"

namespace cuzk::cli {

namespace {

int prove_through_engine(const ProveArgs& a, prover::BackendPlan plan) {
  spdlog::set_level(spdlog::level::err);  // the engine's progress lines; errors come back in the result
  prover::InProcessProof p = prover::prove_in_process(a.zkey, read_text_file(a.wtns), a.wtns, std::move(plan));
  write_text_file(a.proof, p.proof_json + "\n");
  write_text_file(a.pub, p.public_json + "\n");
  if (!p.warning.empty()) std::cerr << "warning: " << p.warning << "\n";
  if (!a.quiet)
    prover::print_phases("proved and verified through the engine on the " + p.backend + " backend", p.timings);
  return 0;
}

}  // namespace

int run_prove(const ProveArgs& a) {
  return reading_inputs({a.zkey, a.wtns}, [&] {
    return prove_through_engine(a, prover::plan_backend(prover::parse_backend_choice(a.backend, "--backend")));
  });
}

}  // namespace cuzk::cli
