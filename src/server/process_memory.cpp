#include "process_memory.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace cuzk::server {

std::optional<ProcessMemory> read_process_memory(pid_t pid) {
  std::ifstream in(pid == 0 ? std::string("/proc/self/status") : "/proc/" + std::to_string(pid) + "/status");
  if (!in) return std::nullopt;
  ProcessMemory m;
  bool any = false;
  std::string line;
  while (std::getline(in, line)) {
    std::uint64_t* dst = line.starts_with("VmRSS:") ? &m.rss_bytes : line.starts_with("VmHWM:") ? &m.peak_rss_bytes : nullptr;
    if (!dst) continue;
    std::istringstream ss(line.substr(6));
    std::uint64_t kib = 0;
    if (ss >> kib) {
      *dst = kib * 1024;
      any = true;
    }
  }
  if (!any) return std::nullopt;
  return m;
}

}  // namespace cuzk::server
