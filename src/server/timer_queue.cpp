#include "timer_queue.hpp"

namespace cuzk::server {

TimerQueue::TimerQueue() : thread_([this] { run(); }) {}

TimerQueue::~TimerQueue() {
  {
    std::lock_guard lk(m_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

TimerQueue::Timer TimerQueue::add(Clock::time_point when, std::function<void()> fn) {
  Timer t;
  {
    std::lock_guard lk(m_);
    t = Timer{when, ++next_id_};
    const bool earliest = due_.empty() || std::make_pair(when, t.id) < due_.begin()->first;
    due_.emplace(std::make_pair(when, t.id), std::move(fn));
    if (!earliest) return t;
  }
  cv_.notify_all();
  return t;
}

bool TimerQueue::cancel(const Timer& t) {
  if (t.id == 0) return false;
  std::lock_guard lk(m_);
  return due_.erase({t.when, t.id}) > 0;
}

std::size_t TimerQueue::pending() const {
  std::lock_guard lk(m_);
  return due_.size();
}

void TimerQueue::run() {
  std::unique_lock lk(m_);
  while (!stop_) {
    if (due_.empty()) {
      cv_.wait(lk);
      continue;
    }
    const auto first = due_.begin();
    if (first->first.first > Clock::now()) {
      cv_.wait_until(lk, first->first.first);
      continue;
    }
    std::function<void()> fn = std::move(first->second);
    due_.erase(first);
    lk.unlock();
    fn();
    fn = nullptr;  // what it holds is released outside the lock
    lk.lock();
  }
}

}  // namespace cuzk::server
