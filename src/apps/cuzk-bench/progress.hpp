// A progress bar on stderr: redrawn in place on a terminal, a line per tenth otherwise. A total
// of 0 means open-ended (a running count instead of a bar).
#pragma once

#include <chrono>
#include <mutex>
#include <string>

namespace cuzk::bench {

class Progress {
 public:
  Progress(int total, bool enabled, std::string label);
  void update(int done, int failed);  // thread-safe
  void finish();

 private:
  int total_;
  bool enabled_, tty_;
  std::string label_;
  int last_tenth_ = -1;  // the last line printed off a terminal (tenth of the total, or 2 s slot)
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::mutex mu_;
};

}  // namespace cuzk::bench
