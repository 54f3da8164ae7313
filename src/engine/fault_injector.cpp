// The FaultInjection hook: throws the error a real device fault throws (gpu::CudaError).
#include <string>

#include "cuzk/gpu/runtime.hpp"
#include "device.hpp"

namespace cuzk::engine {

void FaultInjector::on_prove(int device) {
  if (device != f_.device || f_.failures <= 0) return;
  if (thrown_.fetch_add(1) < f_.failures)
    throw gpu::CudaError("injected device fault on device " + std::to_string(device) + " (FaultInjection)");
}

}  // namespace cuzk::engine
