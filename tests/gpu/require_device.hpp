// Included once per GPU test binary: a global test environment that fails the whole run
// (non-zero exit, every test skipped, a clear message) when no CUDA device is usable,
// so a machine without a GPU never reports a silent pass.
#pragma once

#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "cuzk/gpu/runtime.hpp"

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
  }
};

inline const bool kRequireCudaDeviceRegistered =
    (::testing::AddGlobalTestEnvironment(new RequireCudaDevice), true);

}  // namespace cuzk::test
