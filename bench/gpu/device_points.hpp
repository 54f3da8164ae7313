// Device-resident affine points for GPU timings (msm_bench.cpp, partition_bench.cpp).
#pragma once

#include <random>
#include <span>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "host_points.hpp"

namespace cuzk::bench {

// n points on the device: 2^16 distinct ones (P0 + iQ) repeated, so that 2^26 points do
// not take minutes of host time to make. Repeats do not change the MSM's work.
template <class C>
gpu::DeviceBuffer<ec::Affine<C>> device_points(std::size_t n) {
  const std::size_t k = std::min<std::size_t>(n, std::size_t{1} << 16);
  const auto base = distinct_points<C>(k, 77);
  gpu::DeviceBuffer<ec::Affine<C>> d(n);
  gpu::copy_to_device(d.data(), base.data(), k * sizeof(base[0]));
  for (std::size_t have = k; have < n; have *= 2)
    gpu::copy_device_to_device(d.data() + have, d.data(), std::min(have, n - have) * sizeof(base[0]));
  return d;
}

}  // namespace cuzk::bench
