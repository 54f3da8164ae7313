// Signed digits of the GPU MSM's windows from a per-scalar carry mask (plain C++,
// __host__ __device__ under nvcc; tested on the host against cuzk::msm::signed_digits).
//
// msm::signed_digits turns window w of s (bits s_w) into d_w = s_w + carry_w - 2^c carry_(w+1),
// where carry_(w+1) = (s_w + carry_w > 2^(c-1)). With the W carries of a scalar kept as one
// mask (bit w = carry_w, W <= 32), any window's digit needs only the one or two scalar words
// holding its bits: the device keeps scalars as word planes (plane k = word k of every scalar),
// so a pass over one window reads 8 to 12 bytes per scalar instead of all 32 and every lower
// window again.
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_ptx.cuh"

namespace cuzk::gpu {

inline constexpr unsigned kMaxCarryWindows = 32;

// The c bits (c <= 24) of the window at bit 32 wi + off, from words wi (lo) and wi + 1 (hi;
// used only when off + c > 32).
CUZK_HD std::uint32_t window_value(std::uint32_t lo, std::uint32_t hi, unsigned off, unsigned c) {
  std::uint64_t v = lo >> off;
  if (off + c > 32) v |= std::uint64_t{hi} << (32 - off);
  return static_cast<std::uint32_t>(v) & ((1u << c) - 1);
}

// Word wi of an 8-word scalar, 0 beyond it.
CUZK_HD std::uint32_t scalar_word(const std::uint32_t (&s)[8], unsigned wi) { return wi < 8 ? s[wi] : 0u; }

// The c-bit window w of an 8-word scalar.
CUZK_HD std::uint32_t scalar_window(const std::uint32_t (&s)[8], unsigned w, unsigned c) {
  const unsigned pos = w * c;
  return window_value(scalar_word(s, pos >> 5), scalar_word(s, (pos >> 5) + 1), pos & 31, c);
}

// The signed digit of a window value given the carry into it; carry becomes the carry out
// (value + carry > 2^(c-1)): the rule of msm::signed_digits.
CUZK_HD int signed_digit(std::uint32_t value, std::uint32_t& carry, unsigned c) {
  const std::uint32_t in = carry;
  carry = value + in > (1u << (c - 1)) ? 1u : 0u;
  return static_cast<int>(value + in) - static_cast<int>(carry << c);
}

// Bit w of the result = the carry into window w of s (windows <= kMaxCarryWindows).
CUZK_HD std::uint32_t digit_carries(const std::uint32_t (&s)[8], unsigned c, unsigned windows) {
  std::uint32_t carry = 0, mask = 0;
  for (unsigned w = 0; w < windows; ++w) {
    mask |= carry << w;
    (void)signed_digit(scalar_window(s, w, c), carry, c);
  }
  return mask;
}

// Digit w from the window's value and the carry mask.
CUZK_HD int carried_digit(std::uint32_t value, std::uint32_t carries, unsigned w, unsigned c) {
  const int in = static_cast<int>((carries >> w) & 1u);
  const int out = w + 1 < kMaxCarryWindows ? static_cast<int>((carries >> (w + 1)) & 1u) : 0;
  return static_cast<int>(value) + in - (out << c);
}

}  // namespace cuzk::gpu
