// cuzk/gpu/device_info.hpp: the CUDA runtime's device properties and versions.
#include "cuzk/gpu/device_info.hpp"

#include <cuda_runtime.h>

#include "cuzk/gpu/runtime.hpp"

#ifndef CUZK_CUDA_ARCHS
#define CUZK_CUDA_ARCHS "(not recorded)"
#endif

namespace cuzk::gpu {

DeviceProperties device_properties(int device) {
  cudaDeviceProp p{};
  if (const cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) {
    cudaGetLastError();
    throw CudaError("device " + std::to_string(device) + ": " + cudaGetErrorString(e));
  }
  return {p.name, p.major, p.minor, p.totalGlobalMem, p.multiProcessorCount};
}

int driver_version() {
  int v = 0;
  if (cudaDriverGetVersion(&v) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return v;
}

int runtime_version() {
  int v = 0;
  if (cudaRuntimeGetVersion(&v) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return v;
}

std::string_view built_architectures() { return CUZK_CUDA_ARCHS; }

}  // namespace cuzk::gpu
