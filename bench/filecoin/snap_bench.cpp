// Filecoin SnapDeals timings (a plain main; see bench/RESULTS.md). Arguments after the mode in any
// order: a sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB; default 32GiB), a repetition count,
// flags.
//   snap_bench synth [SIZE] [REPS] [--all]
//       the CPU side of a SnapDeals proof from a SYNTHETIC sparse update (snap_bench_util.hpp):
//       every partition's bincode PartitionProof decoded and checked (what the daemon does at
//       submit), the circuit's size and its recording (record_snap_circuit, once per key load),
//       then partition 0's witness on every core (snap_witness_full: challenges in parallel,
//       oneTBB) with the public-input check, best of REPS (default 3); with --all every
//       partition once.
//   snap_bench gpu [SIZE] [REPS]   (CUDA builds) one partition proved on the GPU, end to end but
//       for the key's points (snap_gpu_bench.cpp); REPS default 2.
//   snap_bench pipeline [SIZE]   (CUDA builds) every partition of the size synthesized and proved
//       on the GPU as one pipelined run, the way the daemon proves a request (snap_gpu_bench.cpp).
// CUZK_BENCH_THREADS limits the threads; the GPU layer's CUZK_* variables (gpu::tuning_from_environment,
// read by main) tune the device work.

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "cuzk/filecoin/snap_record.hpp"
#include "cuzk/gpu/tuning.hpp"
#include "snap_bench_util.hpp"

namespace cuzk::bench {

void run_snap_gpu_bench(filecoin::RegisteredUpdateProof proof, int reps, const gpu::Tuning& tuning);
void run_snap_pipeline_bench(filecoin::RegisteredUpdateProof proof, const gpu::Tuning& tuning);

namespace {

namespace fc = filecoin;

struct Args {
  std::string mode = "synth";
  std::string size = "32GiB";
  std::optional<int> reps;
  bool all = false;
};

Args parse_args(int argc, char** argv) {
  Args a;
  if (argc > 1) a.mode = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string s = argv[i];
    if (s == "--all") a.all = true;
    else if (s.find_first_not_of("0123456789") == std::string::npos) a.reps = std::max(1, std::stoi(s));
    else if (!s.empty() && s[0] != '-') a.size = s;
    else throw std::invalid_argument("unknown argument " + s);
  }
  return a;
}

void run_synth(fc::RegisteredUpdateProof proof, const Args& a) {
  const fc::UpdateProofInfo& info = fc::update_proof_info(proof);
  const int reps = a.reps.value_or(3);
  std::printf("%s (SYNTHETIC sparse update: 4,096 nodes carry data), %d threads\n", std::string(info.name).c_str(),
              bench_threads());
  const SnapInput in = snap_input(proof);
  std::size_t bytes = 0;
  for (const auto& p : in.partitions) bytes += p.size();
  std::printf("  update generated and %zu partition proofs encoded (%.1f MiB) in %.0f ms\n", in.partitions.size(),
              bytes / double(1 << 20), in.generate_ms);
  double check = 1e30;
  std::optional<CheckedSnap> c;
  for (int r = 0; r < reps; ++r) {
    c = decode_and_check(in);
    check = std::min(check, c->check_ms);
  }
  std::printf("  submit: every partition decoded and checked (snap_partition_circuit, in parallel) %9.1f ms\n", check);

  auto t0 = std::chrono::steady_clock::now();
  const fc::SnapCircuitSize n = fc::snap_circuit_size(in.update.params);
  std::printf("  circuit: %llu constraints, %llu variables (%llu public inputs), A/B/C %llu/%llu/%llu terms "
              "(snap_circuit_size %.0f ms)\n",
              (unsigned long long)n.constraints, (unsigned long long)n.vars, (unsigned long long)n.public_inputs,
              (unsigned long long)n.a_nnz, (unsigned long long)n.b_nnz, (unsigned long long)n.c_nnz, ms_since(t0));
  t0 = std::chrono::steady_clock::now();
  { const auto r = fc::record_snap_circuit(in.update.params); }
  std::printf("  recorded (record_snap_circuit: header + one challenge, replicated; freed) %9.1f ms\n", ms_since(t0));

  double synth = 1e30;
  bool match = true;
  for (int r = 0; r < reps; ++r) {
    const SnapPartitionWitness pw = snap_partition_witness(in, *c, 0);
    if (pw.w.size() != n.vars) throw std::runtime_error("the witness does not have the circuit's variables");
    synth = std::min(synth, pw.synth_ms);
    match = match && pw.inputs_match;
  }
  std::printf("  partition 0: witness synthesized (%llu wires, %.2f GiB) %9.1f ms: %s\n", (unsigned long long)n.vars,
              n.vars * 32.0 / double(std::size_t{1} << 30), synth,
              match ? "its public inputs are the verifier's" : "public inputs DIFFER");
  if (a.all) {
    double total = synth;
    for (std::size_t k = 1; k < in.partitions.size(); ++k) {
      const SnapPartitionWitness pw = snap_partition_witness(in, *c, k);
      std::printf("  partition %zu: %9.1f ms%s\n", k, pw.synth_ms, pw.inputs_match ? "" : " (public inputs DIFFER)");
      total += pw.synth_ms;
      match = match && pw.inputs_match;
    }
    std::printf("  all %zu partitions synthesized one after another: %.1f s (partition 0 best of %d, others once)\n",
                in.partitions.size(), total / 1e3, reps);
  }
  std::printf("(best of %d)\n", reps);
  if (!match) throw std::runtime_error("a partition's public inputs are not those a verifier derives");
}

}  // namespace
}  // namespace cuzk::bench

int main(int argc, char** argv) {
  using namespace cuzk;
  return bench::bench_main("snap_bench synth|gpu|pipeline [sector size, default 32GiB] [reps] [--all]", [&] {
    const bench::Args a = bench::parse_args(argc, argv);
    const filecoin::RegisteredUpdateProof proof = bench::update_proof_of_size(a.size);
    if (a.mode == "synth") bench::run_synth(proof, a);
#ifdef CUZK_SNAP_BENCH_GPU
    else if (a.mode == "gpu")
      bench::run_snap_gpu_bench(proof, a.reps.value_or(2), gpu::tuning_from_environment());
    else if (a.mode == "pipeline")
      bench::run_snap_pipeline_bench(proof, gpu::tuning_from_environment());
#endif
    else return false;
    return true;
  });
}
