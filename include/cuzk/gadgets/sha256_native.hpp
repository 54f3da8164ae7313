// Plain SHA-256 (FIPS 180-4) on bytes, for computing witnesses of the benchmark circuits natively.
// Tested against OpenSSL in tests/gadgets.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/gadgets/sha256.hpp"

namespace cuzk::gadgets {

inline void sha256_compress_native(std::array<std::uint32_t, 8>& h, const std::uint8_t* blk) {
  std::uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = (std::uint32_t{blk[4 * i]} << 24) | (std::uint32_t{blk[4 * i + 1]} << 16) |
           (std::uint32_t{blk[4 * i + 2]} << 8) | blk[4 * i + 3];
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t s0 = std::rotr(w[t - 15], 7) ^ std::rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = std::rotr(w[t - 2], 17) ^ std::rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int i = 0; i < 64; ++i) {
    const std::uint32_t t1 = hh + (std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                             sha256_detail::kK[i] + w[i];
    const std::uint32_t t2 = (std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

inline std::array<std::uint8_t, 32> sha256_native(std::span<const std::uint8_t> msg) {
  std::array<std::uint32_t, 8> h = sha256_detail::kIV;
  std::vector<std::uint8_t> m(msg.begin(), msg.end());
  const std::uint64_t bits = std::uint64_t{msg.size()} * 8;
  m.push_back(0x80);
  while (m.size() % 64 != 56) m.push_back(0);
  for (int i = 7; i >= 0; --i) m.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
  for (std::size_t o = 0; o < m.size(); o += 64) sha256_compress_native(h, m.data() + o);
  std::array<std::uint8_t, 32> d;
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 4; ++k) d[4 * i + k] = static_cast<std::uint8_t>(h[i] >> (24 - 8 * k));
  return d;
}

}  // namespace cuzk::gadgets
