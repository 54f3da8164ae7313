// The scheduler's queue: four priorities (CRITICAL > HIGH > NORMAL > LOW), FIFO within a
// priority, and the batch collector: the oldest job of the highest priority plus queued
// jobs of the same circuit and priority, up to max_batch; a partial batch waits up to
// `wait` for more and is flushed early when a job of higher priority arrives.
#pragma once

#include <array>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

#include "job.hpp"

namespace cuzk::engine {

class JobQueue {
 public:
  void push(JobPtr job);
  bool remove(const Job& job);  // true if it was queued (and is no longer)
  // Blocks for a job; an empty result means the queue was closed.
  std::vector<JobPtr> next_batch(std::size_t max_batch, std::chrono::milliseconds wait);
  std::array<std::size_t, kNumPriorities> depths() const;
  // Wakes next_batch (which then returns empty) and hands back what was still queued.
  std::vector<JobPtr> close();

 private:
  int top_locked() const;  // highest non-empty priority, -1 when empty
  void take_same_locked(std::vector<JobPtr>& batch, int prio, std::size_t max_batch);

  mutable std::mutex m_;
  std::condition_variable cv_;
  std::array<std::deque<JobPtr>, kNumPriorities> q_;
  bool closed_ = false;
};

}  // namespace cuzk::engine
