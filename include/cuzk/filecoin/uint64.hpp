// storage-proofs-core's UInt64 (gadgets/uint64.rs): 64 Booleans, least significant first. The
// SDR circuit allocates the challenge index with it and exposes it as a public input
// (pack_into_input); create_label appends its big-endian bits to the labeling preimage.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/filecoin/multipack.hpp"
#include "cuzk/filecoin/uint_bits.hpp"

namespace cuzk::filecoin {

class UInt64 {
 public:
  using Bits = std::array<Boolean, 64>;  // least significant first

  UInt64() : UInt64(constant(0)) {}

  static UInt64 constant(std::uint64_t value) { return UInt64(uint_detail::constant_bits_le<64>(value), value); }

  // 64 fresh bits ("allocated bit i"). `value` is only used where values are computed.
  template <class CS>
  static UInt64 alloc(CS& cs, std::uint64_t value) {
    Bits bits = uint_detail::alloc_bits_le<64>(cs, value);
    return UInt64(bits, CS::kHasValues ? std::optional<std::uint64_t>(value) : std::nullopt);
  }

  // Rust's get_value: absent in a recording system unless built from constants only.
  std::optional<std::uint64_t> get_value() const { return value_; }
  const Bits& bits() const { return bits_; }

  // The 64 bits as one public input: "input 0" and "packing constraint 0" (multipack).
  template <class CS>
  void pack_into_input(CS& cs) const {
    pack_into_inputs(cs, std::span<const Boolean>(bits_));
  }

  std::vector<Boolean> to_bits_be() const { return std::vector<Boolean>(bits_.rbegin(), bits_.rend()); }
  std::vector<Boolean> to_bits_le() const { return std::vector<Boolean>(bits_.begin(), bits_.end()); }

  // From 64 bits, most significant first. CS tells whether values are known (see uint_bits.hpp).
  template <class CS>
  static UInt64 from_bits_be(std::span<const Boolean> bits) {
    uint_detail::check_width<64>(bits, "UInt64::from_bits_be");
    Bits le;
    std::reverse_copy(bits.begin(), bits.end(), le.begin());
    return UInt64(le, uint_detail::value_le<CS, std::uint64_t>(le));
  }
  // From 64 bits, least significant first (from_bits).
  template <class CS>
  static UInt64 from_bits(std::span<const Boolean> bits) {
    uint_detail::check_width<64>(bits, "UInt64::from_bits");
    Bits le;
    std::copy(bits.begin(), bits.end(), le.begin());
    return UInt64(le, uint_detail::value_le<CS, std::uint64_t>(le));
  }

 private:
  UInt64(const Bits& bits, std::optional<std::uint64_t> value) : bits_(bits), value_(value) {}

  Bits bits_;
  std::optional<std::uint64_t> value_;
};

}  // namespace cuzk::filecoin
