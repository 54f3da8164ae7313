// The GPU MSM's digits (cuzk/gpu/msm_carries.hpp: the running carry rule and the digits from
// carry masks) against cuzk::msm::signed_digits: every window's digit equals the signed digit,
// for every window size with at most 32 windows, random and extreme scalars of 254 and 255
// bits. No GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/gpu/msm_carries.hpp"
#include "cuzk/msm/digits.hpp"

namespace {

using namespace cuzk;
using u32 = std::uint32_t;

std::vector<ff::Limbs<4>> scalars(std::mt19937_64& rng, unsigned nbits) {
  const std::uint64_t top = (std::uint64_t{1} << (nbits - 192)) - 1;
  std::vector<ff::Limbs<4>> v = {{0, 0, 0, 0}, {1, 0, 0, 0}, {~0ull, ~0ull, ~0ull, top}, {0, 0, 0, top}};
  // Values at window boundaries: alternating bits, all ones below one window.
  v.push_back({0xaaaaaaaaaaaaaaaaull, 0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull, top & 0x5555555555555555ull});
  v.push_back({0x80000000ffffffffull, 0x8000000080000000ull, ~0ull, top >> 1});
  for (int i = 0; i < 300; ++i) v.push_back({rng(), rng(), rng(), rng() & top});
  return v;
}

TEST(GpuMsmCarries, DigitsEqualSignedDigits) {
  std::mt19937_64 rng(77);
  int checked = 0;
  for (unsigned nbits : {254u, 255u}) {
    const auto ks = scalars(rng, nbits);
    for (unsigned c = 1; c <= 20; ++c) {
      const unsigned windows = nbits / c + 1;  // gpu::msm_num_windows
      if (windows > gpu::kMaxCarryWindows) continue;
      std::vector<std::int32_t> want(windows);
      for (const auto& k : ks) {
        msm::signed_digits(k, c, windows, want.data(), 1);
        u32 s[8];
        for (int i = 0; i < 4; ++i) s[2 * i] = static_cast<u32>(k[i]), s[2 * i + 1] = static_cast<u32>(k[i] >> 32);
        const u32 carries = gpu::digit_carries(s, c, windows);
        u32 carry = 0;  // the running rule of the GPU's digits_kernel
        for (unsigned w = 0; w < windows; ++w) {
          ASSERT_EQ(gpu::signed_digit(gpu::scalar_window(s, w, c), carry, c), want[w]) << "nbits " << nbits << " c " << c;
          const unsigned pos = w * c, wi = pos / 32, off = pos % 32;
          const u32 v = gpu::window_value(gpu::scalar_word(s, wi), gpu::scalar_word(s, wi + 1), off, c);
          ASSERT_EQ(gpu::carried_digit(v, carries, w, c), want[w]) << "nbits " << nbits << " c " << c << " window " << w;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

}  // namespace
