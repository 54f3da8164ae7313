// What UInt32 (bellperson gadgets/uint32.rs) and UInt64 (storage-proofs-core gadgets/uint64.rs)
// share: a word as N Booleans, least significant first, with its value when it is known.
//
// "Known" follows Rust's Option<uN>: a constraint system that computes values knows every word;
// one that only records (RecordCS, Rust's blank circuit) knows a word only when it was built from
// constants alone. The distinction matters once: addmany folds a sum to a constant only when all
// operand bits are constant AND the value is known, exactly as the Rust does in both modes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/boolean.hpp"

namespace cuzk::filecoin::uint_detail {

template <std::size_t N, class T>
std::array<Boolean, N> constant_bits_le(T value) {
  std::array<Boolean, N> bits;
  for (std::size_t i = 0; i < N; ++i) bits[i] = Boolean::constant(((value >> i) & 1) != 0);
  return bits;
}

// N allocated bits, least significant first, each in namespace "allocated bit i" (alloc).
template <std::size_t N, class CS, class T>
std::array<Boolean, N> alloc_bits_le(CS& cs, T value) {
  std::array<Boolean, N> bits;
  for (std::size_t i = 0; i < N; ++i) {
    cs::Namespace ns(cs, [i] { return "allocated bit " + std::to_string(i); });
    bits[i] = AllocatedBit::alloc(cs, "boolean", ((value >> i) & 1) != 0);
  }
  return bits;
}

// The value of little-endian bits: known when values are computed or every bit is constant.
template <class CS, class T>
std::optional<T> value_le(std::span<const Boolean> le_bits) {
  T v = 0;
  for (std::size_t i = le_bits.size(); i-- > 0;) {
    if (!CS::kHasValues && !le_bits[i].is_constant()) return std::nullopt;
    v = static_cast<T>(v << 1) | static_cast<T>(le_bits[i].value() ? 1 : 0);
  }
  return v;
}

template <std::size_t N>
void check_width(std::span<const Boolean> bits, const char* who) {
  if (bits.size() != N) throw std::invalid_argument(std::string(who) + ": expected " + std::to_string(N) + " bits");
}

}  // namespace cuzk::filecoin::uint_detail
