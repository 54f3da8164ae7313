// Resident memory of a process (now and peak) from /proc/<pid>/status.
#pragma once

#include <cstdint>
#include <optional>

#include <sys/types.h>

namespace cuzk::server {

struct ProcessMemory {
  std::uint64_t rss_bytes = 0;       // VmRSS
  std::uint64_t peak_rss_bytes = 0;  // VmHWM
};

// nullopt when the process does not exist or /proc is unreadable. pid 0: this process.
std::optional<ProcessMemory> read_process_memory(pid_t pid = 0);

}  // namespace cuzk::server
