#include "device_queues.hpp"

#include <algorithm>

namespace cuzk::engine {

namespace {
// Higher priority first, then older.
bool before(const Batch& a, const Batch& b) {
  const Job& x = *a.jobs.front();
  const Job& y = *b.jobs.front();
  if (x.priority != y.priority) return x.priority > y.priority;
  return x.seq < y.seq;
}
}  // namespace

DeviceQueues::DeviceQueues(int devices, int workers_per_device, std::size_t depth)
    : workers_per_device_(workers_per_device), depth_(depth), pending_(devices, 0), ready_q_(devices) {}

std::vector<int> DeviceQueues::wait_for_room() {
  std::unique_lock lk(m_);
  std::vector<int> out;
  room_.wait(lk, [&] {
    out.clear();
    for (int d = 0; d < static_cast<int>(pending_.size()); ++d)
      if (pending_[d] < depth_) out.push_back(d);
    return closed_ || !out.empty();
  });
  if (closed_) out.clear();
  return out;
}

void DeviceQueues::assign(int device) {
  std::lock_guard lk(m_);
  ++pending_[device];
}

void DeviceQueues::uncount_locked(int device) {
  --pending_[device];
  room_.notify_all();
}

void DeviceQueues::abandon(int device) {
  std::lock_guard lk(m_);
  uncount_locked(device);
}

void DeviceQueues::push_ready(Batch b) {
  {
    std::lock_guard lk(m_);
    auto& q = ready_q_[b.device];
    q.insert(std::upper_bound(q.begin(), q.end(), b, before), std::move(b));
  }
  ready_.notify_all();
}

void DeviceQueues::push_retry(JobPtr job, int device) {
  Batch b;
  b.jobs.push_back(std::move(job));
  b.device = device;
  b.counted = false;
  push_ready(std::move(b));
}

bool DeviceQueues::allowed(const Batch& b, int worker) const {
  // A retry avoids the worker that failed it, unless that worker is the device's only one.
  return workers_per_device_ == 1 || b.jobs.front()->exclude_worker != worker;
}

std::optional<Batch> DeviceQueues::pop(int device, int worker) {
  std::unique_lock lk(m_);
  auto& q = ready_q_[device];
  std::vector<Batch>::iterator it;
  ready_.wait(lk, [&] {
    it = std::find_if(q.begin(), q.end(), [&](const Batch& b) { return allowed(b, worker); });
    return closed_ || it != q.end();
  });
  if (closed_) return std::nullopt;
  Batch b = std::move(*it);
  q.erase(it);
  if (b.counted) uncount_locked(device);
  return b;
}

bool DeviceQueues::remove(const Job& job) {
  std::lock_guard lk(m_);
  for (int d = 0; d < static_cast<int>(ready_q_.size()); ++d) {
    auto& q = ready_q_[d];
    for (auto b = q.begin(); b != q.end(); ++b) {
      auto j = std::find_if(b->jobs.begin(), b->jobs.end(), [&](const JobPtr& p) { return p.get() == &job; });
      if (j == b->jobs.end()) continue;
      b->jobs.erase(j);
      if (b->jobs.empty()) {
        if (b->counted) uncount_locked(d);
        q.erase(b);
      }
      return true;
    }
  }
  return false;
}

std::size_t DeviceQueues::pending(int device) const {
  std::lock_guard lk(m_);
  return pending_[device];
}

std::vector<Batch> DeviceQueues::close() {
  std::vector<Batch> left;
  {
    std::lock_guard lk(m_);
    closed_ = true;
    for (auto& q : ready_q_) {
      for (auto& b : q) left.push_back(std::move(b));
      q.clear();
    }
  }
  room_.notify_all();
  ready_.notify_all();
  return left;
}

}  // namespace cuzk::engine
