// One SnapDeals partition proved on the GPU, end to end but for the key's points: a SYNTHETIC
// sparse update (snap_bench_util.hpp), every partition's vanilla proof decoded and checked,
// partition 0's witness synthesized challenge-parallel on every core with the public-input check,
// then the device work with the partition's real QAP matrices (the recorded R1CS, value-indexed),
// the engine's key layout for this card and its pinned parts, and the assembly and verification
// of a proof of that size (gpu_proof_bench.hpp: the points are synthetic, so the proof does not
// verify). A whole proof (16 partitions at 32 GiB) is derived two ways: one partition after
// another, and pipelined as the daemon runs it (a partition's synthesis on the CPU overlapping
// the previous partition's GPU work): first synthesis + partitions x the slower of the two +
// the last assembly and verification.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/snap_record.hpp"
#include "gpu_proof_bench.hpp"
#include "porep_bench_util.hpp"  // indexed_qap
#include "snap_bench_util.hpp"

namespace cuzk::bench {

void run_snap_gpu_bench(filecoin::RegisteredUpdateProof proof, int reps) {
  namespace fc = filecoin;
  const fc::UpdateProofInfo& info = fc::update_proof_info(proof);
  std::printf("%s partition 0 on the GPU (SYNTHETIC sparse update)\n", std::string(info.name).c_str());
  const SnapInput in = snap_input(proof);
  const CheckedSnap c = decode_and_check(in);
  std::printf("  %zu partition proofs decoded and checked %.0f ms\n", in.partitions.size(), c.check_ms);
  const SnapPartitionWitness pw = snap_partition_witness(in, c, 0);
  if (!pw.inputs_match) throw std::runtime_error("the witness's public inputs are not those a verifier derives");
  std::printf("  witness synthesized (%zu wires, %.2f GiB) %.0f ms; public inputs equal the verifier's\n", pw.w.size(),
              pw.w.size() * 32.0 / double(std::size_t{1} << 30), pw.synth_ms);

  auto t0 = std::chrono::steady_clock::now();
  IndexedQap q = indexed_qap(fc::record_snap_circuit(in.update.params));
  const double qap_ms = ms_since(t0);
  const groth16::ProvingKey<GpuEngine> pk = synthetic_points_key(std::move(q), qap_ms);
  const GpuProofTimes g = time_gpu_proof(pk, pw.w, pw.public_inputs, reps);
  const double device = g.gpu_ms, tail = g.assemble_ms + g.verify_ms;
  const std::size_t n = in.partitions.size();
  std::printf("  one partition: synthesis %.0f + GPU %.0f + assembly %.0f + verification %.0f ms\n", pw.synth_ms,
              device, g.assemble_ms, g.verify_ms);
  const double sequential = c.check_ms + n * (pw.synth_ms + device + tail);
  const double pipelined = c.check_ms + pw.synth_ms + n * std::max(pw.synth_ms, device) + tail;
  std::printf("  %zu partitions: one after another %.1f s; pipelined (synthesis beside the GPU) %.1f s, bound by %s "
              "(key load not counted: recording and value index %.1f s, upload %.1f s)\n",
              n, sequential / 1e3, pipelined / 1e3, pw.synth_ms > device ? "synthesis" : "the GPU", qap_ms / 1e3,
              g.upload_ms / 1e3);
}

}  // namespace cuzk::bench
