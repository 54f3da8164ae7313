// The SDR graph's primitives against independent answers: ChaCha as rand_chacha emits it
// (rand_chacha 0.3 chacha.rs tests' true values, which are the ChaCha20 draft's test vectors),
// ChaCha20 (IETF) against OpenSSL's, BLAKE2b against OpenSSL's BLAKE2b512 and BLAKE2BMAC, and the
// Feistel permutation's properties as storage-proofs-core crypto/feistel.rs and
// storage-proofs-porep graph.rs test them.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "cuzk/filecoin/blake2b.hpp"
#include "cuzk/filecoin/chacha.hpp"
#include "cuzk/filecoin/feistel.hpp"

namespace cuzk::filecoin {
namespace {

using Seed = std::array<std::uint8_t, 32>;

std::array<std::uint32_t, 16> next16(ChaChaRng& rng) {
  std::array<std::uint32_t, 16> out;
  for (auto& w : out) w = rng.next_u32();
  return out;
}

// rand_chacha chacha.rs test_chacha_true_values_a (ChaCha20Rng, zero seed: blocks 0 and 1).
TEST(ChaChaRng, TrueValuesZeroSeed) {
  ChaChaRng rng(Seed{}, 20);
  EXPECT_EQ(next16(rng),
            (std::array<std::uint32_t, 16>{0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653, 0xb819d2bd, 0x1aed8da0,
                                           0xccef36a8, 0xc70d778b, 0x7c5941da, 0x8d485751, 0x3fe02477, 0x374ad8b8,
                                           0xf4b8436a, 0x1ca11815, 0x69b687c3, 0x8665eeb2}));
  EXPECT_EQ(next16(rng),
            (std::array<std::uint32_t, 16>{0xbee7079f, 0x7a385155, 0x7c97ba98, 0x0d082d73, 0xa0290fcb, 0x6965e348,
                                           0x3e53c612, 0xed7aee32, 0x7621b729, 0x434ee69c, 0xb03371d5, 0xd539d874,
                                           0x281fed31, 0x45fb0a51, 0x1f0ae1ac, 0x6f4d794b}));
}

// test_chacha_true_values_b and _c: other seeds, later blocks.
TEST(ChaChaRng, TrueValuesLaterBlocks) {
  Seed s{};
  s[31] = 1;
  ChaChaRng b(s, 20);
  next16(b);
  EXPECT_EQ(next16(b),
            (std::array<std::uint32_t, 16>{0x2452eb3a, 0x9249f8ec, 0x8d829d9b, 0xddd4ceb1, 0xe8252083, 0x60818b01,
                                           0xf38422b8, 0x5aaa49c9, 0xbb00ca8e, 0xda3ba7b4, 0xc4b592d1, 0xfdf2732f,
                                           0x4436274e, 0x2561b3c8, 0xebdd4aa6, 0xa0136c00}));
  Seed t{};
  t[1] = 0xff;
  ChaChaRng c(t, 20);
  for (int i = 0; i < 32; ++i) c.next_u32();
  EXPECT_EQ(next16(c),
            (std::array<std::uint32_t, 16>{0xfb4dd572, 0x4bc42ef1, 0xdf922636, 0x327f1394, 0xa78dea8f, 0x5e269039,
                                           0xa1bebbc1, 0xcaf09aae, 0xa25ab213, 0x48a6b46c, 0x1b9d9bcb, 0x092c5be6,
                                           0x546ca624, 0x1bec45d5, 0x87f47473, 0x96f0992e}));
}

// test_chacha_multiple_blocks: word i of block i, i = 0..15, with a u64 mix-in to check that
// next_u64 consumes two words, low first (the Rust test draws only u32s).
TEST(ChaChaRng, MultipleBlocksAndU64) {
  Seed s{};
  for (int i = 0; i < 8; ++i) s[4 * i] = static_cast<std::uint8_t>(i);
  const std::array<std::uint32_t, 16> expected{0xf225c81a, 0x6ab1be57, 0x04d42951, 0x70858036, 0x49884684, 0x64efec72,
                                               0x4be2d186, 0x3615b384, 0x11cfa18e, 0xd3c50049, 0x75c775f6, 0x434c6530,
                                               0x2c5bad8f, 0x898881dc, 0x5f1c86d9, 0xc1f8e7f4};
  ChaChaRng rng(s, 20);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(rng.next_u32(), expected[i]) << "block " << i;
    for (int k = 0; k < 16; ++k) rng.next_u32();
  }
  ChaChaRng a(s, 20), b(s, 20);
  for (int i = 0; i < 40; ++i) {
    const std::uint64_t lo = a.next_u32();
    const std::uint64_t hi = a.next_u32();
    ASSERT_EQ(b.next_u64(), lo | hi << 32) << i;
  }
}

// test_chacha_construction (seed words 0,1,2,3 as u64 LE) and test_chacha_nonce (stream 2 << 56).
TEST(ChaChaRng, ConstructionAndStream) {
  Seed s{};
  s[8] = 1;
  s[16] = 2;
  s[24] = 3;
  ChaChaRng rng(s, 20);
  EXPECT_EQ(rng.next_u32(), 137206642u);
  ChaChaRng n(Seed{}, 20, std::uint64_t{2} << 56);
  EXPECT_EQ(next16(n),
            (std::array<std::uint32_t, 16>{0x374dc6c2, 0x3736d58c, 0xb904e24a, 0xcd3f93ef, 0x88228b1a, 0x96a4dfb3,
                                           0x5b76ab72, 0xc727ee54, 0x0e0e978a, 0xf3145c95, 0x1b748ea8, 0xf786c297,
                                           0x99c28f5f, 0x628314e8, 0x398a19fa, 0x6ded1b53}));
}

// ChaCha8Rng with the zero seed: first u64 0xd6405f892fef003e, as a rand_chacha-compatible C
// port documents it (nixberg/chacha-rng-c README). The parent cache digests are the real test.
TEST(ChaChaRng, ChaCha8ZeroSeed) {
  ChaChaRng rng = ChaChaRng::chacha8(Seed{});
  EXPECT_EQ(rng.next_u64(), 0xd6405f892fef003eull);
}

// OpenSSL's ChaCha20: a 16-byte IV = the 32-bit block counter (LE) then the 12-byte nonce.
std::vector<std::uint8_t> openssl_chacha20(const Seed& key, const std::array<std::uint8_t, 12>& nonce,
                                           std::uint32_t counter, std::size_t len) {
  std::uint8_t iv[16];
  for (int i = 0; i < 4; ++i) iv[i] = static_cast<std::uint8_t>(counter >> (8 * i));
  std::copy(nonce.begin(), nonce.end(), iv + 4);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  std::vector<std::uint8_t> zeros(len, 0), out(len);
  int n = 0;
  EXPECT_EQ(EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, key.data(), iv), 1);
  EXPECT_EQ(EVP_EncryptUpdate(ctx, out.data(), &n, zeros.data(), static_cast<int>(len)), 1);
  EVP_CIPHER_CTX_free(ctx);
  return out;
}

TEST(ChaCha20Ietf, MatchesOpenSslWithSeeks) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    Seed key;
    std::array<std::uint8_t, 12> nonce;
    for (auto& b : key) b = static_cast<std::uint8_t>(rng());
    for (auto& b : nonce) b = static_cast<std::uint8_t>(rng());
    const std::vector<std::uint8_t> ref = openssl_chacha20(key, nonce, 0, 64 * 9);
    // Whole stream in odd-sized pieces.
    ChaCha20Ietf c(key, nonce);
    std::vector<std::uint8_t> got(ref.size(), 0);
    for (std::size_t off = 0; off < got.size();) {
      const std::size_t n = std::min<std::size_t>(got.size() - off, 1 + rng() % 100);
      c.apply_keystream(std::span(got).subspan(off, n));
      off += n;
    }
    ASSERT_EQ(got, ref) << trial;
    // Seek to an arbitrary byte.
    const std::size_t pos = rng() % (64 * 8);
    std::vector<std::uint8_t> piece(40, 0);
    c.seek(pos);
    c.apply_keystream(piece);
    ASSERT_TRUE(std::equal(piece.begin(), piece.end(), ref.begin() + static_cast<std::ptrdiff_t>(pos))) << pos;
  }
  // A far block through OpenSSL's counter.
  Seed key{};
  key[0] = 9;
  const std::array<std::uint8_t, 12> nonce{'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
  const std::vector<std::uint8_t> far = openssl_chacha20(key, nonce, 123456, 64);
  ChaCha20Ietf c(key, nonce);
  c.seek(std::uint64_t{123456} * 64);
  std::vector<std::uint8_t> got(64, 0);
  c.apply_keystream(got);
  EXPECT_EQ(got, far);
}

std::vector<std::uint8_t> openssl_blake2b512(const std::vector<std::uint8_t>& msg) {
  std::vector<std::uint8_t> out(64);
  unsigned len = 0;
  EXPECT_EQ(EVP_Digest(msg.data(), msg.size(), out.data(), &len, EVP_blake2b512(), nullptr), 1);
  EXPECT_EQ(len, 64u);
  return out;
}

std::vector<std::uint8_t> openssl_blake2b_mac(const std::string& key, const std::vector<std::uint8_t>& msg,
                                              std::size_t out_len) {
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "BLAKE2BMAC", nullptr);
  EXPECT_NE(mac, nullptr);
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
  std::size_t size = out_len;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_construct_end()};
  EXPECT_EQ(EVP_MAC_init(ctx, reinterpret_cast<const unsigned char*>(key.data()), key.size(), params), 1);
  EXPECT_EQ(EVP_MAC_update(ctx, msg.data(), msg.size()), 1);
  std::vector<std::uint8_t> out(out_len);
  std::size_t n = 0;
  EXPECT_EQ(EVP_MAC_final(ctx, out.data(), &n, out.size()), 1);
  EXPECT_EQ(n, out_len);
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
  return out;
}

TEST(Blake2b, MatchesOpenSsl) {
  std::mt19937_64 rng(11);
  for (std::size_t len : {0, 1, 16, 127, 128, 129, 255, 256, 257, 1000}) {
    std::vector<std::uint8_t> msg(len);
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
    // Unkeyed, 64 bytes, fed in two pieces.
    Blake2b h;
    h.update(std::span(msg).first(len / 3)).update(std::span(msg).subspan(len / 3));
    EXPECT_EQ(h.finalize(), openssl_blake2b512(msg)) << len;
    // Keyed, 32 bytes: the synthetic-PoRep PRF key's form.
    const std::string key = "filecoin.io|PoRep|1|Synthetic|1|Generation";
    Blake2b k(32, std::span(reinterpret_cast<const std::uint8_t*>(key.data()), key.size()));
    k.update(msg);
    EXPECT_EQ(k.finalize(), openssl_blake2b_mac(key, msg, 32)) << len;
  }
}

// The Feistel round function is BLAKE2b-512's first 8 bytes, big-endian, of right BE ‖ key BE.
TEST(Feistel, RoundFunctionIsBlake2b) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 50; ++i) {
    const std::uint64_t right = rng(), key = rng(), mask = (std::uint64_t{1} << (1 + rng() % 40)) - 1;
    std::vector<std::uint8_t> msg(16);
    for (int b = 0; b < 8; ++b) {
      msg[b] = static_cast<std::uint8_t>(right >> (56 - 8 * b));
      msg[8 + b] = static_cast<std::uint8_t>(key >> (56 - 8 * b));
    }
    const std::vector<std::uint8_t> d = openssl_blake2b512(msg);
    std::uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v = (v << 8) | d[b];
    ASSERT_EQ(feistel_round(right, key, mask), v & mask);
  }
}

// feistel.rs precompute: the smallest even bit count covering n (at least 2 bits).
TEST(Feistel, Precompute) {
  const auto p = feistel_precompute(512);  // 2 KiB: 64 nodes * 8
  EXPECT_EQ(p.half_bits, 5u);
  EXPECT_EQ(p.right_mask, 31u);
  EXPECT_EQ(p.left_mask, 31u << 5);
  EXPECT_EQ(feistel_precompute(1).half_bits, 1u);
  EXPECT_EQ(feistel_precompute(4).half_bits, 1u);
  EXPECT_EQ(feistel_precompute(5).half_bits, 2u);
  EXPECT_EQ(feistel_precompute(std::uint64_t{1} << 33).half_bits, 17u);  // 32 GiB
}

const std::uint64_t kKeys[4] = {1, 2, 3, 4};

// feistel.rs test_feistel_power_of_4: for n a power of 4 one encryption is a permutation of
// [0, n) that decode inverts; for the n in BAD_NS it is not.
TEST(Feistel, PowerOf4EncodeDecode) {
  for (std::uint64_t n : {4, 16, 64, 256}) {
    const auto p = feistel_precompute(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t e = feistel_encode(i, kKeys, p);
      ASSERT_LT(e, n);
      ASSERT_EQ(feistel_decode(e, kKeys, p), i);
    }
  }
  for (std::uint64_t n : {5, 6, 8, 12, 17}) {
    const auto p = feistel_precompute(n);
    bool failed = false;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t e = feistel_encode(i, kKeys, p);
      failed = failed || e >= n || feistel_decode(e, kKeys, p) != i;
    }
    EXPECT_TRUE(failed) << n;
  }
}

// test_feistel_on_arbitrary_set, and graph.rs test_shuffle (n = 1024 nodes, degree 8: all
// n * d indices map to distinct values).
TEST(Feistel, CycleWalkingIsAPermutation) {
  for (std::uint64_t n : {5, 6, 8, 12, 17}) {
    const auto p = feistel_precompute(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t e = feistel_permute(n, i, kKeys, p);
      ASSERT_LT(e, n);
      ASSERT_EQ(feistel_invert_permute(n, e, kKeys, p), i);
    }
  }
  const std::uint64_t nd = 1024 * 8;
  const auto p = feistel_precompute(nd);
  std::vector<bool> seen(nd, false);
  for (std::uint64_t i = 0; i < nd; ++i) {
    const std::uint64_t e = feistel_permute(nd, i, kKeys, p);
    ASSERT_LT(e, nd);
    ASSERT_FALSE(seen[e]) << i;
    seen[e] = true;
  }
}

}  // namespace
}  // namespace cuzk::filecoin
