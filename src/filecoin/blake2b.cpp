// BLAKE2b (blake2b.hpp), RFC 7693 section 3.
#include "cuzk/filecoin/blake2b.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace cuzk::filecoin {

namespace {

constexpr std::uint64_t kIv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                                  0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

// The message word permutations; rounds 10 and 11 reuse rows 0 and 1.
constexpr std::uint8_t kSigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

inline void mix(std::uint64_t* v, int a, int b, int c, int d, std::uint64_t x, std::uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = std::rotr(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = std::rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 63);
}

std::uint64_t load_le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

void blake2b_compress(std::array<std::uint64_t, 8>& h, const std::array<std::uint64_t, 16>& m, std::uint64_t t,
                      bool last) {
  std::uint64_t v[16];
  for (int i = 0; i < 8; ++i) {
    v[i] = h[i];
    v[8 + i] = kIv[i];
  }
  v[12] ^= t;  // the counter's high word (v[13]) stays: messages here are far below 2^64 bytes
  if (last) v[14] = ~v[14];
  for (const auto& s : kSigma) {
    mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[8 + i];
}

std::array<std::uint64_t, 8> blake2b_initial_state(std::size_t out_len, std::size_t key_len) {
  if (out_len == 0 || out_len > 64) throw std::invalid_argument("blake2b: digest length must be 1..64");
  if (key_len > 64) throw std::invalid_argument("blake2b: key longer than 64 bytes");
  std::array<std::uint64_t, 8> h;
  std::copy(std::begin(kIv), std::end(kIv), h.begin());
  // Parameter block word 0: digest length, key length, fanout 1, depth 1.
  h[0] ^= 0x01010000 | (std::uint64_t{key_len} << 8) | out_len;
  return h;
}

Blake2b::Blake2b(std::size_t out_len, std::span<const std::uint8_t> key)
    : h_(blake2b_initial_state(out_len, key.size())), out_len_(out_len) {
  if (!key.empty()) {
    std::copy(key.begin(), key.end(), buf_.begin());
    buf_len_ = 128;  // the padded key block, compressed once more data (or the end) comes
  }
}

Blake2b& Blake2b::update(std::span<const std::uint8_t> data) {
  std::array<std::uint64_t, 16> m;
  std::size_t i = 0;
  while (i < data.size()) {
    if (buf_len_ == 128) {  // the buffer is only compressed when it is known not to be the last block
      t_ += 128;
      for (int w = 0; w < 16; ++w) m[w] = load_le64(buf_.data() + 8 * w);
      blake2b_compress(h_, m, t_, false);
      buf_len_ = 0;
    }
    const std::size_t take = std::min<std::size_t>(128 - buf_len_, data.size() - i);
    std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(i), take,
                buf_.begin() + static_cast<std::ptrdiff_t>(buf_len_));
    buf_len_ += take;
    i += take;
  }
  return *this;
}

std::vector<std::uint8_t> Blake2b::finalize() {
  t_ += buf_len_;
  std::fill(buf_.begin() + static_cast<std::ptrdiff_t>(buf_len_), buf_.end(), std::uint8_t{0});
  std::array<std::uint64_t, 16> m;
  for (int w = 0; w < 16; ++w) m[w] = load_le64(buf_.data() + 8 * w);
  blake2b_compress(h_, m, t_, true);
  std::vector<std::uint8_t> out(out_len_);
  for (std::size_t i = 0; i < out_len_; ++i) out[i] = static_cast<std::uint8_t>(h_[i / 8] >> (8 * (i % 8)));
  return out;
}

}  // namespace cuzk::filecoin
