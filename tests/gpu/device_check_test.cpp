// The device checks (cuzk/gpu/runtime.hpp) answer on any machine where the CUDA backend is
// built, with or without a GPU (this test carries no `gpu` label: CI runs it on a machine
// without one): no crash, false with a message naming the device when there is none or the
// index is past the last, true for every visible device a GPU machine has.
#include <gtest/gtest.h>

#include <string>

#include "cuzk/gpu/runtime.hpp"

namespace {
using namespace cuzk;

TEST(DeviceCheck, AnswersWithOrWithoutAGpu) {
  const int n = gpu::device_count();
  std::string why;
  EXPECT_EQ(gpu::device_available(&why), n > 0) << why;
  if (n == 0) {
    EXPECT_FALSE(why.empty());
    EXPECT_THROW(gpu::require_device(), gpu::CudaError);
  }
  for (int d = 0; d < n; ++d) EXPECT_TRUE(gpu::device_supported(d, &why)) << why;
  why.clear();
  EXPECT_FALSE(gpu::device_supported(n, &why));
  EXPECT_NE(why.find("device " + std::to_string(n)), std::string::npos) << why;
}

}  // namespace
