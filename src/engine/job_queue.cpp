#include "job_queue.hpp"

#include <algorithm>

namespace cuzk::engine {

void JobQueue::push(JobPtr job) {
  {
    std::lock_guard lk(m_);
    q_[static_cast<std::size_t>(job->priority)].push_back(std::move(job));
  }
  cv_.notify_all();
}

bool JobQueue::remove(const Job& job) {
  std::lock_guard lk(m_);
  auto& q = q_[static_cast<std::size_t>(job.priority)];
  auto it = std::find_if(q.begin(), q.end(), [&](const JobPtr& j) { return j.get() == &job; });
  if (it == q.end()) return false;
  q.erase(it);
  return true;
}

int JobQueue::top_locked() const {
  for (int p = kNumPriorities - 1; p >= 0; --p)
    if (!q_[static_cast<std::size_t>(p)].empty()) return p;
  return -1;
}

void JobQueue::take_same_locked(std::vector<JobPtr>& batch, int prio, std::size_t max_batch) {
  auto& q = q_[static_cast<std::size_t>(prio)];
  const Circuit* c = batch.front()->circuit;
  for (auto it = q.begin(); it != q.end() && batch.size() < max_batch;) {
    if ((*it)->circuit == c) {
      batch.push_back(std::move(*it));
      it = q.erase(it);
    } else {
      ++it;
    }
  }
}

std::vector<JobPtr> JobQueue::next_batch(std::size_t max_batch, std::chrono::milliseconds wait) {
  std::unique_lock lk(m_);
  cv_.wait(lk, [&] { return closed_ || top_locked() >= 0; });
  if (closed_) return {};
  const int prio = top_locked();
  std::vector<JobPtr> batch;
  batch.push_back(std::move(q_[static_cast<std::size_t>(prio)].front()));
  q_[static_cast<std::size_t>(prio)].pop_front();
  take_same_locked(batch, prio, max_batch);
  const auto deadline = Clock::now() + wait;
  while (batch.size() < max_batch && !closed_ && top_locked() <= prio) {
    const bool timed_out = cv_.wait_until(lk, deadline) == std::cv_status::timeout;
    take_same_locked(batch, prio, max_batch);
    if (timed_out) break;
  }
  return batch;
}

std::array<std::size_t, kNumPriorities> JobQueue::depths() const {
  std::lock_guard lk(m_);
  std::array<std::size_t, kNumPriorities> d{};
  for (std::size_t p = 0; p < d.size(); ++p) d[p] = q_[p].size();
  return d;
}

std::vector<JobPtr> JobQueue::close() {
  std::vector<JobPtr> left;
  {
    std::lock_guard lk(m_);
    closed_ = true;
    for (auto& q : q_) {
      left.insert(left.end(), q.begin(), q.end());
      q.clear();
    }
  }
  cv_.notify_all();
  return left;
}

}  // namespace cuzk::engine
