// Runs tasks in the order posted on one thread of its own. The engine ends there the jobs
// whose witness is page-locked: releasing the lock (cudaHostUnregister) waits for the work
// every stream has queued on the device (measured on the H200: a release called during
// another thread's 1 s kernel returned only after it, bench/RESULTS.md), so a worker that
// released it itself would wait for the other workers' proofs before starting its next one.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace cuzk::engine {

class Retirer {
 public:
  Retirer() : t_([this] { run(); }) {}
  ~Retirer() {
    {
      std::lock_guard lk(m_);
      stop_ = true;
    }
    cv_.notify_all();
    t_.join();  // runs what was posted first
  }
  Retirer(const Retirer&) = delete;
  Retirer& operator=(const Retirer&) = delete;

  void post(std::function<void()> task) {
    {
      std::lock_guard lk(m_);
      q_.push_back(std::move(task));
    }
    cv_.notify_all();
  }
  // Returns once every task posted before the call has run.
  void drain() {
    std::unique_lock lk(m_);
    idle_.wait(lk, [this] { return q_.empty() && !busy_; });
  }

 private:
  void run() {
    std::unique_lock lk(m_);
    for (;;) {
      cv_.wait(lk, [this] { return stop_ || !q_.empty(); });
      if (q_.empty()) return;  // stopping, nothing left
      std::function<void()> task = std::move(q_.front());
      q_.pop_front();
      busy_ = true;
      lk.unlock();
      task();  // tasks do not throw (Engine's finish)
      lk.lock();
      busy_ = false;
      if (q_.empty()) idle_.notify_all();
    }
  }

  std::mutex m_;
  std::condition_variable cv_, idle_;
  std::deque<std::function<void()>> q_;
  bool busy_ = false;
  bool stop_ = false;
  std::thread t_;  // last: starts after the members it uses
};

}  // namespace cuzk::engine
