// Feistel permutation (feistel.hpp). The round function hashes 16 bytes, one BLAKE2b block:
// it runs the compression function directly on the two message words.
#include "cuzk/filecoin/feistel.hpp"

#include <stdexcept>

#include "cuzk/filecoin/blake2b.hpp"

namespace cuzk::filecoin {

namespace {

std::uint64_t bswap64(std::uint64_t v) { return __builtin_bswap64(v); }  // std::byteswap is C++23

void require_keys(std::span<const std::uint64_t> keys) {
  if (keys.size() < kFeistelRounds) throw std::invalid_argument("feistel: fewer keys than rounds");
}

}  // namespace

FeistelPrecomputed feistel_precompute(std::uint64_t num_elements) {
  std::uint64_t next_pow4 = 4;
  std::uint64_t log4 = 1;
  while (next_pow4 < num_elements) {
    next_pow4 *= 4;
    ++log4;
  }
  const std::uint64_t right_mask = (std::uint64_t{1} << log4) - 1;
  return FeistelPrecomputed{right_mask << log4, right_mask, log4};
}

std::uint64_t feistel_round(std::uint64_t right, std::uint64_t key, std::uint64_t right_mask) {
  // BLAKE2b-512 of (right BE ‖ key BE): message words are little-endian loads of those bytes.
  static const std::array<std::uint64_t, 8> kInit = blake2b_initial_state(64, 0);
  std::array<std::uint64_t, 8> h = kInit;
  std::array<std::uint64_t, 16> m{};
  m[0] = bswap64(right);
  m[1] = bswap64(key);
  blake2b_compress(h, m, 16, true);
  // The digest's first 8 bytes are h[0] little-endian; read big-endian.
  return bswap64(h[0]) & right_mask;
}

std::uint64_t feistel_encode(std::uint64_t index, std::span<const std::uint64_t> keys, const FeistelPrecomputed& p) {
  require_keys(keys);
  std::uint64_t left = (index & p.left_mask) >> p.half_bits;
  std::uint64_t right = index & p.right_mask;
  for (int i = 0; i < kFeistelRounds; ++i) {
    const std::uint64_t next_right = left ^ feistel_round(right, keys[i], p.right_mask);
    left = right;
    right = next_right;
  }
  return (left << p.half_bits) | right;
}

std::uint64_t feistel_decode(std::uint64_t index, std::span<const std::uint64_t> keys, const FeistelPrecomputed& p) {
  require_keys(keys);
  std::uint64_t left = (index & p.left_mask) >> p.half_bits;
  std::uint64_t right = index & p.right_mask;
  for (int i = kFeistelRounds - 1; i >= 0; --i) {
    const std::uint64_t next_left = right ^ feistel_round(left, keys[i], p.right_mask);
    right = left;
    left = next_left;
  }
  return (left << p.half_bits) | right;
}

std::uint64_t feistel_permute(std::uint64_t num_elements, std::uint64_t index, std::span<const std::uint64_t> keys,
                              const FeistelPrecomputed& p) {
  std::uint64_t u = feistel_encode(index, keys, p);
  while (u >= num_elements) u = feistel_encode(u, keys, p);
  return u;
}

std::uint64_t feistel_invert_permute(std::uint64_t num_elements, std::uint64_t index,
                                     std::span<const std::uint64_t> keys, const FeistelPrecomputed& p) {
  std::uint64_t u = feistel_decode(index, keys, p);
  while (u >= num_elements) u = feistel_decode(u, keys, p);
  return u;
}

}  // namespace cuzk::filecoin
