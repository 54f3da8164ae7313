// make_cuda_devices and probe_gpus when the engine is built without the CUDA adapter.
#include <stdexcept>

#include "cuzk/engine/gpu_probe.hpp"
#include "device.hpp"

namespace cuzk::engine {

std::unique_ptr<Devices> make_cuda_devices(const EngineConfig&) {
  throw std::invalid_argument(
      "backend: \"cuda\" is not available in this build (cuzk was built without CUDA or without the CUDA backend); "
      "use backend = \"cpu\"");
}

GpuProbe probe_gpus() {
  GpuProbe p;
  p.no_device_reason = "this build has no CUDA backend (built without nvcc or with -DCUZK_CUDA=OFF)";
  return p;
}

}  // namespace cuzk::engine
