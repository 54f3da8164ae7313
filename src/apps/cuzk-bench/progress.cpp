#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace cuzk::bench {

Progress::Progress(int total, bool enabled, std::string label)
    : total_(total), enabled_(enabled), tty_(::isatty(STDERR_FILENO) != 0), label_(std::move(label)) {}

void Progress::update(int done, int failed) {
  if (!enabled_) return;
  std::lock_guard lock(mu_);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  if (total_ <= 0) {  // open-ended: a count, redrawn on a terminal, else a line every 2 s
    if (tty_) {
      std::fprintf(stderr, "\r%s %d done, %d failed, %.1fs", label_.c_str(), done, failed, s);
      std::fflush(stderr);
    } else if (static_cast<int>(s / 2) != last_tenth_) {
      last_tenth_ = static_cast<int>(s / 2);
      std::fprintf(stderr, "%s %d done, %d failed, %.1fs\n", label_.c_str(), done, failed, s);
    }
    return;
  }
  const int width = 30;
  const int filled = done * width / total_;
  if (tty_) {
    std::fprintf(stderr, "\r%s [%.*s%*s] %d/%d failed %d %.1fs", label_.c_str(), filled, "##############################",
                 width - filled, "", done, total_, failed, s);
    std::fflush(stderr);
  } else {
    const int tenth = done * 10 / total_;
    if (tenth == last_tenth_) return;
    last_tenth_ = tenth;
    std::fprintf(stderr, "%s %d/%d done, %d failed, %.1fs\n", label_.c_str(), done, total_, failed, s);
  }
}

void Progress::finish() {
  if (enabled_ && tty_) std::fprintf(stderr, "\n");
}

}  // namespace cuzk::bench
