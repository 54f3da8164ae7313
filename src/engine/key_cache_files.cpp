// The key cache directory's files (key_cache_files.hpp).
#include "key_cache_files.hpp"

#include <signal.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <charconv>
#include <stdexcept>
#include <string>
#include <system_error>

namespace cuzk::engine {

namespace {

namespace fs = std::filesystem;

// The writer's pid of a temporary key file "<key>.tmp<pid>-<thread>", or -1 for another name.
long tmp_writer_pid(const std::string& name) {
  const auto at = name.rfind(".tmp");
  if (at == std::string::npos) return -1;
  long pid = -1;
  const char* first = name.data() + at + 4;
  const auto [end, ec] = std::from_chars(first, name.data() + name.size(), pid);
  if (ec != std::errc() || end == first || *end != '-' || pid <= 0) return -1;
  return pid;
}

bool process_runs(long pid) { return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM; }

}  // namespace

int prepare_key_cache_dir(const fs::path& dir) {
  std::error_code ec;
  if (fs::create_directories(dir, ec)) fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
  if (ec) throw std::invalid_argument("cache_dir: cannot create " + dir.string() + ": " + ec.message());
  int removed = 0;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const long pid = tmp_writer_pid(name);
    if (pid < 0 || !entry.is_regular_file(ec) || process_runs(pid)) continue;
    std::error_code rm;
    if (fs::remove(entry.path(), rm)) {
      ++removed;
      spdlog::info("key cache: removed {} (left by process {}, which no longer runs)", entry.path().string(), pid);
    }
  }
  return removed;
}

void restrict_key_file(const fs::path& file) {
  std::error_code ec;
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ec);
  if (ec) throw std::runtime_error("cannot make the key file " + file.string() + " 0600: " + ec.message());
}

}  // namespace cuzk::engine
