// Filecoin PoSt timings (a plain main; see bench/RESULTS.md):
//   post_bench synth [PROOF] [REPS]   the CPU side of one partition: the vanilla proofs decoded
//                                     and checked, the partition's witness synthesized slot by
//                                     slot on every core (TBB), the recorded system (one slot
//                                     replicated); PROOF a registered PoSt id (default 8, the
//                                     32 GiB WindowPoSt, proved from the real vanilla proof)
//   post_bench gpu [PROOF] [REPS]     (CUDA builds) the whole proof of one partition on the GPU:
//                                     check, synthesis, the device work with the engine's key
//                                     layout, and a verification of its cost; see post_gpu_bench.cpp
// CUZK_BENCH_THREADS limits the threads. Data: tests/filecoin/data (CUZK_FILECOIN_DATA). The GPU
// layer's CUZK_* variables (gpu::tuning_from_environment, read by main) tune the device work.

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "cuzk/gpu/tuning.hpp"
#include "post_bench_util.hpp"

namespace cuzk::bench {

void run_post_gpu_bench(filecoin::RegisteredPoStProof proof, const std::filesystem::path& data, int reps,
                        const gpu::Tuning& tuning);

namespace {

namespace fc = filecoin;

void run_synth(fc::RegisteredPoStProof proof, const std::filesystem::path& data, int reps) {
  const auto& info = fc::post_proof_info(proof);
  const PostInput in = post_input(proof, data, 1);
  std::printf("%s: %s, %d threads\n", std::string(info.name).c_str(), in.source.c_str(),
              bench_threads());
  double check = 1e30, synth = 1e30;
  std::size_t vars = 0;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    const fc::PostPartition part = fc::prepare_post_partition(partition_inputs(in));
    check = std::min(check, ms_since(t0));
    t0 = std::chrono::steady_clock::now();
    const auto w = gadgets::circuits::parallel_witness_full<fc::Fr>(part.circuit);
    synth = std::min(synth, ms_since(t0));
    vars = w.size();
  }
  std::printf("  vanilla proofs decoded and checked   %9.1f ms\n", check);
  std::printf("  witness synthesized (%zu wires, %.2f GiB) %9.1f ms\n", vars, vars * 32.0 / (1 << 30), synth);
  auto t0 = std::chrono::steady_clock::now();
  const IndexedQap q = indexed_post_qap(fc::post_shape(info));
  std::printf("  QAP matrices A, B (%zu constraints, one slot replicated, value-indexed) %9.1f ms\n", q.constraints,
              ms_since(t0));
  std::printf("(best of %d)\n", reps);
}

}  // namespace
}  // namespace cuzk::bench

int main(int argc, char** argv) {
  using namespace cuzk;
  return bench::bench_main("post_bench synth|gpu [registered-post-proof-id] [reps]", [&] {
    const std::string mode = argc > 1 ? argv[1] : "synth";
    const auto proof = filecoin::post_proof_from_id_or_throw(argc > 2 ? std::atoi(argv[2]) : 8);
    const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
    const char* data_env = std::getenv("CUZK_FILECOIN_DATA");
    const std::filesystem::path data = data_env ? data_env : CUZK_FILECOIN_DATA_DEFAULT;
    if (mode == "synth") bench::run_synth(proof, data, reps);
#ifdef CUZK_POST_BENCH_GPU
    else if (mode == "gpu")
      bench::run_post_gpu_bench(proof, data, reps, gpu::tuning_from_environment());
#endif
    else return false;
    return true;
  });
}
