// `cuzk doctor`: the GPUs and the page-locked memory limit against the config (doctor.hpp).
#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "doctor.hpp"

namespace cuzk::cli::doctor {

namespace {

std::string version(int v) {
  if (v <= 0) return "unknown";
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// Whether the config proves on device `index` (cuda: devices 0 = every visible one).
bool used(const engine::EngineConfig& c, int index) {
  return c.backend == engine::Backend::cuda && (c.devices == 0 || index < c.devices);
}

}  // namespace

void check_gpus(const engine::GpuProbe& p, const engine::EngineConfig& c, Report& r) {
  const bool cuda = c.backend == engine::Backend::cuda;
  if (!p.cuda_built) {
    if (cuda)
      r.fail("gpu", p.no_device_reason + ": the config's backend = \"cuda\" cannot start (use a CUDA build)");
    else
      r.ok("gpu", p.no_device_reason + "; the config proves on the CPU (backend = \"cpu\")");
    return;
  }
  r.ok("cuda", "this build has code for CUDA architectures " + p.architectures + "; runtime " +
                   version(p.runtime_version) + " (linked in)");
  if (p.driver_version == 0) {
    r.fail_if(cuda, "driver", "no NVIDIA driver answers (cudaDriverGetVersion): install the NVIDIA driver");
  } else if (p.driver_version / 1000 < p.runtime_version / 1000) {
    r.fail_if(cuda, "driver", "supports CUDA " + version(p.driver_version) + ", older than this build's runtime " +
                                  version(p.runtime_version) + ": install a driver for CUDA " +
                                  std::to_string(p.runtime_version / 1000) + " or later");
  } else {
    r.ok("driver", "supports CUDA " + version(p.driver_version));
  }
  if (p.devices.empty()) {
    if (cuda)
      r.fail("gpu", "no usable CUDA device (" + p.no_device_reason + "): the config's backend = \"cuda\" cannot start");
    else
      r.ok("gpu", "no CUDA device (" + p.no_device_reason + "); the config proves on the CPU (backend = \"cpu\")");
    return;
  }
  for (const engine::GpuDevice& d : p.devices) {
    const std::string topic = "gpu " + std::to_string(d.index);
    const std::string sm = "sm_" + std::to_string(d.sm_major) + std::to_string(d.sm_minor);
    const std::string desc = (d.name.empty() ? std::string("?") : d.name) + ", " + sm + ", " + bytes_text(d.total_bytes);
    if (!d.supported) {
      r.fail_if(used(c, d.index), topic, desc + ": this build cannot run on it: " + d.why_unsupported);
      continue;
    }
    const std::string text = desc + " (" + bytes_text(d.free_bytes) + " free): this build has code for it";
    if (cuda && !used(c, d.index))
      r.ok(topic, text + "; not used (devices = " + std::to_string(c.devices) + ")");
    else if (!cuda)
      r.warn(topic, text + "; not used: the config's backend is \"cpu\" (set backend = \"cuda\")");
    else
      r.ok(topic, text);
  }
  if (cuda && c.devices > static_cast<int>(p.devices.size()))
    r.fail("gpu", "devices = " + std::to_string(c.devices) + " but " + std::to_string(p.devices.size()) +
                      " CUDA device(s) are visible");
}

void check_memlock(const engine::EngineConfig& c, Report& r) {
  rlimit lim{};
  if (::getrlimit(RLIMIT_MEMLOCK, &lim) != 0) {
    r.warn("memlock", std::string("getrlimit(RLIMIT_MEMLOCK) failed: ") + std::strerror(errno));
    return;
  }
  const std::string budget = "pinned_budget_bytes " + bytes_text(c.pinned_budget_bytes);
  if (lim.rlim_cur == RLIM_INFINITY) {
    r.ok("memlock", "ulimit -l is unlimited (" + budget + ")");
    return;
  }
  const std::string limit = "ulimit -l is " + std::to_string(lim.rlim_cur >> 10) + " KiB (" +
                            bytes_text(lim.rlim_cur) + ")";
  if (c.backend != engine::Backend::cuda) {
    r.ok("memlock", limit + "; the cpu backend page-locks nothing");
  } else if (lim.rlim_cur < c.pinned_budget_bytes) {
    r.warn("memlock", limit + ", below " + budget +
                          ": page-locking keys and witnesses may fail; raise it (systemd: LimitMEMLOCK=infinity; "
                          "shell: ulimit -l unlimited; or memlock in /etc/security/limits.conf)");
  } else {
    r.ok("memlock", limit + ", at least " + budget);
  }
}

}  // namespace cuzk::cli::doctor
