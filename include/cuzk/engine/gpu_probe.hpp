// The GPUs as the engine's CUDA backend sees them: each visible device, whether this build has
// code for it (the same test the engine makes before it takes a device), and the CUDA versions
// involved. For reports (`cuzk doctor`) and for choosing a backend (cuzk-prover). A build without
// the CUDA backend says so (cuda_built false, no devices).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::engine {

struct GpuDevice {
  int index = 0;
  std::string name;
  int sm_major = 0, sm_minor = 0;
  std::uint64_t total_bytes = 0, free_bytes = 0;
  bool supported = false;       // this build has code the device runs
  std::string why_unsupported;  // when not: the device, its sm_XY, the architectures built, the fix
};

struct GpuProbe {
  bool cuda_built = false;        // the engine has its CUDA backend
  std::string architectures;      // CMAKE_CUDA_ARCHITECTURES of the build ("" without CUDA)
  int driver_version = 0;         // newest CUDA the driver supports (12040 = 12.4); 0: no driver
  int runtime_version = 0;        // the CUDA runtime this build links; 0 without CUDA
  std::vector<GpuDevice> devices;
  std::string no_device_reason;   // why `devices` is empty
  bool any_supported() const {
    for (const auto& d : devices)
      if (d.supported) return true;
    return false;
  }
};

// Never throws: what cannot be learned is left empty, with the reason.
GpuProbe probe_gpus();

}  // namespace cuzk::engine
