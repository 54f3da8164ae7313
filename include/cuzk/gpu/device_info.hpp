// What the CUDA driver and runtime say of this machine, for reports (`cuzk doctor`): a device's
// name, compute capability and memory, the CUDA versions of the driver and of the runtime this
// build links, and the CUDA architectures the build has code for. Host code, compiled without nvcc.
// Whether a device can run this build's kernels is runtime.hpp's device_supported().
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cuzk::gpu {

struct DeviceProperties {
  std::string name;
  int sm_major = 0, sm_minor = 0;  // compute capability: sm_<major><minor>
  std::size_t total_memory = 0;    // bytes
  int multiprocessors = 0;
};
// Throws CudaError for an index that is not a device.
DeviceProperties device_properties(int device);

// CUDA versions as CUDA encodes them (1000 * major + 10 * minor: 12040 is CUDA 12.4); 0 when not
// known. driver_version(): the newest CUDA the installed driver supports (0: no driver).
int driver_version();
int runtime_version();

// CMAKE_CUDA_ARCHITECTURES of this build, space-separated ("80-real 86-real 90-virtual").
std::string_view built_architectures();

}  // namespace cuzk::gpu
