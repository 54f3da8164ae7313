// Helper of the GPU differential tests: the first element where two vectors differ.
#pragma once

#include <cstring>
#include <vector>

namespace cuzk::test {

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
