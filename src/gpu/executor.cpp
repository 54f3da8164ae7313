// Executor (cuzk/gpu/executor.hpp).
#include "cuzk/gpu/executor.hpp"

#include <stdexcept>

namespace cuzk::gpu {

Executor::Executor(std::size_t threads, std::function<void()> on_start) {
  if (threads == 0) throw std::invalid_argument("gpu: an executor of 0 threads");
  threads_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this, on_start] { loop(on_start); });
}

Executor::~Executor() {
  {
    const std::lock_guard lock(m_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void Executor::push(Task t) {
  {
    const std::lock_guard lock(m_);
    queue_.push_back(std::move(t));
  }
  cv_.notify_one();
}

void Executor::loop(const std::function<void()>& on_start) {
  std::exception_ptr start_error;
  if (on_start) {
    try {
      on_start();
    } catch (...) {
      start_error = std::current_exception();
    }
  }
  for (;;) {
    Task t;
    {
      std::unique_lock lock(m_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to run
      t = std::move(queue_.front());
      queue_.pop_front();
    }
    t(start_error);
  }
}

}  // namespace cuzk::gpu
