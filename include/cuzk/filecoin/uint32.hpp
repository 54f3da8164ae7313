// bellperson's UInt32 (gadgets/uint32.rs): 32 Booleans, least significant first, and the word
// operations SHA-256 is built of. Rotations and shifts only move bits (no constraints); xor, ch
// and maj work bit by bit through Boolean (constants fold); addmany sums up to 10 words into
// fresh bits, its equality batched by a MultiEq.
//
// Namespaces, allocation order and constraint order are the Rust's: "xor of bit i", "maj i",
// "ch i", "allocated bit i" and "result bit i" (each holding a "boolean" wire).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/multieq.hpp"
#include "cuzk/filecoin/uint_bits.hpp"

namespace cuzk::filecoin {

class UInt32 {
 public:
  using Bits = std::array<Boolean, 32>;  // least significant first

  UInt32() : UInt32(constant(0)) {}

  static UInt32 constant(std::uint32_t value) { return UInt32(uint_detail::constant_bits_le<32>(value), value); }

  // 32 fresh bits ("allocated bit i"). `value` is only used where values are computed.
  template <class CS>
  static UInt32 alloc(CS& cs, std::uint32_t value) {
    Bits bits = uint_detail::alloc_bits_le<32>(cs, value);
    return UInt32(bits, CS::kHasValues ? std::optional<std::uint32_t>(value) : std::nullopt);
  }

  // Most significant bit first (into_bits_be) / least significant first (into_bits).
  std::vector<Boolean> into_bits_be() const { return std::vector<Boolean>(bits_.rbegin(), bits_.rend()); }
  std::vector<Boolean> into_bits() const { return std::vector<Boolean>(bits_.begin(), bits_.end()); }

  // From 32 bits, most significant first. CS tells whether values are known (see uint_bits.hpp).
  template <class CS>
  static UInt32 from_bits_be(std::span<const Boolean> bits) {
    uint_detail::check_width<32>(bits, "UInt32::from_bits_be");
    Bits le;
    std::reverse_copy(bits.begin(), bits.end(), le.begin());
    return UInt32(le, uint_detail::value_le<CS, std::uint32_t>(le));
  }
  // From 32 bits, least significant first (from_bits).
  template <class CS>
  static UInt32 from_bits(std::span<const Boolean> bits) {
    uint_detail::check_width<32>(bits, "UInt32::from_bits");
    Bits le;
    std::copy(bits.begin(), bits.end(), le.begin());
    return UInt32(le, uint_detail::value_le<CS, std::uint32_t>(le));
  }

  UInt32 rotr(std::size_t by) const {
    by %= 32;
    Bits out;
    for (std::size_t i = 0; i < 32; ++i) out[i] = bits_[(i + by) % 32];
    return UInt32(out, map([by](std::uint32_t v) { return std::rotr(v, static_cast<int>(by)); }));
  }
  UInt32 shr(std::size_t by) const {
    by %= 32;
    Bits out;
    for (std::size_t i = 0; i < 32; ++i) out[i] = i + by < 32 ? bits_[i + by] : Boolean::constant(false);
    return UInt32(out, map([by](std::uint32_t v) { return v >> by; }));
  }

  // (a and b) xor (a and c) xor (b and c), bit i in namespace "maj i".
  template <class CS>
  static UInt32 sha256_maj(CS& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    std::optional<std::uint32_t> v;
    if (a.value_ && b.value_ && c.value_) v = (*a.value_ & *b.value_) ^ (*a.value_ & *c.value_) ^ (*b.value_ & *c.value_);
    Bits out;
    for (std::size_t i = 0; i < 32; ++i) {
      cs::Namespace ns(cs, [i] { return "maj " + std::to_string(i); });
      out[i] = Boolean::sha256_maj(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
    }
    return UInt32(out, v);
  }

  // (a and b) xor ((not a) and c), bit i in namespace "ch i".
  template <class CS>
  static UInt32 sha256_ch(CS& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    std::optional<std::uint32_t> v;
    if (a.value_ && b.value_ && c.value_) v = (*a.value_ & *b.value_) ^ (~*a.value_ & *c.value_);
    Bits out;
    for (std::size_t i = 0; i < 32; ++i) {
      cs::Namespace ns(cs, [i] { return "ch " + std::to_string(i); });
      out[i] = Boolean::sha256_ch(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
    }
    return UInt32(out, v);
  }

  // this xor other, bit i in namespace "xor of bit i" (uint32.rs, xor).
  template <class CS>
  UInt32 xor_(CS& cs, const UInt32& other) const {
    std::optional<std::uint32_t> v;
    if (value_ && other.value_) v = *value_ ^ *other.value_;
    Bits out;
    for (std::size_t i = 0; i < 32; ++i) {
      cs::Namespace ns(cs, [i] { return "xor of bit " + std::to_string(i); });
      out[i] = Boolean::xor_(cs, bits_[i], other.bits_[i]);
    }
    return UInt32(out, v);
  }

  // The sum of 2..10 words modulo 2^32 (uint32.rs, addmany). Unless every operand bit is a
  // constant (and the sum known: then the result is a constant), the full sum is allocated as
  // ceil(log2(n·(2^32-1) + 1)) fresh bits ("result bit i", carries included) and
  // sum_ops sum_j 2^j bit = sum_i 2^i result_i goes to the MultiEq; the carry bits are dropped
  // from the word but stay allocated.
  template <class CS>
  static UInt32 addmany(MultiEq<CS>& meq, std::span<const UInt32> operands) {
    if (operands.size() < 2 || operands.size() > 10)
      throw std::invalid_argument("UInt32::addmany: 2 to 10 operands");
    CS& cs = meq.cs();
    std::uint64_t max_value = operands.size() * std::uint64_t{0xffffffffu};
    bool known = true;
    std::uint64_t sum = 0;
    bool all_constants = true;
    Lc lc;
    if constexpr (CS::kRecords) lc.reserve(operands.size() * 32);
    for (const UInt32& op : operands) {
      if (op.value_) sum += *op.value_;
      else known = false;
      for (std::size_t j = 0; j < 32; ++j) {
        const Boolean& bit = op.bits_[j];
        if constexpr (CS::kRecords) add_bool(lc, bit, multieq_detail::pow2(j));
        all_constants = all_constants && bit.is_constant();
      }
    }
    if (all_constants && known) return constant(static_cast<std::uint32_t>(sum));

    Bits out;
    Lc result_lc;
    std::size_t i = 0;
    while (max_value != 0) {
      AllocatedBit b;
      {
        cs::Namespace ns(cs, [i] { return "result bit " + std::to_string(i); });
        b = AllocatedBit::alloc(cs, "boolean", ((sum >> i) & 1) != 0);
      }
      if constexpr (CS::kRecords) result_lc.add(b.variable(), multieq_detail::pow2(i));
      if (i < 32) out[i] = b;
      max_value >>= 1;
      ++i;
    }
    meq.enforce_equal(i, lc, result_lc);  // the combinations are empty unless CS::kRecords
    return UInt32(out, known ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(sum)) : std::nullopt);
  }

  const Bits& bits() const { return bits_; }
  // Rust's `value`: absent in a recording system unless built from constants only.
  std::optional<std::uint32_t> value() const { return value_; }

 private:
  UInt32(const Bits& bits, std::optional<std::uint32_t> value) : bits_(bits), value_(value) {}

  template <class Fn>
  std::optional<std::uint32_t> map(Fn f) const {
    return value_ ? std::optional<std::uint32_t>(f(*value_)) : std::nullopt;
  }
  // lc += coeff·bit (Boolean::lc without a temporary).
  static void add_bool(Lc& lc, const Boolean& bit, const Fr& coeff) {
    switch (bit.kind()) {
      case Boolean::Kind::kConstant:
        if (bit.value()) lc.add(Variable::one(), coeff);
        break;
      case Boolean::Kind::kIs: lc.add(bit.bit().variable(), coeff); break;
      case Boolean::Kind::kNot:
        lc.add(Variable::one(), coeff);
        lc.add(bit.bit().variable(), -coeff);
        break;
    }
  }

  Bits bits_;
  std::optional<std::uint32_t> value_;
};

}  // namespace cuzk::filecoin
