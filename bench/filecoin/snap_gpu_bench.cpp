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
// before, as the daemon pipelines them; with each witness a fresh vector page-locked after its
// synthesis (the daemon's way), and written in place into page-locked buffers reused across
// partitions.
#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/filecoin/snap_record.hpp"
#include "gpu_proof_bench.hpp"
#include "porep_bench_util.hpp"  // indexed_qap
#include "snap_bench_util.hpp"

namespace cuzk::bench {

void run_snap_gpu_bench(filecoin::RegisteredUpdateProof proof, int reps, const gpu::Tuning& tuning) {
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
  const GpuProofTimes g = time_gpu_proof(pk, pw.w, pw.public_inputs, reps, tuning);
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

// A witness handed from the synthesis thread to the GPU thread, page-locked: registered by the
// former (its own vector) or one of the reused buffers (slot).
struct ReadyWitness {
  std::size_t k = 0;
  SnapPartitionWitness pw;
  gpu::HostRegistration pin;
  std::optional<std::size_t> slot;
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

// Witness buffers allocated and page-locked once, kept across partitions and runs: the synthesis
// thread writes a witness in place into a free one, the GPU thread gives it back once the proof
// has read it. Three cover the pipeline (one synthesized, one queued, one proved).
class WitnessBuffers {
 public:
  WitnessBuffers(std::size_t count, std::size_t elems) : bufs_(count), free_(count) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < count; ++i) {
      bufs_[i] = std::make_unique_for_overwrite<filecoin::Fr[]>(elems);
      pins_.emplace_back(bufs_[i].get(), elems * sizeof(filecoin::Fr));
      free_[i] = i;
    }
    elems_ = elems;
    std::printf("  %zu witness buffers of %.2f GiB allocated and page-locked in %.0f ms (once)\n", count,
                elems * sizeof(filecoin::Fr) / double(std::size_t{1} << 30), ms_since(t0));
  }
  // Waits for a free buffer; empty after close().
  std::optional<std::size_t> acquire() {
    std::unique_lock l(m_);
    cv_.wait(l, [&] { return !free_.empty() || closed_; });
    if (free_.empty()) return std::nullopt;
    const std::size_t i = free_.back();
    free_.pop_back();
    return i;
  }
  void release(std::size_t i) {
    std::lock_guard l(m_);
    free_.push_back(i);
    cv_.notify_one();
  }
  void close() {
    std::lock_guard l(m_);
    closed_ = true;
    cv_.notify_all();
  }
  void reopen() {
    std::lock_guard l(m_);
    closed_ = false;
  }
  std::span<filecoin::Fr> buffer(std::size_t i) { return {bufs_[i].get(), elems_}; }

 private:
  std::vector<std::unique_ptr<filecoin::Fr[]>> bufs_;
  std::vector<gpu::HostRegistration> pins_;
  std::size_t elems_ = 0;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<std::size_t> free_;
  bool closed_ = false;
};

// How a run's witnesses are held: each its own fresh vector, page-locked after synthesis (as the
// daemon's pipeline does today), or written in place into the reused page-locked buffers.
enum class WitnessMemory { kFreshEach, kReusedBuffers };

// One pipelined run over every partition (decode and check included; the key loaded before):
// a thread synthesizes partition after partition (each on every core), the calling thread proves
// each on the GPU, assembles and verifies it; with prove == false the witnesses are only
// synthesized (what synthesis costs with the key in memory and the GPU idle). Returns the run's
// seconds.
double pipelined_run(GpuProofRig& rig, const SnapInput& in, const filecoin::SnapWitnessLayout& layout,
                     WitnessBuffers& buffers, WitnessMemory memory, bool prove) {
  namespace fc = filecoin;
  const auto start = std::chrono::steady_clock::now();
  const CheckedSnap c = decode_and_check(in);
  const std::size_t n = in.partitions.size();
  std::printf("  %8.0f ms  %zu partition proofs decoded and checked\n", ms_since(start), n);
  WitnessQueue queue(1);
  buffers.reopen();
  std::exception_ptr synth_error;
  std::thread synth([&] {
    try {
      for (std::size_t k = 0; k < n; ++k) {
        ReadyWitness r;
        r.k = k;
        if (memory == WitnessMemory::kReusedBuffers) {
          r.slot = buffers.acquire();
          if (!r.slot) break;
          r.pw = snap_partition_witness(in, c, k, layout, buffers.buffer(*r.slot));
        } else {
          r.pw = snap_partition_witness(in, c, k);
          r.pin = gpu::HostRegistration(r.pw.w.data(), r.pw.w.size() * sizeof(fc::Fr));
        }
        if (!r.pw.inputs_match) throw std::runtime_error("a witness's public inputs are not the verifier's");
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
        if (r->slot) buffers.release(*r->slot);
        std::printf("  %8.0f ms  partition %2zu: synthesized %.0f ms\n", begin, r->k, r->pw.synth_ms);
        continue;
      }
      groth16::PhaseTimings t;
      const groth16::ProofTerms<GpuEngine> terms = rig.compute(r->pw.w, t);
      const double device = ms_since(start) - begin;
      if (r->slot) buffers.release(*r->slot);  // the proof has read it
      const GpuProofRig::Finished f = rig.finish(terms, r->pw.public_inputs);
      gpu_busy += device;
      std::printf("  %8.0f ms  partition %2zu: synthesized %.0f ms (ready at %.0f), GPU %.0f ms (waited %.0f for "
                  "it), assembled and verified %.0f ms%s\n",
                  ms_since(start), r->k, r->pw.synth_ms, r->ready_at_ms, device, begin - r->ready_at_ms,
                  f.assemble_ms + f.verify_ms, f.verified ? " (verified?!)" : "");
    }
  } catch (...) {
    queue.close();
    buffers.close();
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

void run_snap_pipeline_bench(filecoin::RegisteredUpdateProof proof, const gpu::Tuning& tuning) {
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
  GpuProofRig rig(pk, tuning);
  t0 = std::chrono::steady_clock::now();
  const fc::SnapWitnessLayout layout = fc::snap_witness_layout(in.update.params);
  std::printf("  witness layout counted in %.0f ms\n", ms_since(t0));
  WitnessBuffers buffers(3, layout.size());
  std::printf("  key loaded (not counted below: once per key load)\n");
  std::printf(" 1. each witness a fresh vector, page-locked after its synthesis (as the daemon does):\n");
  const double fresh = pipelined_run(rig, in, layout, buffers, WitnessMemory::kFreshEach, true);
  std::printf(" 2. each witness written in place into one of 3 reused page-locked buffers:\n");
  const double reused = pipelined_run(rig, in, layout, buffers, WitnessMemory::kReusedBuffers, true);
  std::printf(" 3. synthesis alone into the reused buffers (the key in memory, the GPU idle):\n");
  const double alone = pipelined_run(rig, in, layout, buffers, WitnessMemory::kReusedBuffers, false);
  std::printf("  %zu partitions: %.1f s (fresh witnesses), %.1f s (reused page-locked buffers); their synthesis "
              "alone %.1f s\n",
              in.partitions.size(), fresh, reused, alone);
}

}  // namespace cuzk::bench
