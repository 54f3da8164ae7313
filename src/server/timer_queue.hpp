// Callbacks run at their deadlines on one thread: how thousands of waiting calls time out
// without a thread each. Thread-safe. Callbacks run outside the lock, one at a time, and must
// not block; the destructor joins the thread, dropping the callbacks that have not run.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace cuzk::server {

class TimerQueue {
 public:
  using Clock = std::chrono::steady_clock;
  struct Timer {
    Clock::time_point when;
    std::uint64_t id = 0;  // 0: no timer
  };

  TimerQueue();
  ~TimerQueue();
  TimerQueue(const TimerQueue&) = delete;
  TimerQueue& operator=(const TimerQueue&) = delete;

  Timer add(Clock::time_point when, std::function<void()> fn);
  // Drops a timer that has not fired: false when it has run, is running, or is no timer.
  bool cancel(const Timer& t);
  std::size_t pending() const;

 private:
  void run();

  mutable std::mutex m_;
  std::condition_variable cv_;
  std::map<std::pair<Clock::time_point, std::uint64_t>, std::function<void()>> due_;
  std::uint64_t next_id_ = 0;
  bool stop_ = false;
  std::thread thread_;  // last: started once the rest is built
};

}  // namespace cuzk::server
