// gpu::Executor (executor.hpp): the bounded executor of the device contexts, on the CPU (CI).
#include "cuzk/gpu/executor.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using cuzk::gpu::Executor;
using cuzk::gpu::TaskFuture;
using namespace std::chrono_literals;

TEST(Executor, RunsEveryTaskAndHandsBackItsError) {
  Executor ex(3);
  std::atomic<int> ran{0};
  std::vector<TaskFuture> fs;
  for (int i = 0; i < 20; ++i) fs.push_back(ex.submit([&ran] { ++ran; }));
  TaskFuture bad = ex.submit([] { throw std::runtime_error("chunk 7 failed"); });
  for (auto& f : fs) f.get();
  EXPECT_EQ(ran.load(), 20);
  try {
    bad.get();
    FAIL() << "the task's error was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "chunk 7 failed");
  }
}

TEST(Executor, NeverRunsMoreTasksAtOnceThanItHasThreads) {
  Executor ex(2);
  std::atomic<int> now{0}, most{0};
  std::vector<TaskFuture> fs;
  for (int i = 0; i < 12; ++i)
    fs.push_back(ex.submit([&] {
      const int n = ++now;
      int m = most.load();
      while (n > m && !most.compare_exchange_weak(m, n)) {
      }
      std::this_thread::sleep_for(5ms);
      --now;
    }));
  for (auto& f : fs) f.get();
  EXPECT_LE(most.load(), 2);
  EXPECT_GE(most.load(), 1);
  EXPECT_EQ(ex.threads(), 2u);
}

TEST(Executor, EachThreadRunsItsStartFirst) {
  std::mutex m;
  std::set<std::thread::id> started, ran_on;
  {
    Executor ex(3, [&] {
      const std::lock_guard lock(m);
      started.insert(std::this_thread::get_id());
    });
    std::vector<TaskFuture> fs;
    for (int i = 0; i < 30; ++i)
      fs.push_back(ex.submit([&] {
        const std::lock_guard lock(m);
        ran_on.insert(std::this_thread::get_id());
        EXPECT_TRUE(started.count(std::this_thread::get_id())) << "a task ran before its thread's start";
      }));
  }
  EXPECT_EQ(started.size(), 3u);
  EXPECT_LE(ran_on.size(), 3u);
}

TEST(Executor, AFailedStartFailsTheTasksOfThatThread) {
  Executor ex(1, [] { throw std::runtime_error("device 9 cannot be selected"); });
  TaskFuture f = ex.submit([] {});
  EXPECT_THROW(f.get(), std::runtime_error);
}

TEST(Executor, RunsWhatIsQueuedBeforeItEnds) {
  std::atomic<int> ran{0};
  {
    Executor ex(1);
    for (int i = 0; i < 5; ++i)
      (void)ex.submit([&ran] {
        std::this_thread::sleep_for(2ms);
        ++ran;
      });
  }
  EXPECT_EQ(ran.load(), 5);
}

TEST(Executor, AFutureWaitsForItsTaskWhenDropped) {
  Executor ex(1);
  std::atomic<bool> done{false};
  {
    TaskFuture f = ex.submit([&done] {
      std::this_thread::sleep_for(20ms);
      done = true;
    });
  }
  EXPECT_TRUE(done.load()) << "the future let its task outlive the frame that lent it `done`";
  TaskFuture none;
  EXPECT_NO_THROW(none.get());
}

TEST(Executor, RefusesZeroThreads) { EXPECT_THROW(Executor(0), std::invalid_argument); }

}  // namespace
