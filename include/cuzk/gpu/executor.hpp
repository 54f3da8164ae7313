// A fixed set of threads that run submitted tasks in the order they came: the GPU layer's
// bounded stand-in for a thread per task (std::async). A device context (context.hpp) keeps
// two per device, whose threads select the device once, at their start. Plain C++.
//
// The one rule that keeps it free of deadlocks: a task may wait for another executor's tasks,
// never for its own executor's (they could all be queued behind it). A task that finds no free
// thread waits in the queue; the number of threads bounds the work at once, not what may be
// submitted.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace cuzk::gpu {

// A submitted task's outcome. Like a future of std::async, it waits for its task when
// destroyed (or assigned to) before the task has finished, so a task never outlives what its
// submitter's frame lent it, on any path out of that frame.
class TaskFuture {
 public:
  TaskFuture() = default;  // no task: get() returns at once
  explicit TaskFuture(std::future<void> f) : f_(std::move(f)) {}
  TaskFuture(TaskFuture&&) noexcept = default;
  TaskFuture& operator=(TaskFuture&& o) noexcept {
    wait();
    f_ = std::move(o.f_);
    return *this;
  }
  ~TaskFuture() { wait(); }
  // Waits for the task and rethrows its error; once only.
  void get() {
    if (f_.valid()) f_.get();
  }
  void wait() const {
    if (f_.valid()) f_.wait();
  }
  bool valid() const { return f_.valid(); }

 private:
  std::future<void> f_;
};

class Executor {
 public:
  // `threads` >= 1 threads (std::invalid_argument otherwise), each running on_start first. A
  // thread whose on_start throws stays up and fails every task it takes with that error.
  explicit Executor(std::size_t threads, std::function<void()> on_start = {});
  // Runs what is still queued, then joins the threads.
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Queues task (a copyable callable taking nothing); the future holds its error, if any.
  template <class F>
  TaskFuture submit(F task) {
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> f = done->get_future();
    push([done, task = std::move(task)](const std::exception_ptr& start_error) mutable {
      try {
        if (start_error) std::rethrow_exception(start_error);
        task();
        done->set_value();
      } catch (...) {
        done->set_exception(std::current_exception());
      }
    });
    return TaskFuture(std::move(f));
  }
  std::size_t threads() const { return threads_.size(); }

 private:
  using Task = std::function<void(const std::exception_ptr&)>;
  void push(Task t);
  void loop(const std::function<void()>& on_start);

  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;  // last: started once the rest is in place
};

}  // namespace cuzk::gpu
