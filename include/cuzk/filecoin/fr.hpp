// The field of every Filecoin circuit (the BLS12-381 scalar field, blstrs::Scalar) and the
// names the Filecoin layer uses for wires and linear combinations.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/cs/lc.hpp"
#include "cuzk/ff/fields.hpp"

namespace cuzk::filecoin {

using Fr = ff::bls12_381::Fr;
using cs::Variable;
using Lc = cs::LinearCombination<Fr>;

inline constexpr std::size_t kFrNumBits = 255;   // ff's NUM_BITS
inline constexpr std::size_t kFrCapacity = 254;  // ff's CAPACITY: bits that always fit

// A 32-byte little-endian field element as Filecoin stores it (PoseidonDomain, Fr::to_repr).
using Bytes32 = std::array<std::uint8_t, 32>;

inline Bytes32 fr_to_bytes(const Fr& x) { return x.to_bytes_le(); }

}  // namespace cuzk::filecoin
