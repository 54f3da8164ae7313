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
// run_snap_pipeline_bench times that whole proof as one run instead: every partition
// synthesized on the CPU (one after another, each on every core) while the GPU proves the one
// before, as the daemon pipelines them.
#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

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

namespace {

// A witness handed from the synthesis thread to the GPU thread, page-locked by the former.
struct ReadyWitness {
  std::size_t k = 0;
  SnapPartitionWitness pw;
  gpu::HostRegistration pin;
  double ready_at_ms = 0;  // since the run's start
};

// A queue of at most `depth` witnesses waiting for the GPU (plus the one it proves and the one
// being synthesized: depth + 2 witnesses in host memory at most).
class WitnessQueue {
 public:
  explicit WitnessQueue(std::size_t depth) : depth_(depth) {}
  // Waits for room; false (the witness dropped) after close(): the GPU thread gave up.
  bool push(ReadyWitness&& w) {
    std::unique_lock l(m_);
    room_.wait(l, [&] { return q_.size() < depth_ || closed_; });
    if (closed_) return false;
    q_.push_back(std::move(w));
    ready_.notify_one();
    return true;
  }
  // Empty when the producer has ended (close) and nothing is left.
  std::optional<ReadyWitness> pop() {
    std::unique_lock l(m_);
    ready_.wait(l, [&] { return !q_.empty() || closed_; });
    if (q_.empty()) return std::nullopt;
    ReadyWitness w = std::move(q_.front());
    q_.pop_front();
    room_.notify_one();
    return w;
  }
  void close() {
    std::lock_guard l(m_);
    closed_ = true;
    ready_.notify_all();
    room_.notify_all();
  }

 private:
  std::size_t depth_;
  std::mutex m_;
  std::condition_variable room_, ready_;
  std::deque<ReadyWitness> q_;
  bool closed_ = false;
};

}  // namespace

namespace {

// One pipelined run over every partition (decode and check included; the key loaded before):
// a thread synthesizes partition after partition (each on every core) and page-locks it, the
// calling thread proves each on the GPU, assembles and verifies it; with prove == false the
// witnesses are only synthesized (what synthesis costs with the key in memory and the GPU idle).
// Returns the run's seconds.
double pipelined_run(GpuProofRig& rig, const SnapInput& in, bool prove) {
  namespace fc = filecoin;
  const auto start = std::chrono::steady_clock::now();
  const CheckedSnap c = decode_and_check(in);
  const std::size_t n = in.partitions.size();
  std::printf("  %8.0f ms  %zu partition proofs decoded and checked\n", ms_since(start), n);
  WitnessQueue queue(1);
  std::exception_ptr synth_error;
  std::thread synth([&] {
    try {
      for (std::size_t k = 0; k < n; ++k) {
        ReadyWitness r{k, snap_partition_witness(in, c, k), {}, 0};
        if (!r.pw.inputs_match) throw std::runtime_error("a witness's public inputs are not the verifier's");
        r.pin = gpu::HostRegistration(r.pw.w.data(), r.pw.w.size() * sizeof(fc::Fr));
        r.ready_at_ms = ms_since(start);
        if (!queue.push(std::move(r))) break;
      }
    } catch (...) {
      synth_error = std::current_exception();
    }
    queue.close();
  });
  double gpu_busy = 0, synth_total = 0;
  std::size_t done = 0;
  try {
    while (std::optional<ReadyWitness> r = queue.pop()) {
      const double begin = ms_since(start);
      synth_total += r->pw.synth_ms;
      ++done;
      if (!prove) {
        std::printf("  %8.0f ms  partition %2zu: synthesized %.0f ms\n", begin, r->k, r->pw.synth_ms);
        continue;
      }
      groth16::PhaseTimings t;
      const groth16::ProofTerms<GpuEngine> terms = rig.compute(r->pw.w, t);
      const double device = ms_since(start) - begin;
      const GpuProofRig::Finished f = rig.finish(terms, r->pw.public_inputs);
      gpu_busy += device;
      std::printf("  %8.0f ms  partition %2zu: synthesized %.0f ms (ready at %.0f), GPU %.0f ms (waited %.0f for "
                  "it), assembled and verified %.0f ms%s\n",
                  ms_since(start), r->k, r->pw.synth_ms, r->ready_at_ms, device, begin - r->ready_at_ms,
                  f.assemble_ms + f.verify_ms, f.verified ? " (verified?!)" : "");
    }
  } catch (...) {
    queue.close();
    synth.join();
    throw;
  }
  synth.join();
  if (synth_error) std::rethrow_exception(synth_error);
  const double total = ms_since(start);
  std::printf("  %zu partitions %s in %.1f s, one run (decode and check included; key load not): synthesis %.1f s "
              "in all (%.2f s a partition), GPU busy %.1f s (%.0f%% of the run)\n",
              done, prove ? "proved" : "synthesized", total / 1e3, synth_total / 1e3, synth_total / 1e3 / done,
              gpu_busy / 1e3, 100.0 * gpu_busy / total);
  return total / 1e3;
}

}  // namespace

void run_snap_pipeline_bench(filecoin::RegisteredUpdateProof proof) {
  namespace fc = filecoin;
  const fc::UpdateProofInfo& info = fc::update_proof_info(proof);
  std::printf("%s, every partition synthesized and proved as one pipelined run (SYNTHETIC sparse update), %d "
              "threads\n",
              std::string(info.name).c_str(), bench_threads());
  const SnapInput in = snap_input(proof);
  auto t0 = std::chrono::steady_clock::now();
  IndexedQap q = indexed_qap(fc::record_snap_circuit(in.update.params));
  const double qap_ms = ms_since(t0);
  const groth16::ProvingKey<GpuEngine> pk = synthetic_points_key(std::move(q), qap_ms);
  GpuProofRig rig(pk);
  std::printf("  key loaded (not counted below: once per key load)\n");
  std::printf(" 1. host threads spin while they wait for the GPU (CUDA's default):\n");
  const double spin = pipelined_run(rig, in, true);
  gpu::set_blocking_host_waits(true);
  std::printf(" 2. host threads block while they wait for the GPU (set_blocking_host_waits):\n");
  const double block = pipelined_run(rig, in, true);
  std::printf(" 3. synthesis alone (the key in memory, the GPU idle):\n");
  const double alone = pipelined_run(rig, in, false);
  std::printf("  %zu partitions: %.1f s (spinning waits), %.1f s (blocking waits); their synthesis alone %.1f s\n",
              in.partitions.size(), spin, block, alone);
}

}  // namespace cuzk::bench
