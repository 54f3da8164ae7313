// ChaCha block function and the two keystream readers of chacha.hpp.
#include "cuzk/filecoin/chacha.hpp"

#include <bit>
#include <stdexcept>

namespace cuzk::filecoin {

namespace {

// "expand 32-byte k" as four little-endian words.
constexpr std::uint32_t kSigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

inline void quarter_round(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c, std::uint32_t& d) {
  a += b;
  d = std::rotl(d ^ a, 16);
  c += d;
  b = std::rotl(b ^ c, 12);
  a += b;
  d = std::rotl(d ^ a, 8);
  c += d;
  b = std::rotl(b ^ c, 7);
}

std::uint32_t load_le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

void set_key(std::array<std::uint32_t, 16>& s, std::span<const std::uint8_t, 32> key) {
  for (int i = 0; i < 4; ++i) s[i] = kSigma[i];
  for (int i = 0; i < 8; ++i) s[4 + i] = load_le32(key.data() + 4 * i);
}

}  // namespace

void chacha_block(const std::array<std::uint32_t, 16>& in, int rounds, std::array<std::uint32_t, 16>& out) {
  std::array<std::uint32_t, 16> x = in;
  for (int r = 0; r < rounds; r += 2) {
    // Column round, then diagonal round.
    quarter_round(x[0], x[4], x[8], x[12]);
    quarter_round(x[1], x[5], x[9], x[13]);
    quarter_round(x[2], x[6], x[10], x[14]);
    quarter_round(x[3], x[7], x[11], x[15]);
    quarter_round(x[0], x[5], x[10], x[15]);
    quarter_round(x[1], x[6], x[11], x[12]);
    quarter_round(x[2], x[7], x[8], x[13]);
    quarter_round(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; ++i) out[i] = x[i] + in[i];
}

ChaChaRng::ChaChaRng(std::span<const std::uint8_t, 32> seed, int rounds, std::uint64_t stream) : rounds_(rounds) {
  if (rounds <= 0 || rounds % 2 != 0) throw std::invalid_argument("ChaChaRng: rounds must be even and positive");
  set_key(state_, seed);
  state_[12] = state_[13] = 0;
  state_[14] = static_cast<std::uint32_t>(stream);
  state_[15] = static_cast<std::uint32_t>(stream >> 32);
}

void ChaChaRng::refill() {
  chacha_block(state_, rounds_, block_);
  // The 64-bit block counter: word 12 low, word 13 high.
  if (++state_[12] == 0) ++state_[13];
  index_ = 0;
}

std::uint32_t ChaChaRng::next_u32() {
  if (index_ == 16) refill();
  return block_[index_++];
}

ChaCha20Ietf::ChaCha20Ietf(std::span<const std::uint8_t, 32> key, std::span<const std::uint8_t, 12> nonce) {
  set_key(state_, key);
  state_[12] = 0;
  for (int i = 0; i < 3; ++i) state_[13 + i] = load_le32(nonce.data() + 4 * i);
}

void ChaCha20Ietf::seek(std::uint64_t pos) {
  if (pos >= (std::uint64_t{1} << 38)) throw std::out_of_range("ChaCha20Ietf::seek: past the keystream's end");
  pos_ = pos;
}

void ChaCha20Ietf::load_block(std::uint32_t counter) {
  std::array<std::uint32_t, 16> s = state_;
  s[12] = counter;
  std::array<std::uint32_t, 16> out;
  chacha_block(s, 20, out);
  for (int i = 0; i < 16; ++i)
    for (int b = 0; b < 4; ++b) block_[4 * i + b] = static_cast<std::uint8_t>(out[i] >> (8 * b));
  loaded_ = counter;
}

void ChaCha20Ietf::apply_keystream(std::span<std::uint8_t> data) {
  if (pos_ + data.size() > (std::uint64_t{1} << 38))
    throw std::out_of_range("ChaCha20Ietf::apply_keystream: past the keystream's end");
  for (std::uint8_t& byte : data) {
    const std::uint64_t counter = pos_ / 64;
    if (counter != loaded_) load_block(static_cast<std::uint32_t>(counter));
    byte ^= block_[pos_ % 64];
    ++pos_;
  }
}

}  // namespace cuzk::filecoin
