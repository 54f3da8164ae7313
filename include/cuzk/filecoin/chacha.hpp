// ChaCha (Bernstein; RFC 7539 block layout) in the two forms rust-fil-proofs draws from it:
//
// - ChaChaRng: rand_chacha 0.3's ChaCha{8,12,20}Rng::from_seed, the DRG's sampler
//   (storage-proofs-core drgraph.rs BucketGraph::parents seeds a ChaCha8Rng per node). State:
//   "expand 32-byte k", the 32-byte seed as 8 little-endian words, a 64-bit block counter in
//   words 12 (low) and 13 (high) starting at 0, a 64-bit stream number in words 14 and 15 (0 for
//   from_seed). The generator emits the keystream's 32-bit words in order, block after block;
//   next_u64 takes two consecutive words, the first as the low half. rand_core's BlockRng does
//   exactly that even when a u64 straddles its 64-word buffer, so one block at a time here gives
//   the same sequence.
// - ChaCha20Ietf: the chacha20 0.9 crate's ChaCha20 (RFC 7539: 32-bit block counter in word 12,
//   96-bit nonce in words 13..15), a byte keystream with seek; the synthetic-PoRep challenge PRFs
//   (storage-proofs-porep stacked/vanilla/challenges.rs) use it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::filecoin {

// The ChaCha block function: `rounds` rounds (8, 12 or 20: rounds/2 double rounds) over the 16
// input words, then the input added word by word.
void chacha_block(const std::array<std::uint32_t, 16>& in, int rounds, std::array<std::uint32_t, 16>& out);

// rand_chacha's ChaChaXRng (see above).
class ChaChaRng {
 public:
  ChaChaRng(std::span<const std::uint8_t, 32> seed, int rounds, std::uint64_t stream = 0);
  static ChaChaRng chacha8(std::span<const std::uint8_t, 32> seed) { return ChaChaRng(seed, 8); }

  std::uint32_t next_u32();
  std::uint64_t next_u64() {
    const std::uint64_t lo = next_u32();
    return lo | (std::uint64_t{next_u32()} << 32);
  }

 private:
  void refill();

  std::array<std::uint32_t, 16> state_{};
  std::array<std::uint32_t, 16> block_{};
  int rounds_;
  std::size_t index_ = 16;  // next word of block_; 16: block_ used up
};

// The chacha20 crate's ChaCha20 (see above). The keystream starts at block counter 0.
class ChaCha20Ietf {
 public:
  ChaCha20Ietf(std::span<const std::uint8_t, 32> key, std::span<const std::uint8_t, 12> nonce);

  // Moves to byte `pos` of the keystream (StreamCipherSeek::try_seek); pos < 2^38 (the 32-bit
  // counter's reach), else std::out_of_range.
  void seek(std::uint64_t pos);
  // XORs the keystream into `data` and advances (StreamCipher::apply_keystream).
  void apply_keystream(std::span<std::uint8_t> data);

 private:
  void load_block(std::uint32_t counter);

  std::array<std::uint32_t, 16> state_{};
  std::array<std::uint8_t, 64> block_{};
  std::uint64_t pos_ = 0;                     // the keystream byte the next call starts at
  std::uint64_t loaded_ = ~std::uint64_t{0};  // the block counter block_ holds (none yet)
};

}  // namespace cuzk::filecoin
