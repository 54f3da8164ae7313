// One PoRep C2 partition proved on the GPU, end to end but for the key's points: a SYNTHETIC
// sparse C1 (porep_bench_util.hpp) decoded from its JSON and checked, partition 0's witness
// synthesized challenge-parallel on every core with the public-input check, then the device
// work with the partition's real QAP matrices (the recorded R1CS, value-indexed), the engine's
// key layout for this card and its pinned parts, and the assembly and verification of a proof
// of that size (gpu_proof_bench.hpp: the points are synthetic, so the proof does not verify).
// The estimate for a whole C2 adds the submit-time check once to ten times the per-partition
// work, one partition after another (the daemon overlaps a partition's synthesis with another's
// GPU work, so it is an upper bound).
#include <cstdio>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/c1_circuit.hpp"
#include "cuzk/filecoin/porep_record.hpp"
#include "gpu_proof_bench.hpp"
#include "porep_bench_util.hpp"

namespace cuzk::bench {

void run_porep_gpu_bench(filecoin::RegisteredSealProof proof, int reps, const gpu::Tuning& tuning) {
  namespace fc = filecoin;
  const auto& info = fc::seal_proof_info(proof);
  std::printf("%s partition 0 on the GPU (SYNTHETIC sparse C1)\n", std::string(info.name).c_str());
  const PorepInput in = porep_input(proof);
  const CheckedC1 c = decode_and_check(in);
  const double check_ms = c.decode_ms + c.verify_ms;
  std::printf("  C1 JSON (%.1f MiB) decoded %.0f ms + checked %.0f ms\n", in.json.size() / double(1 << 20), c.decode_ms,
              c.verify_ms);
  const PorepPartitionWitness pw = porep_partition_witness(c.c1, 0);
  if (!pw.inputs_match) throw std::runtime_error("the witness's public inputs are not those a verifier derives");
  const double synth_ms = pw.synth_ms + pw.inputs_ms;
  std::printf("  witness synthesized (%zu wires, %.2f GiB) %.0f ms; public inputs derived and equal %.0f ms\n",
              pw.w.size(), pw.w.size() * 32.0 / double(std::size_t{1} << 30), pw.synth_ms, pw.inputs_ms);

  auto t0 = std::chrono::steady_clock::now();
  IndexedQap q = indexed_qap(fc::record_porep_circuit(fc::porep_shape_of(fc::c1_shape(proof))));
  const double qap_ms = ms_since(t0);
  const groth16::ProvingKey<GpuEngine> pk = synthetic_points_key(std::move(q), qap_ms);
  const GpuProofTimes g = time_gpu_proof(pk, pw.w, pw.public_inputs, reps, tuning);
  const double per_partition = synth_ms + g.gpu_ms + g.assemble_ms + g.verify_ms;
  std::printf("  one partition: synthesis %.0f + GPU %.0f + assembly %.0f + verification %.0f = %.0f ms "
              "(+ the C1's check %.0f ms once per C2)\n",
              synth_ms, g.gpu_ms, g.assemble_ms, g.verify_ms, per_partition, check_ms);
  std::printf("  %zu partitions sequential: %.1f s (check once + %zu x partition; key load not counted: recording "
              "and value index %.1f s, upload %.1f s)\n",
              c.c1.partitions.size(), (check_ms + c.c1.partitions.size() * per_partition) / 1e3,
              c.c1.partitions.size(), qap_ms / 1e3, g.upload_ms / 1e3);
}

}  // namespace cuzk::bench
