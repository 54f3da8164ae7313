// bellperson's SHA-256 (gadgets/sha256.rs) over cuzk's UInt32 / MultiEq, and the SDR labeling
// hash (storage-proofs-porep create_label.rs) built on it: the constraint counts the Rust tests
// assert, digests against OpenSSL, the three modes agreeing, check mode naming the constraint a
// flipped witness bit breaks, and the witness time of one labeling hash.
#define OPENSSL_SUPPRESS_DEPRECATED  // SHA256_Transform: the oracle for one raw compression
#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/multieq.hpp"
#include "cuzk/filecoin/multipack.hpp"
#include "cuzk/filecoin/sha256.hpp"
#include "cuzk/filecoin/uint32.hpp"
#include "cuzk/filecoin/uint64.hpp"
#include "support/circuit_modes.hpp"

namespace {
using namespace cuzk::filecoin;
namespace cs = cuzk::cs;
using cuzk::test::expect_faults_caught;
using cuzk::test::expect_modes_agree;
using Bytes = std::vector<std::uint8_t>;

Bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  Bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

Bytes openssl_sha256(std::span<const std::uint8_t> m) {
  Bytes d(32);
  SHA256(m.data(), m.size(), d.data());
  return d;
}

// Each byte as 8 allocated bits, most significant first, bit j in namespace "bit j"
// (storage-proofs-core util.rs, bytes_into_boolean_vec_be).
template <class CS>
std::vector<Boolean> alloc_bytes_be(CS& cs, std::span<const std::uint8_t> bytes) {
  std::vector<Boolean> bits;
  bits.reserve(bytes.size() * 8);
  for (std::size_t j = 0; j < bytes.size() * 8; ++j) {
    cs::Namespace ns(cs, [j] { return "bit " + std::to_string(j); });
    bits.emplace_back(AllocatedBit::alloc(cs, "boolean", ((bytes[j / 8] >> (7 - j % 8)) & 1) != 0));
  }
  return bits;
}

Bytes bits_to_bytes_be(const std::vector<Boolean>& bits) {
  Bytes out(bits.size() / 8, 0);
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (bits[i].value()) out[i / 8] |= static_cast<std::uint8_t>(0x80 >> (i % 8));
  return out;
}

// sha256(message) over allocated message bits; the digest bytes land in *out (value modes).
struct HashCircuit {
  Bytes msg;
  Bytes* out = nullptr;
  template <class CS>
  void synthesize(CS& cs) const {
    std::vector<Boolean> bits;
    {
      cs::Namespace ns(cs, "message");
      bits = alloc_bytes_be(cs, msg);
    }
    cs::Namespace ns(cs, "sha256");
    std::vector<Boolean> h = sha256(cs, bits);
    if constexpr (CS::kHasValues)
      if (out) *out = bits_to_bytes_be(h);
  }
};

// ---------------------------------------------------------------------------------------------
// Counts asserted by bellperson src/gadgets/sha256.rs tests.

// sha256.rs:285-307 test_blank_hash: a constant block (the padding of the empty message) from
// the constant IV folds completely: no constraint, and the digest of "".
TEST(FilecoinSha256, BlankHashIsConstantAndFree) {
  std::array<Boolean, 512> block;
  for (auto& b : block) b = Boolean::constant(false);
  block[0] = Boolean::constant(true);
  std::vector<Boolean> out;
  auto circuit = [&](auto& cs) { out = sha256_block_no_padding(cs, block); };
  auto r = cs::record<Fr>(circuit);
  EXPECT_EQ(r.num_constraints, 0u);
  EXPECT_EQ(r.num_vars, 1u);
  for (const auto& b : out) EXPECT_TRUE(b.is_constant());
  EXPECT_EQ(bits_to_bytes_be(out), openssl_sha256({}));
}

// sha256.rs:310-335 test_full_block: 512 allocated input bits, one compression from the IV:
// num_constraints - 512 == 25840. Value against OpenSSL's raw compression.
TEST(FilecoinSha256, FullBlockCount25840) {
  std::mt19937_64 rng(11);
  const Bytes block = random_bytes(rng, 64);
  std::array<std::uint32_t, 8> got{};
  auto circuit = [&](auto& cs) {
    using CS = std::remove_cvref_t<decltype(cs)>;
    std::vector<Boolean> bits = alloc_bytes_be(cs, block);
    cs::Namespace ns(cs, "sha256");
    const auto st = sha256_compression_function(cs, bits, get_sha256_iv());
    if constexpr (CS::kHasValues)
      for (int i = 0; i < 8; ++i) got[i] = st[i].value().value();
  };
  auto rep = expect_modes_agree<Fr>(circuit);
  EXPECT_EQ(rep.constraints - 512, 25840u);
  EXPECT_EQ(rep.inputs, 1u);

  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  SHA256_Transform(&ctx, block.data());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], ctx.h[i]) << "word " << i;
}

// sha256.rs:338-361 test_full_hash: sha256 of 512 allocated bits (a second, constant padding
// block over a variable state): num_constraints - 512 == 44874.
TEST(FilecoinSha256, FullHashCount44874) {
  std::mt19937_64 rng(12);
  HashCircuit c{random_bytes(rng, 64)};
  Bytes got;
  auto rep = expect_modes_agree<Fr>(c);
  EXPECT_EQ(rep.constraints - 512, 44874u);
  c.out = &got;
  cs::WitnessCS<Fr> w;
  c.synthesize(w);
  EXPECT_EQ(got, openssl_sha256(c.msg));
}

// The MultiEq of each compression is flushed where the Rust drops it: as the last constraint of
// sha256_compression_function, in the caller's namespace (here "sha256/block i"), with B = ONE.
TEST(FilecoinSha256, MultiEqFlushClosesEachBlock) {
  std::mt19937_64 rng(13);
  HashCircuit c{random_bytes(rng, 100)};  // 2 blocks, both with variable message bits
  auto r = cs::record<Fr>(c, /*keep_names=*/true);
  std::vector<std::size_t> block_ends;
  for (std::size_t i = 0; i + 1 < r.num_constraints; ++i) {
    const auto cur = r.constraint_name(i), next = r.constraint_name(i + 1);
    if (cur.starts_with("sha256/block 0/") && next.starts_with("sha256/block 1/")) block_ends.push_back(i);
  }
  block_ends.push_back(r.num_constraints - 1);
  ASSERT_EQ(block_ends.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    const std::size_t i = block_ends[k];
    const std::string want = "sha256/block " + std::to_string(k) + "/multieq ";
    EXPECT_TRUE(r.constraint_name(i).starts_with(want)) << r.constraint_name(i);
    const auto b = r.B.row(i);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b.cols[0], 0u);
    EXPECT_TRUE(b.vals[0] == Fr::one());
  }
  // A flush forced mid-block sits in the namespace of the addmany that did not fit: 7 schedule
  // sums of 34 bits use 238, and the 8th (w extension 23) would pass CAPACITY - 1 = 253.
  std::size_t first = 0;
  while (first < r.num_constraints && r.constraint_name(first).find("multieq") == std::string_view::npos) ++first;
  ASSERT_LT(first, r.num_constraints);
  EXPECT_EQ(r.constraint_name(first), "sha256/block 0/w extension 23/computation of w[i]/multieq 0");
}

// Values against OpenSSL on messages whose padding ends in the same block, exactly fills one,
// or spills into the next (55, 56, 63, 64, 119, 120 bytes ...), plus bellperson's
// test_against_vectors lengths (sha256.rs:364: 0..32 and 32..256 step 8 bytes).
TEST(FilecoinSha256, MatchesOpenSSL) {
  std::mt19937_64 rng(14);
  std::vector<std::size_t> lens = {1, 31, 55, 56, 63, 64, 65, 119, 120, 128, 191, 1184, 1248};
  for (std::size_t n = 0; n < 32; ++n) lens.push_back(n);
  for (std::size_t n = 32; n < 256; n += 8) lens.push_back(n);
  for (std::size_t len : lens) {
    HashCircuit c{random_bytes(rng, len)};
    Bytes got;
    c.out = &got;
    cs::WitnessCS<Fr> w;
    c.synthesize(w);
    EXPECT_EQ(got, openssl_sha256(c.msg)) << "length " << len;
  }
  for (std::size_t len : {0u, 55u, 56u, 64u, 119u}) {
    HashCircuit c{random_bytes(rng, len)};
    SCOPED_TRACE("length " + std::to_string(len));
    expect_modes_agree<Fr>(c);
  }
}

// A compression from an allocated (not constant) state: value against SHA256_Transform with that
// state; all three modes agree, and changed wires are caught.
TEST(FilecoinSha256, CompressionFromVariableState) {
  std::mt19937_64 rng(15);
  const Bytes block = random_bytes(rng, 64);
  std::array<std::uint32_t, 8> st{};
  for (auto& x : st) x = static_cast<std::uint32_t>(rng());
  std::array<std::uint32_t, 8> got{};
  auto circuit = [&](auto& cs) {
    using CS = std::remove_cvref_t<decltype(cs)>;
    std::array<UInt32, 8> state;
    for (std::size_t i = 0; i < 8; ++i) {
      cs::Namespace ns(cs, [i] { return "state " + std::to_string(i); });
      state[i] = UInt32::alloc(cs, st[i]);
    }
    std::vector<Boolean> bits = alloc_bytes_be(cs, block);
    const auto out = sha256_compression_function(cs, bits, state);
    if constexpr (CS::kHasValues)
      for (int i = 0; i < 8; ++i) got[i] = out[i].value().value();
  };
  expect_modes_agree<Fr>(circuit);
  expect_faults_caught<Fr>(circuit, 12, 5);
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  for (int i = 0; i < 8; ++i) ctx.h[i] = st[i];
  SHA256_Transform(&ctx, block.data());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], ctx.h[i]) << "word " << i;
}

// Check mode names the first constraint a flipped bit breaks: an xor result breaks its own xor
// constraint; a flipped carry bit of a schedule sum (booleanity still holds) breaks the MultiEq
// constraint that carries that sum, flushed later under w extension 23.
TEST(FilecoinSha256, CheckModeNamesTheBrokenConstraint) {
  std::mt19937_64 rng(16);
  HashCircuit c{random_bytes(rng, 64)};
  auto r = cs::record<Fr>(c, true);
  auto a = cs::witness<Fr>(c);
  // The wire a constraint defines: the newest (highest) wire it mentions.
  auto wire_of = [&](std::string_view constraint) -> std::uint32_t {
    for (std::size_t i = 0; i < r.num_constraints; ++i) {
      if (r.constraint_name(i) != constraint) continue;
      std::uint32_t top = 0;
      for (const auto* m : {&r.A, &r.B, &r.C})
        for (std::uint32_t col : m->row(i).cols) top = std::max(top, col);
      return top - static_cast<std::uint32_t>(a.inputs.size());
    }
    ADD_FAILURE() << "no constraint " << constraint;
    return 0;
  };
  struct Case {
    std::string bit_constraint;  // the constraint that defines the wire to flip
    std::string expect;          // the first unsatisfied constraint
  };
  const std::string w16 = "sha256/block 0/w extension 16/";
  const Case cases[] = {
      {w16 + "first xor for s0/xor of bit 5/xor constraint", w16 + "first xor for s0/xor of bit 5/xor constraint"},
      {w16 + "computation of w[i]/result bit 33/boolean constraint",
       "sha256/block 0/w extension 23/computation of w[i]/multieq 0"},
      {"sha256/block 0/compression round 7/maj/maj 3/b and c/and constraint",
       "sha256/block 0/compression round 7/maj/maj 3/b and c/and constraint"},
  };
  for (const auto& cs_case : cases) {
    const std::uint32_t idx = wire_of(cs_case.bit_constraint);
    cs::CheckCS<Fr> k;
    k.inject_fault(idx, Fr::one() - a.aux[idx]);
    c.synthesize(k);
    ASSERT_FALSE(k.is_satisfied()) << cs_case.bit_constraint;
    EXPECT_EQ(k.first_unsatisfied()->name, cs_case.expect);
  }
  expect_faults_caught<Fr>(c, 16, 21);
}

// ---------------------------------------------------------------------------------------------
// create_label (storage-proofs-porep stacked/circuit/create_label.rs): the SDR labeling hash of
// id | layer (BE u32) | node (BE u64) | zeros to 64 bytes | 37 parents x 32 bytes = 1248 bytes,
// its bit-reversed digest packed into one number. create_label.rs:172 asserts 532_025
// constraints for the test circuit (37·256 parent bits and 256 id bits allocated first).

struct CreateLabelCircuit {
  Bytes id;                   // 32 bytes
  std::vector<Bytes> parents;  // 37 x 32 bytes
  std::uint32_t layer = 3;
  std::uint64_t node = 22;
  Fr* out = nullptr;
  double* hash_us = nullptr;  // when set: wall time of the sha256 call alone

  template <class CS>
  void synthesize(CS& cs) const {
    std::vector<std::vector<Boolean>> parent_bits;
    for (std::size_t i = 0; i < parents.size(); ++i) {
      cs::Namespace ns(cs, [i] { return "parents " + std::to_string(i); });
      parent_bits.push_back(alloc_bytes_be(cs, parents[i]));
    }
    std::vector<Boolean> id_bits;
    {
      cs::Namespace ns(cs, "id");
      id_bits = alloc_bytes_be(cs, id);
    }
    const UInt32 layer_w = UInt32::constant(layer);
    const UInt64 node_w = UInt64::constant(node);

    cs::Namespace ns(cs, "create_label");
    std::vector<Boolean> pre = id_bits;
    while (pre.size() < 256) pre.push_back(Boolean::constant(false));
    for (const auto& b : layer_w.into_bits_be()) pre.push_back(b);
    for (const auto& b : node_w.to_bits_be()) pre.push_back(b);
    while (pre.size() < 512) pre.push_back(Boolean::constant(false));
    for (const auto& p : parent_bits) {
      pre.insert(pre.end(), p.begin(), p.end());
      while (pre.size() % 256 != 0) pre.push_back(Boolean::constant(false));
    }
    std::vector<Boolean> digest;
    {
      cs::Namespace h(cs, "hash");
      const auto t0 = std::chrono::steady_clock::now();
      digest = sha256(cs, pre);
      if (hash_us) *hash_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    }
    const std::vector<Boolean> bits = reverse_bit_numbering(digest);
    cs::Namespace rn(cs, "result_num");
    const AllocatedNum packed = pack_bits(cs, std::span<const Boolean>(bits));
    if constexpr (CS::kHasValues)
      if (out) *out = packed.value();
  }

  Bytes preimage() const {
    Bytes b = id;
    for (int i = 3; i >= 0; --i) b.push_back(static_cast<std::uint8_t>(layer >> (8 * i)));
    for (int i = 7; i >= 0; --i) b.push_back(static_cast<std::uint8_t>(node >> (8 * i)));
    b.resize(64, 0);
    for (const auto& p : parents) b.insert(b.end(), p.begin(), p.end());
    return b;
  }
};

CreateLabelCircuit random_label_circuit(std::mt19937_64& rng) {
  CreateLabelCircuit c;
  c.id = random_bytes(rng, 32);
  for (int i = 0; i < 37; ++i) c.parents.push_back(random_bytes(rng, 32));
  return c;
}

Fr expected_label(const CreateLabelCircuit& c) {
  Bytes d = openssl_sha256(c.preimage());
  d[31] &= 0x3f;  // the packed number keeps the first 254 bits (little-endian)
  return Fr::from_bytes_le(d);
}

TEST(FilecoinSha256, CreateLabelCount532025) {
  std::mt19937_64 rng(17);
  CreateLabelCircuit c = random_label_circuit(rng);
  ASSERT_EQ(c.preimage().size(), 1248u);
  auto rep = expect_modes_agree<Fr>(c);
  EXPECT_EQ(rep.constraints, 532025u);
  Fr got;
  c.out = &got;
  cs::WitnessCS<Fr> w;
  c.synthesize(w);
  EXPECT_TRUE(got == expected_label(c));
}

// Single-threaded WitnessCS time of the labeling circuit and of its sha256 call alone (printed:
// min and median of the runs; the label is checked every time). Each run is a fresh WitnessCS
// reserved to the circuit's size, so a run also pays first touches of the assignment's ~17 MB
// wherever the allocator hands out fresh pages.
TEST(FilecoinSha256, CreateLabelWitnessTiming) {
  std::mt19937_64 rng(18);
  CreateLabelCircuit c = random_label_circuit(rng);
  const Fr want = expected_label(c);
  constexpr int kRuns = 15;
  std::size_t wires = 0;
  {
    cs::WitnessCS<Fr> w;
    c.synthesize(w);
    wires = w.num_aux();
  }
  using Clock = std::chrono::steady_clock;
  std::vector<double> label_us, hash_us;
  for (int run = 0; run < kRuns; ++run) {
    Fr got;
    double h_us = 0;
    c.out = &got;
    c.hash_us = &h_us;
    cs::WitnessCS<Fr> w;
    w.reserve(wires);
    const auto t0 = Clock::now();
    c.synthesize(w);
    label_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    hash_us.push_back(h_us);
    ASSERT_TRUE(got == want);
  }
  std::sort(label_us.begin(), label_us.end());
  std::sort(hash_us.begin(), hash_us.end());
  std::printf("WitnessCS, 1 thread, %zu aux wires: create_label circuit (9728 bits + SHA-256 of 1248 B + pack) "
              "min %.0f us, median %.0f us; its sha256 call min %.0f us, median %.0f us\n",
              wires, label_us.front(), label_us[kRuns / 2], hash_us.front(), hash_us[kRuns / 2]);
}

}  // namespace
