// Included once per GPU test binary: a global test environment that fails the whole run
// (non-zero exit, every test skipped, a clear message) when no CUDA device is usable,
// so a machine without a GPU never reports a silent pass. Before any test it sets the
// process's device memory diagnostics from the environment, as a program's main does
// (CUZK_GPU_GUARD_BYTES, CUZK_GPU_POOL_DEFAULTS: tools/device/gpu_hang_hunt.sh); the tests
// give the rest of the tuning (gpu::Tuning) explicitly.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <iostream>
#include <string>

#include "cuzk/gpu/runtime.hpp"
#include "cuzk/gpu/tuning.hpp"

namespace cuzk::test {

class RequireCudaDevice : public ::testing::Environment {
 public:
  void SetUp() override {
    std::string why;
    if (!gpu::device_available(&why) || !gpu::device_supported(gpu::current_device(), &why)) {
      std::cerr << "\n*** GPU test binary run without a usable CUDA device: " << why
                << "\n*** These tests need a GPU (CTest label 'gpu'); FAILING instead of passing.\n\n";
      GTEST_FAIL() << "no usable CUDA device: " << why;
    }
    std::cerr << "CUDA device: " << gpu::device_description() << "\n";
    try {
      gpu::configure_device_memory(gpu::tuning_from_environment());
    } catch (const std::exception& e) {
      GTEST_FAIL() << e.what();
    }
  }
};

inline const bool kRequireCudaDeviceRegistered =
    (::testing::AddGlobalTestEnvironment(new RequireCudaDevice), true);

}  // namespace cuzk::test
