// Every known job by request id: state transitions, exactly-once completion, waiting for
// results (blocking, or a callback run when the job ends), and retention of finished results
// (the oldest dropped beyond the limit).
#pragma once

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "job.hpp"

namespace cuzk::engine {

class JobTable {
 public:
  explicit JobTable(std::size_t max_retained) : max_retained_(max_retained) {}

  // Inserts `job` unless its id is known; returns the job now under that id.
  JobPtr insert_or_get(const JobPtr& job, bool* inserted);
  JobPtr find(const std::string& id) const;

  // A non-final transition (ignored once final). device/worker < 0 keep the old values. A
  // partition job's transition also moves its group job to the furthest state of its partitions.
  void set_state(Job& job, JobState s, int device = -1, int worker = -1);
  void set_batch(Job& job, std::size_t batch_size);
  int begin_attempt(Job& job);  // returns the attempt number (1, 2)
  // An attempt that ended before the device could fault or prove (a batch given up for another
  // job's sake) does not count.
  void undo_attempt(Job& job);
  // Makes the job final once (false if it already was): the result's timings are built
  // from the job's, outputs moved in, `on_final` run (before any waiter can see the
  // result: counters are then never behind a returned result), waiters woken.
  bool finish(Job& job, JobState s, ErrorCode code, const std::string& error, ProvedOutput* out,
              const std::function<void(const ProofResult&)>& on_final);

  std::optional<ProofResult> await(const std::string& id, std::chrono::milliseconds timeout) const;
  // Runs `on_final` once with the job's final result: at once on this thread when the job is
  // already final or the id unknown (a kNotFound result; returns 0), else on the thread that
  // ends the job, after waiters are woken and outside the table's lock. Returns the handle
  // that unwatch() takes.
  std::uint64_t watch(const std::string& id, std::function<void(const ProofResult&)> on_final);
  // Drops a watch whose callback has not started: false when it has run, is running, or
  // `handle` is 0.
  bool unwatch(const std::string& id, std::uint64_t handle);
  ProofResult peek(const std::string& id) const;
  JobState state(const Job& job) const;
  std::vector<JobPtr> unfinished() const;

  struct Counts {
    std::size_t synthesizing = 0, waiting_device = 0, proving = 0;
    std::uint64_t succeeded = 0, failed = 0, cancelled = 0;
  };
  Counts counts() const;

 private:
  static bool counted(const Job& job, JobState s);
  void move_count(const Job& job, JobState from, JobState to);

  std::size_t max_retained_;
  mutable std::mutex m_;
  mutable std::condition_variable done_;
  std::map<std::string, JobPtr> jobs_;
  std::deque<std::string> finished_;
  std::uint64_t next_watch_ = 0;
  std::array<std::uint64_t, 7> in_state_{};  // jobs per JobState (final ones: totals)
};

// queue_wait, key_load, the job's phases in order (repeats summed), total.
std::vector<PhaseTiming> result_timings(const Job& job);

}  // namespace cuzk::engine
