// Helpers of the GPU memory tests (runtime_test, host_memory_test): random 64-bit words, and a
// device buffer's contents brought back to the host.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/gpu/runtime.hpp"

namespace cuzk::test {

inline std::vector<std::uint64_t> random_words(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = rng();
  return v;
}

inline std::vector<std::uint64_t> download(const gpu::DeviceBuffer<std::uint64_t>& d) {
  std::vector<std::uint64_t> v(d.size());
  d.download(v);
  return v;
}

}  // namespace cuzk::test
