// bellperson's multipack (gadgets/multipack.rs): bits exposed as public inputs, 254 to an
// input, and the matching native packing of a verifier's public inputs.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/num.hpp"

namespace cuzk::filecoin {

// For each chunk of 254 bits: a new input ("input i"), then num·1 = input.
template <class CS>
void pack_into_inputs(CS& cs, std::span<const Boolean> bits) {
  for (std::size_t i = 0, chunk = 0; i < bits.size(); i += kFrCapacity, ++chunk) {
    const std::size_t end = std::min(bits.size(), i + kFrCapacity);
    Num num = Num::zero<CS>();
    Fr coeff = Fr::one();
    for (std::size_t j = i; j < end; ++j) {
      num.add_bool_with_coeff(bits[j], coeff);
      coeff = coeff.dbl();
    }
    Variable input = cs.alloc_input([chunk] { return "input " + std::to_string(chunk); }, [&] { return num.value(); });
    cs.enforce([chunk] { return "packing constraint " + std::to_string(chunk); }, [&] { return num.lc(); },
               Variable::one(), input);
  }
}

// The first 254 bits packed into one new aux number ("input"): num·1 = packed
// (bellperson's multipack::pack_bits; the bits past capacity are dropped).
template <class CS>
AllocatedNum pack_bits(CS& cs, std::span<const Boolean> bits) {
  Num num = Num::zero<CS>();
  Fr coeff = Fr::one();
  for (std::size_t j = 0; j < std::min(bits.size(), kFrCapacity); ++j) {
    num.add_bool_with_coeff(bits[j], coeff);
    coeff = coeff.dbl();
  }
  AllocatedNum packed;
  {
    cs::Namespace ns(cs, "input");
    packed = AllocatedNum::alloc(cs, "num", [&] { return num.value(); });
  }
  cs.enforce("packing constraint", [&] { return num.lc(); }, Variable::one(), packed.variable());
  return packed;
}

// The public inputs pack_into_inputs makes of these bit values.
inline std::vector<Fr> compute_multipacking(std::span<const bool> bits) {
  std::vector<Fr> out;
  for (std::size_t i = 0; i < bits.size(); i += kFrCapacity) {
    const std::size_t end = std::min(bits.size(), i + kFrCapacity);
    Fr cur = Fr::zero(), coeff = Fr::one();
    for (std::size_t j = i; j < end; ++j) {
      if (bits[j]) cur += coeff;
      coeff = coeff.dbl();
    }
    out.push_back(cur);
  }
  return out;
}

// storage-proofs-core util::reverse_bit_numbering: padded with constant zeros to whole bytes,
// then each byte's 8 bits reversed (little-endian bits <-> SHA-256's most significant first).
inline std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits) {
  while (bits.size() % 8 != 0) bits.push_back(Boolean::constant(false));
  for (std::size_t i = 0; i < bits.size(); i += 8) std::reverse(bits.begin() + static_cast<std::ptrdiff_t>(i),
                                                                bits.begin() + static_cast<std::ptrdiff_t>(i + 8));
  return bits;
}

// Bytes to bits, most significant bit of each byte first (bellperson's bytes_to_bits).
inline std::vector<bool> bytes_to_bits(std::span<const std::uint8_t> bytes) {
  std::vector<bool> out;
  out.reserve(bytes.size() * 8);
  for (std::uint8_t v : bytes)
    for (int i = 7; i >= 0; --i) out.push_back(((v >> i) & 1) != 0);
  return out;
}

// Bytes to bits, least significant bit of each byte first (bytes_to_bits_le).
inline std::vector<bool> bytes_to_bits_le(std::span<const std::uint8_t> bytes) {
  std::vector<bool> out;
  out.reserve(bytes.size() * 8);
  for (std::uint8_t v : bytes)
    for (int i = 0; i < 8; ++i) out.push_back(((v >> i) & 1) != 0);
  return out;
}

}  // namespace cuzk::filecoin
