// The Feistel permutation of the SDR expander edges (storage-proofs-core crypto/feistel.rs).
//
// An index of [0, n) is split into two halves of `half_bits` bits each, the smallest even bit
// count whose range (4^half_bits) is at least n (at least 4). Three rounds (FEISTEL_ROUNDS; only
// the first three of the four keys are used) of
//   (L, R) -> (R, L xor F(R, key))
// with F(R, key) = the first 8 bytes, big-endian, of BLAKE2b-512(R as 8 big-endian bytes ‖ key
// as 8 big-endian bytes), masked to half_bits. permute cycle-walks: it re-encrypts while the
// result is >= n, so it is a permutation of [0, n) (the cipher is one of [0, 4^half_bits)).
#pragma once

#include <cstdint>
#include <span>

namespace cuzk::filecoin {

inline constexpr int kFeistelRounds = 3;

struct FeistelPrecomputed {
  std::uint64_t left_mask;
  std::uint64_t right_mask;
  std::uint64_t half_bits;
};

// feistel.rs precompute.
FeistelPrecomputed feistel_precompute(std::uint64_t num_elements);

// The round function F (feistel.rs feistel).
std::uint64_t feistel_round(std::uint64_t right, std::uint64_t key, std::uint64_t right_mask);

// One pass of the cipher and its inverse (feistel.rs encode, decode). `keys` has at least 3.
std::uint64_t feistel_encode(std::uint64_t index, std::span<const std::uint64_t> keys, const FeistelPrecomputed& p);
std::uint64_t feistel_decode(std::uint64_t index, std::span<const std::uint64_t> keys, const FeistelPrecomputed& p);

// feistel.rs permute and invert_permute: the cycle-walking permutation of [0, num_elements).
std::uint64_t feistel_permute(std::uint64_t num_elements, std::uint64_t index, std::span<const std::uint64_t> keys,
                              const FeistelPrecomputed& p);
std::uint64_t feistel_invert_permute(std::uint64_t num_elements, std::uint64_t index,
                                     std::span<const std::uint64_t> keys, const FeistelPrecomputed& p);

}  // namespace cuzk::filecoin
