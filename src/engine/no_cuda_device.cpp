// make_cuda_backend when the engine is built without the CUDA adapter.
#include <stdexcept>

#include "device.hpp"

namespace cuzk::engine {

std::unique_ptr<DeviceBackend> make_cuda_backend(const EngineConfig&) {
  throw std::invalid_argument(
      "backend: \"cuda\" is not available in this build (cuzk was built without CUDA or without the CUDA backend); "
      "use backend = \"cpu\"");
}

}  // namespace cuzk::engine
