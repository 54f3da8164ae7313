// cuzk prove --zkey c.zkey --wtns w.wtns --proof proof.json --public public.json [--backend auto|cpu|cuda]
//
// On the GPU (cuda, or auto where a GPU this build runs on is present) the proof goes through
// the proving engine in this process, the daemon's path (in_process_prove.hpp); on the CPU it is
// proved here directly (the same prover and verification the engine's CPU backend runs, with
// errors that name the malformed file). Either way the proof is verified before it is written.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "cuzk/groth16/cpu_backend.hpp"
#include "cuzk/groth16/curve_dispatch.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/r1cs/wtns.hpp"
#include "files.hpp"
#ifdef CUZK_CLI_IN_PROCESS
#include <spdlog/spdlog.h>

#include "in_process_prove.hpp"
#endif

namespace cuzk::cli {

namespace {

void print_timings(const std::string& title, const std::vector<std::pair<std::string, double>>& phases) {
  std::fprintf(stderr, "%s\n", title.c_str());
  double total = 0;
  for (const auto& [name, ms] : phases) {
    std::fprintf(stderr, "  %-14s %10.2f ms\n", name.c_str(), ms);
    total += ms;
  }
  std::fprintf(stderr, "  %-14s %10.2f ms\n", "total", total);
}

int prove_on_cpu(const ProveArgs& a) {
  const io::BinFile zkey = io::BinFile::open(a.zkey, groth16::zkey_detail::kZkeyFile);
  return groth16::dispatch_curve(groth16::zkey_curve(zkey), [&]<class E>() {
    using Fr = typename E::Fr;
    groth16::PhaseTimings t;
    groth16::ProvingKey<E> pk;
    {
      groth16::ScopedPhase p(t, "load_key");
      pk = groth16::read_zkey<E>(zkey);
    }
    std::vector<Fr> w;
    {
      groth16::ScopedPhase p(t, "load_witness");
      w = r1cs::read_wtns_file<Fr>(a.wtns);
    }
    groth16::CpuBackend<E> backend;
    const groth16::Proof<E> proof = groth16::prove_verified(pk, std::span<const Fr>(w), backend, t);
    const std::span<const Fr> pub = std::span<const Fr>(w).subspan(1, pk.num_public());
    write_text_file(a.proof, groth16::proof_to_json<E>(proof).dump(1) + "\n");
    write_text_file(a.pub, groth16::public_to_json<Fr>(pub).dump(1) + "\n");
    if (!a.quiet)
      print_timings("proved " + std::string(E::kName) + " circuit: " + std::to_string(pk.num_vars) + " variables, " +
                        std::to_string(pk.num_public()) + " public, domain 2^" +
                        std::to_string(__builtin_ctzll(pk.domain_size)) + " (backend " + std::string(backend.name()) +
                        ")",
                    {t.phases.begin(), t.phases.end()});
    return 0;
  });
}

#ifdef CUZK_CLI_IN_PROCESS
int prove_through_engine(const ProveArgs& a, prover::BackendPlan plan) {
  spdlog::set_level(spdlog::level::err);  // the engine's progress lines; errors come back in the result
  prover::InProcessProof p = prover::prove_in_process(a.zkey, read_text_file(a.wtns), std::move(plan));
  write_text_file(a.proof, p.proof_json + "\n");
  write_text_file(a.pub, p.public_json + "\n");
  if (!p.warning.empty()) std::cerr << "warning: " << p.warning << "\n";
  if (!a.quiet) {
    std::vector<std::pair<std::string, double>> phases;
    for (const auto& t : p.timings) phases.emplace_back(t.phase, t.ms);
    print_timings("proved and verified through the engine on the " + p.backend + " backend", phases);
  }
  return 0;
}
#endif

}  // namespace

int run_prove(const ProveArgs& a) {
  return reading_inputs({a.zkey, a.wtns}, [&] {
#ifdef CUZK_CLI_IN_PROCESS
    prover::BackendPlan plan = prover::plan_backend(prover::parse_backend_choice(a.backend, "--backend"));
    if (plan.backend == engine::Backend::cuda) return prove_through_engine(a, std::move(plan));
#else
    if (a.backend == "cuda") throw std::invalid_argument("--backend cuda: this cuzk was built without the engine");
#endif
    return prove_on_cpu(a);
  });
}

}  // namespace cuzk::cli
