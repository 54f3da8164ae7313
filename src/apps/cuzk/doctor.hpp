// `cuzk doctor`: whether this machine has what a daemon config needs. Each check adds findings
// (OK / WARN / FAIL with the reason); a FAIL is something the daemon needs and lacks, a WARN what
// works but deserves a look. The checks read the machine and files only, except the daemon's
// reachability (a GetStatus call to the given target).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/engine/config.hpp"
#include "cuzk/engine/gpu_probe.hpp"

namespace cuzk::cli::doctor {

enum class Level { kOk, kWarn, kFail };

struct Finding {
  Level level = Level::kOk;
  std::string topic;  // "gpu 0", "memlock", "params", ...
  std::string text;
};

class Report {
 public:
  void ok(std::string topic, std::string text) { add(Level::kOk, std::move(topic), std::move(text)); }
  void warn(std::string topic, std::string text) { add(Level::kWarn, std::move(topic), std::move(text)); }
  void fail(std::string topic, std::string text) { add(Level::kFail, std::move(topic), std::move(text)); }
  // FAIL when `needed`, else WARN.
  void fail_if(bool needed, std::string topic, std::string text) {
    add(needed ? Level::kFail : Level::kWarn, std::move(topic), std::move(text));
  }
  void add(Level l, std::string topic, std::string text) { findings_.push_back({l, std::move(topic), std::move(text)}); }
  const std::vector<Finding>& findings() const { return findings_; }
  std::size_t count(Level l) const;

 private:
  std::vector<Finding> findings_;
};

// "4.0 GiB", "512 KiB", "17 B".
std::string bytes_text(std::uint64_t bytes);

// The GPUs against the config's backend and devices (doctor_gpu.cpp).
void check_gpus(const engine::GpuProbe& probe, const engine::EngineConfig& config, Report& r);
// The page-locked memory limit (RLIMIT_MEMLOCK) against pinned_budget_bytes (doctor_gpu.cpp).
void check_memlock(const engine::EngineConfig& config, Report& r);
// The Filecoin parameter directory: which official circuits' files it holds, each file's size
// against its own headers, the .vk against the .params, TEST keys, the preloaded circuits'
// files (doctor_params.cpp).
void check_params(const std::string& dir, const engine::EngineConfig& config, Report& r);
// The config's .zkey circuits and the cache directory (doctor_files.cpp).
void check_zkeys(const engine::EngineConfig& config, Report& r);
void check_cache_dir(const std::string& dir, Report& r);
// The daemon at `target` ("unix:/path" or "host:port") answers GetStatus within a few seconds
// (doctor_daemon.cpp); token: the bearer token, tls_ca: PEM for TLS ("" = plain).
void check_daemon(const std::string& target, const std::string& token, const std::string& tls_ca, Report& r);

}  // namespace cuzk::cli::doctor
