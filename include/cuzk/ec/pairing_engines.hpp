// Pairing-engine traits: everything the generic optimal-ate pairing (pairing_miller.hpp,
// pairing_final_exp.hpp) needs to know about one curve.
//
//   G1Curve, G2Curve, Fq12      the groups (curves.hpp) and the target field (towers.hpp)
//   kTwist                      M-type (E': y^2 = x^3 + b*xi) or D-type (E': y^2 = x^3 + b/xi)
//   kFamily                     BLS12 (loop over |x|, conjugate when x < 0) or BN (loop over
//                               6x+2, then two Frobenius line steps)
//   kX, kXNegative              the curve seed x (absolute value and sign)
#pragma once

#include <cstddef>
#include <array>
#include <cstdint>

#include "cuzk/ec/curves.hpp"
#include "cuzk/ff/towers.hpp"

namespace cuzk::ec {

enum class Twist { M, D };
enum class PairingFamily { BLS12, BN };

namespace bls12_381 {
struct PairingEngine {
  using G1Curve = bls12_381::G1Curve;
  using G2Curve = bls12_381::G2Curve;
  using Fq12 = ff::bls12_381::Fq12;
  static constexpr Twist kTwist = Twist::M;
  static constexpr PairingFamily kFamily = PairingFamily::BLS12;
  static constexpr u64 kX = 0xd201000000010000ull;  // x = -0xd201000000010000
  static constexpr bool kXNegative = true;
};
}  // namespace bls12_381

namespace bn254 {
struct PairingEngine {
  using G1Curve = bn254::G1Curve;
  using G2Curve = bn254::G2Curve;
  using Fq12 = ff::bn254::Fq12;
  static constexpr Twist kTwist = Twist::D;
  static constexpr PairingFamily kFamily = PairingFamily::BN;
  static constexpr u64 kX = 4965661367192848881ull;  // x = 0x44e992b44a6909f1
  static constexpr bool kXNegative = false;
};
}  // namespace bn254

// The engine of a G1 curve (used to deduce the engine from point types).
template <class G1C>
struct PairingEngineOf;
template <>
struct PairingEngineOf<bls12_381::G1Curve> {
  using type = bls12_381::PairingEngine;
};
template <>
struct PairingEngineOf<bn254::G1Curve> {
  using type = bn254::PairingEngine;
};

namespace pairing_detail {
// Non-adjacent form of k, least significant digit first.
struct Naf {
  std::array<std::int8_t, 130> d{};
  std::size_t n = 0;
};
constexpr Naf naf(ff::u128 k) {
  Naf r;
  while (k != 0) {
    std::int8_t z = 0;
    if (k & 1) {
      z = (k & 3) == 1 ? 1 : -1;
      if (z == 1) k -= 1;
      else k += 1;
    }
    r.d[r.n++] = z;
    k >>= 1;
  }
  return r;
}

}  // namespace pairing_detail

}  // namespace cuzk::ec
