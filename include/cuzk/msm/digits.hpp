// Signed-digit decomposition of MSM scalars (see window.hpp for the window layout).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/bigint.hpp"

namespace cuzk::msm {

// The c bits of k starting at bit `pos` (zero beyond the top limb); c <= 32.
template <std::size_t N>
inline std::uint64_t extract_bits(const ff::Limbs<N>& k, std::size_t pos, unsigned c) {
  const std::size_t limb = pos / 64, off = pos % 64;
  if (limb >= N) return 0;
  std::uint64_t v = k[limb] >> off;
  if (off + c > 64 && limb + 1 < N) v |= k[limb + 1] << (64 - off);
  return v & ((std::uint64_t{1} << c) - 1);
}

// Writes the W = num_windows(nbits, c) signed digits of k (k < 2^nbits) to
// out[0], out[stride], ..., out[(W-1)*stride], least significant window first, so that
// k = sum_w d_w 2^(w c) with every d_w in [-2^(c-1) + 1, 2^(c-1)]. A window value above
// 2^(c-1) becomes v - 2^c and carries 1 into the next window; the top window never
// carries out (see window.hpp), so the sum is exact.
template <std::size_t N>
inline void signed_digits(const ff::Limbs<N>& k, unsigned c, unsigned windows, std::int32_t* out, std::size_t stride) {
  const std::int64_t half = std::int64_t{1} << (c - 1);
  const std::int64_t full = std::int64_t{1} << c;
  std::int64_t carry = 0;
  for (unsigned w = 0; w < windows; ++w) {
    std::int64_t v = static_cast<std::int64_t>(extract_bits(k, std::size_t{w} * c, c)) + carry;
    if (v > half) {
      v -= full;
      carry = 1;
    } else {
      carry = 0;
    }
    out[std::size_t{w} * stride] = static_cast<std::int32_t>(v);
  }
}

}  // namespace cuzk::msm
