// SHA-256 gadget against OpenSSL on random messages of several lengths; constraint counts pinned.
#define OPENSSL_SUPPRESS_DEPRECATED  // SHA256_Transform: the raw-compression oracle
#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <random>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gadgets/sha256.hpp"
#include "support/circuit_modes.hpp"

namespace {
using namespace cuzk;

template <class F>
class Sha256Gadget : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bn254::Fr>;
TYPED_TEST_SUITE(Sha256Gadget, Fields);

// Constraints of one compression with every state and block bit a variable (not counting the
// 768 booleanity constraints of those inputs). bellperson's implementation: 27,904 per block.

constexpr std::size_t kExpectedCompression = 26416;  // see the report: 48*150 + 64*296 + 8*34

std::vector<std::uint8_t> openssl_sha256(const std::vector<std::uint8_t>& m) {
  std::vector<std::uint8_t> d(32);
  SHA256(m.data(), m.size(), d.data());
  return d;
}

template <class F>
struct HashCircuit {
  std::vector<std::uint8_t> msg;
  std::vector<std::uint8_t>* out = nullptr;  // digest bytes (witness modes)
  template <class CS>
  void synthesize(CS& cs) const {
    auto bits = gadgets::alloc_bytes_be<F>(cs, msg);
    auto h = gadgets::sha256<F>(cs, std::span<const gadgets::Boolean<F>>(bits));
    if constexpr (CS::kHasValues) {
      if (out) {
        out->assign(32, 0);
        for (int i = 0; i < 256; ++i)
          if (h[i].value()) (*out)[i / 8] |= static_cast<std::uint8_t>(0x80 >> (i % 8));
      }
    }
    // expose the digest as public inputs, bit by bit
    for (int i = 0; i < 256; ++i) {
      const bool v = h[i].value();
      auto o = gadgets::Boolean<F>::alloc_input(cs, "digest", [&] { return v; });
      gadgets::enforce_equal<F>(cs, h[i], o);
    }
  }
};

TYPED_TEST(Sha256Gadget, MatchesOpenSSL) {
  using F = TypeParam;
  std::mt19937 rng(42);
  for (std::size_t len : {0u, 3u, 55u, 56u, 64u, 119u}) {
    std::vector<std::uint8_t> m(len);
    for (auto& b : m) b = static_cast<std::uint8_t>(rng());
    std::vector<std::uint8_t> got;
    HashCircuit<F> c{m, &got};
    cs::WitnessCS<F> w;
    c.synthesize(w);
    EXPECT_EQ(got, openssl_sha256(m)) << "length " << len;
    if (len == 55 || len == 64) {
      auto rep = test::expect_modes_agree<F>(HashCircuit<F>{m, nullptr});
      EXPECT_EQ(rep.inputs, 257u);
    }
  }
}

TYPED_TEST(Sha256Gadget, CompressionConstraintCount) {
  using F = TypeParam;
  std::mt19937 rng(7);
  std::array<std::uint32_t, 8> st;
  for (auto& x : st) x = rng();
  std::vector<std::uint8_t> blk(64);
  for (auto& b : blk) b = static_cast<std::uint8_t>(rng());
  std::array<std::uint32_t, 8> got{};
  auto circuit = [&](auto& cs) {
    using CS = std::remove_cvref_t<decltype(cs)>;
    std::array<gadgets::UInt32<F>, 8> s;
    for (int i = 0; i < 8; ++i) s[i] = gadgets::UInt32<F>::alloc(cs, [&] { return st[i]; });
    auto bits = gadgets::alloc_bytes_be<F>(cs, blk);
    auto out = gadgets::sha256_compress<F>(cs, s, std::span<const gadgets::Boolean<F>>(bits));
    if constexpr (CS::kHasValues)
      for (int i = 0; i < 8; ++i) got[i] = out[i].value();
  };
  auto r = cs::record<F>(circuit);
  const std::size_t n = r.num_constraints - 768;
  std::printf("SHA-256 compression: %zu constraints (all inputs variables)\n", n);
  EXPECT_EQ(n, kExpectedCompression);

  test::expect_modes_agree<F>(circuit);
  test::expect_faults_caught<F>(circuit, 4, 9);
  // Oracle for a raw compression: OpenSSL's SHA256_Transform on the same state.
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  for (int i = 0; i < 8; ++i) ctx.h[i] = st[i];
  SHA256_Transform(&ctx, blk.data());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], ctx.h[i]) << "word " << i;
}

TYPED_TEST(Sha256Gadget, FullHashCountsAndFaults) {
  using F = TypeParam;
  std::vector<std::uint8_t> m(64, 0xab);
  HashCircuit<F> c{m, nullptr};
  auto r = cs::record<F>(c);
  // 64-byte message: 512 message booleans + 2 compressions (the second over a constant block)
  // + 256 digest pins (alloc + equality each).
  std::printf("SHA-256 of 64 bytes: %u constraints\n", r.num_constraints);
  // 512 message booleans + 45,280 (two compressions; IV and padding block are constants) + 512 pins
  EXPECT_EQ(r.num_constraints, 46304u);
  test::expect_faults_caught<F>(c, 4, 3);
  // Check mode names the failing constraint with its path.
  cs::CheckCS<F> k;
  k.inject_fault(600, F::from_u64(2));
  c.synthesize(k);
  ASSERT_FALSE(k.is_satisfied());
  EXPECT_NE(k.first_unsatisfied()->name.find("sha256/block 0/"), std::string::npos) << k.first_unsatisfied()->name;
}

}  // namespace
