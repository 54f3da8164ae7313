// Helpers of the GPU differential tests: random field vectors, first differing element.
#pragma once

#include <cstring>
#include <random>
#include <vector>

namespace cuzk::test {

template <class F>
std::vector<F> random_vec(std::mt19937_64& rng, std::size_t n) {
  std::vector<F> v(n);
  for (auto& x : v) x = F::random(rng);
  return v;
}

// First differing index (bytes), or -1; 0 when the sizes differ.
template <class F>
long first_diff(const std::vector<F>& a, const std::vector<F>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(static_cast<const void*>(&a[i]), static_cast<const void*>(&b[i]), sizeof(F)) != 0)
      return static_cast<long>(i);
  return -1;
}

}  // namespace cuzk::test
