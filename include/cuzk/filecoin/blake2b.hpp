// BLAKE2b (RFC 7693) as blake2b_simd 1.0 computes it, with the two options rust-fil-proofs
// uses: the digest length (1..64 bytes; storage-proofs-core crypto/feistel.rs hashes with the
// default 64, the synthetic-PoRep PRF keys in storage-proofs-porep challenges.rs are 32) and a key
// (0..64 bytes; the key, zero-padded to a 128-byte block, is hashed first). The parameter block
// is the plain sequential one: digest length, key length, fanout 1, depth 1, the rest zero.
// OpenSSL's EVP BLAKE2b512 / BLAKE2BMAC compute the same (the tests compare); this one exists
// for the keyed 32-byte form and for the Feistel round function, a single-block hash called
// tens of millions of times per parent cache, where EVP's per-call overhead would dominate.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::filecoin {

// The compression function F on state h with message block m (16 little-endian words), byte
// counter t (bytes hashed so far, this block included) and the last-block flag.
void blake2b_compress(std::array<std::uint64_t, 8>& h, const std::array<std::uint64_t, 16>& m, std::uint64_t t,
                      bool last);

// The initial state for a digest length and key length (IV xor the parameter block).
std::array<std::uint64_t, 8> blake2b_initial_state(std::size_t out_len, std::size_t key_len);

class Blake2b {
 public:
  explicit Blake2b(std::size_t out_len = 64, std::span<const std::uint8_t> key = {});
  Blake2b& update(std::span<const std::uint8_t> data);
  std::vector<std::uint8_t> finalize();  // out_len bytes; the object is then spent

 private:
  std::array<std::uint64_t, 8> h_;
  std::array<std::uint8_t, 128> buf_{};
  std::size_t buf_len_ = 0;
  std::uint64_t t_ = 0;
  std::size_t out_len_;
};

}  // namespace cuzk::filecoin
