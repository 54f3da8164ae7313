// Bit-reversal of indices and the in-place bit-reversal permutation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace cuzk::poly {

// The low `bits` bits of v, reversed.
inline std::uint64_t bit_reverse(std::uint64_t v, std::size_t bits) {
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
  v = __builtin_bswap64(v);
  return bits == 0 ? 0 : v >> (64 - bits);
}

// In-place bit-reversal permutation of a power-of-two-sized vector.
template <class T>
void bit_reverse_permute(std::span<T> x) {
  const std::size_t n = x.size();
  if (n & (n - 1)) throw std::invalid_argument("bit_reverse_permute: size is not a power of two");
  if (n <= 2) return;
  const std::size_t bits = static_cast<std::size_t>(__builtin_ctzll(n));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      std::size_t j = bit_reverse(i, bits);
      if (i < j) std::swap(x[i], x[j]);
    }
  });
}

}  // namespace cuzk::poly
