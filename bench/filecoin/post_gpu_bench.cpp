// One PoSt partition proved on the GPU, end to end but for the key's points: the vanilla proofs
// decoded and checked, the witness synthesized on every core, then CudaBackend::compute with
// the partition's real QAP matrices (value-indexed) and the engine's key layout for this card
// (DeviceProvingKey::choose_layout over the free VRAM, the streamed parts page-locked as the
// pinned tier holds them, the witness page-locked), and the assembly and verification of a
// proof of that size. The key's points are synthetic (gpu_proof_bench.hpp): the device work is
// a real proof's, but the proof does not verify.
#include <cstdio>
#include <vector>

#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "gpu_proof_bench.hpp"
#include "post_bench_util.hpp"

namespace cuzk::bench {

void run_post_gpu_bench(filecoin::RegisteredPoStProof proof, const std::filesystem::path& data, int reps,
                        const gpu::Tuning& tuning) {
  namespace fc = filecoin;
  const auto& info = fc::post_proof_info(proof);
  const PostInput in = post_input(proof, data, 1);
  std::printf("%s on the GPU: %s\n", std::string(info.name).c_str(), in.source.c_str());

  auto t0 = std::chrono::steady_clock::now();
  const fc::PostPartition part = fc::prepare_post_partition(partition_inputs(in));
  const double check_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  const std::vector<fc::Fr> w = gadgets::circuits::parallel_witness_full<fc::Fr>(part.circuit);
  const double synth_ms = ms_since(t0);

  t0 = std::chrono::steady_clock::now();
  IndexedQap q = indexed_post_qap(fc::post_shape(info));
  const double qap_ms = ms_since(t0);
  const groth16::ProvingKey<GpuEngine> pk = synthetic_points_key(std::move(q), qap_ms);
  const GpuProofTimes g = time_gpu_proof(pk, w, part.public_inputs, reps, tuning);
  std::printf("  end to end: check %.0f + synthesis %.0f + GPU %.0f + assembly %.0f + verification %.0f = %.0f ms\n",
              check_ms, synth_ms, g.gpu_ms, g.assemble_ms, g.verify_ms,
              check_ms + synth_ms + g.gpu_ms + g.assemble_ms + g.verify_ms);
}

}  // namespace cuzk::bench
