// bellperson's UInt32 and MultiEq (gadgets/uint32.rs, multieq.rs), storage-proofs-core's UInt64
// and encode/decode (gadgets/uint64.rs, encode.rs), as cuzk mirrors them: values on random words,
// constant folding, result widths and MultiEq packing, the three modes agreeing, and check mode
// naming the constraint a flipped bit breaks. The SHA-256 built on them is in sha256_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/encode.hpp"
#include "cuzk/filecoin/multieq.hpp"
#include "cuzk/filecoin/uint32.hpp"
#include "cuzk/filecoin/uint64.hpp"
#include "support/circuit_modes.hpp"

namespace {
using namespace cuzk::filecoin;
namespace cs = cuzk::cs;
using cuzk::test::expect_faults_caught;
using cuzk::test::expect_modes_agree;

// ---------------------------------------------------------------------------------------------
// UInt32 (bellperson src/gadgets/uint32.rs tests).

TEST(FilecoinUInt32, FromBitsRoundTrip) {  // test_uint32_from_bits_be / test_uint32_from_bits
  std::mt19937_64 rng(21);
  for (int t = 0; t < 200; ++t) {
    std::vector<Boolean> v;
    for (int i = 0; i < 32; ++i) v.push_back(Boolean::constant(rng() & 1));
    const UInt32 be = UInt32::from_bits_be<cs::RecordCS<Fr>>(v);
    const UInt32 le = UInt32::from_bits<cs::RecordCS<Fr>>(v);
    ASSERT_TRUE(be.value() && le.value()) << "constant bits have a known value in every mode";
    for (int i = 0; i < 32; ++i) {
      EXPECT_EQ(((*be.value() >> i) & 1) != 0, v[31 - i].value());
      EXPECT_EQ(((*le.value() >> i) & 1) != 0, v[i].value());
    }
    const auto back_be = be.into_bits_be(), back_le = le.into_bits();
    for (int i = 0; i < 32; ++i) {
      EXPECT_TRUE(back_be[i].is_constant() && back_be[i].value() == v[i].value());
      EXPECT_TRUE(back_le[i].is_constant() && back_le[i].value() == v[i].value());
    }
  }
  // Allocated bits: known in value modes, unknown while recording (Rust's None).
  cs::RecordCS<Fr> rec;
  const UInt32 x = UInt32::alloc(rec, 5);
  EXPECT_FALSE(UInt32::from_bits_be<cs::RecordCS<Fr>>(x.into_bits_be()).value());
  cs::WitnessCS<Fr> wit;
  const UInt32 y = UInt32::alloc(wit, 0xdeadbeef);
  EXPECT_EQ(UInt32::from_bits_be<cs::WitnessCS<Fr>>(y.into_bits_be()).value(), 0xdeadbeefu);
}

TEST(FilecoinUInt32, RotrShr) {  // test_uint32_rotr / test_uint32_shr
  std::mt19937_64 rng(22);
  for (int t = 0; t < 50; ++t) {
    const auto num = static_cast<std::uint32_t>(rng());
    const UInt32 a = UInt32::constant(num);
    for (std::size_t i = 0; i < 60; ++i) {
      const std::uint32_t rot = (num >> (i % 32)) | (i % 32 ? num << (32 - i % 32) : 0);
      const std::uint32_t sh = num >> (i % 32);
      const UInt32 r = a.rotr(i), s = a.shr(i);
      EXPECT_EQ(r.value(), rot);
      EXPECT_EQ(s.value(), sh);
      for (int b = 0; b < 32; ++b) {
        EXPECT_EQ(r.bits()[b].value(), ((rot >> b) & 1) != 0);
        EXPECT_EQ(s.bits()[b].value(), ((sh >> b) & 1) != 0);
      }
    }
  }
}

// a (allocated) op b (constant) op c (allocated), values and bits checked in all three modes.
template <class Op, class Ref>
void expect_triop(Op op, Ref ref, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 40; ++t) {
    const auto a = static_cast<std::uint32_t>(rng()), b = static_cast<std::uint32_t>(rng()),
               c = static_cast<std::uint32_t>(rng());
    const std::uint32_t want = ref(a, b, c);
    std::optional<std::uint32_t> got;
    bool bits_ok = true;
    auto circuit = [&](auto& cs) {
      using CS = std::remove_cvref_t<decltype(cs)>;
      UInt32 x, z;
      {
        cs::Namespace ns(cs, "a_bit");
        x = UInt32::alloc(cs, a);
      }
      {
        cs::Namespace ns(cs, "c_bit");
        z = UInt32::alloc(cs, c);
      }
      const UInt32 r = op(cs, x, UInt32::constant(b), z);
      if constexpr (CS::kHasValues) {
        got = r.value();
        for (int i = 0; i < 32; ++i) bits_ok = bits_ok && r.bits()[i].value() == (((want >> i) & 1) != 0);
      }
    };
    expect_modes_agree<Fr>(circuit);
    EXPECT_EQ(got, want);
    EXPECT_TRUE(bits_ok);
  }
}

TEST(FilecoinUInt32, XorMajCh) {  // test_uint32_xor / test_uint32_sha256_maj / test_uint32_sha256_ch
  expect_triop([](auto& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    UInt32 r;
    {
      cs::Namespace ns(cs, "first xor");
      r = a.xor_(cs, b);
    }
    cs::Namespace ns(cs, "second xor");
    return r.xor_(cs, c);
  }, [](std::uint32_t a, std::uint32_t b, std::uint32_t c) { return a ^ b ^ c; }, 23);
  expect_triop([](auto& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    return UInt32::sha256_maj(cs, a, b, c);
  }, [](std::uint32_t a, std::uint32_t b, std::uint32_t c) { return (a & b) ^ (a & c) ^ (b & c); }, 24);
  expect_triop([](auto& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    return UInt32::sha256_ch(cs, a, b, c);
  }, [](std::uint32_t a, std::uint32_t b, std::uint32_t c) { return (a & b) ^ (~a & c); }, 25);
  // all three operands allocated: one wire per bit for ch, two for maj (maj and "b and c")
  auto count = [](auto op) {
    auto circuit = [&](auto& cs) {
      const UInt32 a = UInt32::alloc(cs, 1), b = UInt32::alloc(cs, 2), c = UInt32::alloc(cs, 3);
      op(cs, a, b, c);
    };
    return cs::record<Fr>(circuit).num_constraints - 96;
  };
  EXPECT_EQ(count([](auto& cs, auto& a, auto& b, auto& c) { return UInt32::sha256_ch(cs, a, b, c); }), 32u);
  EXPECT_EQ(count([](auto& cs, auto& a, auto& b, auto& c) { return UInt32::sha256_maj(cs, a, b, c); }), 64u);
}

TEST(FilecoinUInt32, AddmanyConstantsFold) {  // test_uint32_addmany_constants
  std::mt19937_64 rng(26);
  for (int t = 0; t < 100; ++t) {
    const auto a = static_cast<std::uint32_t>(rng()), b = static_cast<std::uint32_t>(rng()),
               c = static_cast<std::uint32_t>(rng());
    UInt32 r;
    auto circuit = [&](auto& cs) {
      MultiEq meq(cs);
      cs::Namespace ns(cs, "addition");
      const std::array<UInt32, 3> ops = {UInt32::constant(a), UInt32::constant(b), UInt32::constant(c)};
      r = UInt32::addmany(meq, ops);
    };
    auto rec = cs::record<Fr>(circuit);
    EXPECT_EQ(rec.num_constraints, 0u);
    EXPECT_EQ(rec.num_vars, 1u);
    EXPECT_EQ(r.value(), a + b + c);
    for (int i = 0; i < 32; ++i) {
      EXPECT_TRUE(r.bits()[i].is_constant());
      EXPECT_EQ(r.bits()[i].value(), (((a + b + c) >> i) & 1) != 0);
    }
  }
}

// test_uint32_addmany: (a xor b) + c + d with a, d allocated and b, c constant; flipping
// "addition/result bit 0/boolean" breaks the MultiEq constraint flushed when it is dropped.
TEST(FilecoinUInt32, AddmanyValuesAndFlippedResultBit) {
  std::mt19937_64 rng(27);
  for (int t = 0; t < 40; ++t) {
    const auto a = static_cast<std::uint32_t>(rng()), b = static_cast<std::uint32_t>(rng()),
               c = static_cast<std::uint32_t>(rng()), d = static_cast<std::uint32_t>(rng());
    const std::uint32_t want = (a ^ b) + c + d;
    std::optional<std::uint32_t> got;
    auto circuit = [&](auto& cs) {
      using CS = std::remove_cvref_t<decltype(cs)>;
      UInt32 x, y, r;
      {
        cs::Namespace ns(cs, "a_bit");
        x = UInt32::alloc(cs, a);
      }
      {
        cs::Namespace ns(cs, "d_bit");
        y = UInt32::alloc(cs, d);
      }
      {
        cs::Namespace ns(cs, "xor");
        r = x.xor_(cs, UInt32::constant(b));
      }
      {
        MultiEq meq(cs);
        cs::Namespace ns(cs, "addition");
        const std::array<UInt32, 3> ops = {r, UInt32::constant(c), y};
        r = UInt32::addmany(meq, ops);
      }
      if constexpr (CS::kHasValues) got = r.value();
    };
    auto rep = expect_modes_agree<Fr>(circuit);
    EXPECT_EQ(got, want);
    EXPECT_EQ(rep.aux, 64u + 34u);       // xor with a constant allocates nothing; 3 operands: 34 result bits
    EXPECT_EQ(rep.constraints, 64u + 34u + 1u);  // + the one MultiEq constraint
    auto w = cs::witness<Fr>(circuit);
    cs::CheckCS<Fr> k;
    k.inject_fault(64, Fr::one() - w.aux[64]);  // result bit 0
    circuit(k);
    ASSERT_FALSE(k.is_satisfied());
    EXPECT_EQ(k.first_unsatisfied()->name, "multieq 0");
  }
}

// Sums of 2..10 words of mixed kinds: value mod 2^32, ceil(log2(n(2^32-1)+1)) result bits, and
// the MultiEq packing: equalities share a constraint while their bit widths sum below CAPACITY.
TEST(FilecoinUInt32, AddmanyWidthsAndPacking) {
  std::mt19937_64 rng(28);
  for (std::size_t n = 2; n <= 10; ++n) {
    std::vector<std::uint32_t> vals(n);
    for (auto& v : vals) v = static_cast<std::uint32_t>(rng());
    std::uint64_t total = 0;
    for (auto v : vals) total += v;
    std::size_t width = 0;
    for (std::uint64_t m = n * std::uint64_t{0xffffffffu}; m; m >>= 1) ++width;
    constexpr std::size_t kSums = 20;
    std::optional<std::uint32_t> got;
    auto circuit = [&](auto& cs) {
      using CS = std::remove_cvref_t<decltype(cs)>;
      std::vector<UInt32> ops;
      for (std::size_t i = 0; i < n; ++i) {
        cs::Namespace ns(cs, [i] { return "op " + std::to_string(i); });
        ops.push_back(i % 3 == 1 ? UInt32::constant(vals[i]) : UInt32::alloc(cs, vals[i]));
      }
      MultiEq meq(cs);
      for (std::size_t s = 0; s < kSums; ++s) {
        cs::Namespace ns(cs, [s] { return "sum " + std::to_string(s); });
        const UInt32 r = UInt32::addmany(meq, ops);
        if constexpr (CS::kHasValues) got = r.value();
      }
      meq.finish();
    };
    auto rep = expect_modes_agree<Fr>(circuit);
    EXPECT_EQ(got, static_cast<std::uint32_t>(total));
    std::size_t n_alloc = 0;
    for (std::size_t i = 0; i < n; ++i) n_alloc += i % 3 == 1 ? 0 : 1;
    EXPECT_EQ(rep.aux, 32 * n_alloc + kSums * width) << n << " operands";
    const std::size_t per_flush = (kFrCapacity - 1) / width;  // widths summing to at most 253
    const std::size_t flushes = (kSums + per_flush - 1) / per_flush;
    EXPECT_EQ(rep.constraints, 32 * n_alloc + kSums * width + flushes) << n << " operands";
  }
}

// ---------------------------------------------------------------------------------------------
// MultiEq: the destructor flushes what finish() would (Rust's Drop), and abandons the pending
// terms without throwing while an exception unwinds.
TEST(FilecoinMultiEq, DropFlushesAndUnwindingDoesNot) {
  auto sum_two = [](auto& cs, auto& meq) {
    const std::array<UInt32, 2> ops = {UInt32::alloc(cs, 7), UInt32::alloc(cs, 9)};
    return UInt32::addmany(meq, ops);
  };
  auto scoped = [&](auto& cs) {
    MultiEq meq(cs);
    sum_two(cs, meq);
  };
  auto explicit_finish = [&](auto& cs) {
    MultiEq meq(cs);
    sum_two(cs, meq);
    meq.finish();
  };
  EXPECT_TRUE(cs::record<Fr>(scoped) == cs::record<Fr>(explicit_finish));
  EXPECT_EQ(cs::record<Fr>(scoped).num_constraints, 64u + 33u + 1u);

  cs::CheckCS<Fr> k;
  try {
    MultiEq meq(k);
    sum_two(k, meq);
    throw std::runtime_error("abandon");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(k.num_constraints(), 64u + 33u) << "no flush while unwinding";
}

// ---------------------------------------------------------------------------------------------
// UInt64 (storage-proofs-core gadgets/uint64.rs) and encode.rs.

TEST(FilecoinUInt64, BitsAndPackIntoInput) {
  std::mt19937_64 rng(31);
  for (int t = 0; t < 50; ++t) {
    const std::uint64_t v = rng();
    const UInt64 c = UInt64::constant(v);
    EXPECT_EQ(c.get_value(), v);
    const auto be = c.to_bits_be(), le = c.to_bits_le();
    for (int i = 0; i < 64; ++i) {
      EXPECT_EQ(le[i].value(), ((v >> i) & 1) != 0);
      EXPECT_EQ(be[63 - i].value(), ((v >> i) & 1) != 0);
    }
    EXPECT_EQ(UInt64::from_bits_be<cs::RecordCS<Fr>>(be).get_value(), v);
    EXPECT_EQ(UInt64::from_bits<cs::RecordCS<Fr>>(le).get_value(), v);
  }
  const std::uint64_t challenge = rng();
  auto circuit = [&](auto& cs) {
    UInt64 x;
    {
      cs::Namespace ns(cs, "challenge");
      x = UInt64::alloc(cs, challenge);
    }
    cs::Namespace ns(cs, "challenge input");
    x.pack_into_input(cs);
  };
  auto rep = expect_modes_agree<Fr>(circuit);
  EXPECT_EQ(rep.constraints, 65u);
  EXPECT_EQ(rep.inputs, 2u);
  auto w = cs::witness<Fr>(circuit);
  EXPECT_TRUE(w.inputs[1] == Fr::from_u64(challenge));
  expect_faults_caught<Fr>(circuit, 10, 3);
}

TEST(FilecoinEncode, EncodeDecode) {
  std::mt19937_64 rng(32);
  const Fr key = Fr::random(rng), value = Fr::random(rng);
  Fr enc, dec;
  auto circuit = [&](auto& cs) {
    using CS = std::remove_cvref_t<decltype(cs)>;
    const AllocatedNum k = AllocatedNum::alloc_value(cs, "key", key);
    const AllocatedNum v = AllocatedNum::alloc_value(cs, "value", value);
    const AllocatedNum e = encode(cs, k, v);
    const AllocatedNum d = decode(cs, k, e);
    if constexpr (CS::kHasValues) enc = e.value(), dec = d.value();
  };
  auto rep = expect_modes_agree<Fr>(circuit);
  EXPECT_EQ(rep.constraints, 2u);
  EXPECT_TRUE(enc == key + value);
  EXPECT_TRUE(dec == value);
  expect_faults_caught<Fr>(circuit, 4, 4);
}

}  // namespace
