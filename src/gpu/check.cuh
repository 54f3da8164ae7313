// Error checks for CUDA runtime calls and kernel launches (private to src/gpu).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "cuzk/gpu/runtime.hpp"

namespace cuzk::gpu::detail {
inline void cuda_check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) {
    // Clear the thread's last-error state: a non-sticky failure (out of memory, a bad
    // argument) must not resurface at the next launch check of a later, healthy call.
    cudaGetLastError();
    throw CudaError(std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    cudaGetErrorString(e));
  }
}
}  // namespace cuzk::gpu::detail

#define CUZK_CUDA_CHECK(call) ::cuzk::gpu::detail::cuda_check((call), #call, __FILE__, __LINE__)
// After a kernel launch: launch-configuration errors (asynchronous faults surface at the next sync).
#define CUZK_CUDA_LAUNCH_CHECK(name) ::cuzk::gpu::detail::cuda_check(cudaGetLastError(), name, __FILE__, __LINE__)
