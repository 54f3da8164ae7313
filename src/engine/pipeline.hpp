// The engine's threads: one dispatcher (queue -> batch -> device, with affinity and
// backpressure), synthesis_concurrency synthesis threads (key lease + host reservation +
// witness), and workers_per_device workers per device (device admission, prove, verify).
// Synthesis of the next batch overlaps proving of the current one. A single proof is a batch
// of one: the workers have one way to prove (pipeline_attempt.cpp), and the retry rules after a
// device fault or a proof that does not verify are retry_policy.hpp's.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "budget.hpp"
#include "cuzk/engine/config.hpp"
#include "device.hpp"
#include "device_queues.hpp"
#include "errors.hpp"
#include "job_queue.hpp"
#include "job_table.hpp"
#include "key_manager.hpp"
#include "retry_policy.hpp"

namespace cuzk::engine {

class Pipeline {
 public:
  // Makes a job final: (job, state, code, error, outputs or null).
  using Finish = std::function<void(Job&, JobState, ErrorCode, const std::string&, ProvedOutput*)>;

  struct Parts {
    const EngineConfig& config;
    JobQueue& queue;
    JobTable& table;
    KeyManager& keys;
    Budget& budget;
    Devices& devices;
    Finish finish;
  };

  explicit Pipeline(Parts parts);
  ~Pipeline();  // stop() if not yet
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // Closes the queues and joins the threads; returns the jobs they had not taken.
  std::vector<JobPtr> stop();
  // A job shown kWaitingDevice is in its device's queue (handoff_), so a cancel removes it at once.
  bool remove_waiting(const Job& job) {
    std::lock_guard lk(handoff_);
    return devq_.remove(job);
  }

  int busy_workers(int device) const { return dev_[device]->busy.load(); }
  std::uint64_t proofs(int device) const { return dev_[device]->proofs.load(); }
  // Attempts on `device` that ended in a device fault (a batch's counts once) or in a proof
  // that did not verify (per proof; a witness that does not satisfy its circuit counts too).
  std::uint64_t device_faults(int device) const { return dev_[device]->faults.load(); }
  std::uint64_t failed_verifications(int device) const { return dev_[device]->not_verified.load(); }

  // A job's cancel flag was set: a batch proving it stops once every job in it is cancelled
  // (one cancelled job does not stop the others: it ends cancelled when the batch is done).
  void cancelled(const Job& job);

  // The final state, code and message for an exception a stage caught.
  static void classify(std::exception_ptr e, const Job& job, JobState* state, ErrorCode* code, std::string* msg);

 private:
  class SynthQueue {
   public:
    void push(Batch b);
    std::optional<Batch> pop();
    std::vector<Batch> close();

   private:
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<Batch> q_;
    bool closed_ = false;
  };

  void dispatcher();
  void synthesizer();
  void worker(int device, int worker);
  void pin_witness(Job& job);
  // What a proof (or a batch) holds on a device while it runs.
  struct DeviceAdmission {
    const DeviceKey* dkey = nullptr;
    Reservation scratch, pinned;
  };
  DeviceAdmission admit(std::span<const JobPtr> jobs, int device, std::uint64_t scratch_bytes,
                        std::uint64_t pinned_bytes, const std::atomic<bool>* cancel);
  // The cancel flag of a running batch (what its proofs' timings check): set once every job in
  // it is cancelled. Its jobs are registered (for cancelled()) while the scope lives.
  struct BatchCancel {
    std::atomic<bool> all{false};
    std::size_t live = 0;  // jobs not cancelled (guarded by batches_m_)
  };
  class BatchScope {
   public:
    BatchScope(Pipeline& p, const std::vector<JobPtr>& jobs);
    ~BatchScope();
    BatchScope(const BatchScope&) = delete;
    BatchScope& operator=(const BatchScope&) = delete;
    const std::atomic<bool>* cancel() const { return &state_->all; }

   private:
    Pipeline& p_;
    const std::vector<JobPtr>& jobs_;
    std::shared_ptr<BatchCancel> state_;
  };
  // One attempt of k >= 1 jobs of one circuit on `device` (pipeline_attempt.cpp).
  void run_on_device(std::vector<JobPtr> jobs, int device, int worker);
  // One job's outcome of an attempt: finished, or handed to after_attempt.
  void settle(const JobPtr& job, BatchOutcome out, int device, int worker, int attempt, std::size_t k);
  // After a device fault or a proof that did not verify (counted by the caller): the retry
  // rules (retry_policy.hpp) retry, reload the key and retry, or end the job with `code`.
  void after_attempt(const JobPtr& job, int device, int worker, AttemptEnd end, int attempt, ErrorCode code,
                     std::string why);
  void retry(const JobPtr& job, int device, int worker, const std::string& why);
  // The job's proofs failed verification twice: reloads its key (KeyManager::reload_suspect);
  // true when the job is to be proved again with the fresh key, else adds to *why what was found.
  bool reload_suspect_key(Job& job, std::string* why);
  int choose_device(const Circuit& c, const std::vector<int>& with_room, int exclude) const;
  void fail(Job& job, std::exception_ptr e);

  Parts p_;
  DeviceQueues devq_;
  SynthQueue synth_q_;
  // One job at a time takes host memory (key + witness), and per device one at a time takes
  // VRAM (key copy + scratch): a job never holds part of what it needs while another holds
  // the rest, so the holders are always jobs that can finish.
  std::mutex host_admission_;
  // Held while jobs are marked kWaitingDevice and pushed to a device queue, and by
  // remove_waiting: the mark and the queue change together for a cancel.
  std::mutex handoff_;
  std::vector<std::unique_ptr<std::mutex>> admission_;
  struct DeviceCounters {
    std::atomic<int> busy{0};  // workers proving now
    std::atomic<std::uint64_t> proofs{0}, faults{0}, not_verified{0};
  };
  std::vector<std::unique_ptr<DeviceCounters>> dev_;
  struct InBatch {
    std::shared_ptr<BatchCancel> batch;
    bool counted = false;  // its cancel already taken off batch->live
  };
  std::mutex batches_m_;
  std::map<const Job*, InBatch> in_batch_;  // the jobs of running batches
  std::vector<std::thread> threads_;
  bool stopped_ = false;
};

}  // namespace cuzk::engine
