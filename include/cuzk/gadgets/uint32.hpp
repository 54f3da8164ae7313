// UInt32: 32 Booleans (little-endian) with the native value. Rotations and shifts are free;
// xor/and cost one constraint per non-constant bit; addition mod 2^32 of several operands costs
// (result bits incl. carries) booleanity constraints + 1.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "cuzk/gadgets/boolean.hpp"

namespace cuzk::gadgets {

template <class F>
class UInt32 {
 public:
  using Bits = std::array<Boolean<F>, 32>;  // bits[0] is the least significant bit

  UInt32() : UInt32(constant(0)) {}
  static UInt32 constant(std::uint32_t v) {
    Bits b;
    for (int i = 0; i < 32; ++i) b[i] = Boolean<F>::constant(((v >> i) & 1) != 0);
    return UInt32(b, v);
  }
  template <class CS, class Fn>
  static UInt32 alloc(CS& cs, Fn&& value) {
    std::uint32_t v = 0;
    if constexpr (CS::kHasValues) v = static_cast<std::uint32_t>(value());
    Bits b;
    for (int i = 0; i < 32; ++i) b[i] = Boolean<F>::alloc(cs, "bit", [&] { return ((v >> i) & 1) != 0; });
    return UInt32(b, v);
  }
  // From 32 little-endian bits.
  static UInt32 from_bits_le(std::span<const Boolean<F>> bits) {
    if (bits.size() != 32) throw std::invalid_argument("UInt32::from_bits_le: need 32 bits");
    Bits b;
    std::uint32_t v = 0;
    for (int i = 0; i < 32; ++i) {
      b[i] = bits[i];
      v |= std::uint32_t{bits[i].value()} << i;
    }
    return UInt32(b, v);
  }
  // From 32 big-endian bits (bits[0] is the most significant), as SHA-256 reads message words.
  static UInt32 from_bits_be(std::span<const Boolean<F>> bits) {
    if (bits.size() != 32) throw std::invalid_argument("UInt32::from_bits_be: need 32 bits");
    std::array<Boolean<F>, 32> le;
    for (int i = 0; i < 32; ++i) le[i] = bits[31 - i];
    return from_bits_le(le);
  }
  const Bits& bits_le() const { return bits_; }
  std::vector<Boolean<F>> bits_be() const {
    std::vector<Boolean<F>> r(bits_.rbegin(), bits_.rend());
    return r;
  }
  std::uint32_t value() const { return val_; }
  bool is_constant() const {
    for (const auto& b : bits_)
      if (!b.is_constant()) return false;
    return true;
  }

  UInt32 rotr(unsigned by) const {
    by %= 32;
    Bits b;
    for (unsigned i = 0; i < 32; ++i) b[i] = bits_[(i + by) % 32];
    return UInt32(b, std::rotr(val_, static_cast<int>(by)));
  }
  UInt32 shr(unsigned by) const {
    Bits b;
    for (unsigned i = 0; i < 32; ++i) b[i] = i + by < 32 ? bits_[i + by] : Boolean<F>::constant(false);
    return UInt32(b, by >= 32 ? 0 : val_ >> by);
  }

  template <class CS>
  UInt32 xor_(CS& cs, const UInt32& o) const {
    Bits b;
    for (int i = 0; i < 32; ++i) b[i] = gadgets::xor_<F>(cs, bits_[i], o.bits_[i]);
    return UInt32(b, val_ ^ o.val_);
  }
  template <class CS>
  UInt32 and_(CS& cs, const UInt32& o) const {
    Bits b;
    for (int i = 0; i < 32; ++i) b[i] = gadgets::and_<F>(cs, bits_[i], o.bits_[i]);
    return UInt32(b, val_ & o.val_);
  }
  UInt32 not_() const {
    Bits b;
    for (int i = 0; i < 32; ++i) b[i] = !bits_[i];
    return UInt32(b, ~val_);
  }

  // sum of operands mod 2^32.
  template <class CS>
  static UInt32 addmany(CS& cs, std::span<const UInt32> ops) {
    if (ops.empty()) throw std::invalid_argument("UInt32::addmany: no operands");
    std::uint64_t max = 0, sum = 0;
    bool all_const = true;
    for (const auto& o : ops) {
      sum += o.val_;
      max += 0xffffffffull;
      all_const = all_const && o.is_constant();
    }
    if (all_const) return constant(static_cast<std::uint32_t>(sum));
    const int nbits = std::bit_width(max);
    Bits low;
    std::vector<Boolean<F>> res;
    res.reserve(nbits);
    for (int i = 0; i < nbits; ++i)
      res.push_back(Boolean<F>::alloc(cs, "sum bit", [&] { return ((sum >> i) & 1) != 0; }));
    cs.enforce(
        "addmany",
        [&] {
          LinearCombination<F> lc;
          lc.reserve(ops.size() * 32);
          for (const auto& o : ops) {
            F coeff = F::one();
            for (int i = 0; i < 32; ++i, coeff = coeff.dbl()) o.bits_[i].add_to(lc, coeff);
          }
          return lc;
        },
        Variable::one(),
        [&] {
          LinearCombination<F> lc;
          F coeff = F::one();
          for (const auto& b : res) {
            b.add_to(lc, coeff);
            coeff = coeff.dbl();
          }
          return lc;
        });
    for (int i = 0; i < 32; ++i) low[i] = res[i];
    return UInt32(low, static_cast<std::uint32_t>(sum));
  }

 private:
  UInt32(const Bits& b, std::uint32_t v) : bits_(b), val_(v) {}
  Bits bits_;
  std::uint32_t val_ = 0;
};

}  // namespace cuzk::gadgets
