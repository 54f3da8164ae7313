// The base and scalar fields of BLS12-381 and BN254 (alt_bn128 / "bn128" in snarkjs).
#pragma once

#include "cuzk/ff/fp.hpp"

namespace cuzk::ff {

namespace params {
struct Bls12_381Fq {
  static constexpr std::size_t kLimbs = 6;
  static constexpr Limbs<6> kModulus = big::parse<6>(
      "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
  static constexpr u64 kNonResidue = 2;  // -1 is also a non-residue; 2 is the smallest
};
struct Bls12_381Fr {
  static constexpr std::size_t kLimbs = 4;
  static constexpr Limbs<4> kModulus =
      big::parse<4>("0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
  static constexpr u64 kNonResidue = 5;  // ffjavascript's nqr for this field
};
struct Bn254Fq {
  static constexpr std::size_t kLimbs = 4;
  static constexpr Limbs<4> kModulus =
      big::parse<4>("0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47");
  static constexpr u64 kNonResidue = 3;
};
struct Bn254Fr {
  static constexpr std::size_t kLimbs = 4;
  static constexpr Limbs<4> kModulus =
      big::parse<4>("0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001");
  static constexpr u64 kNonResidue = 5;  // ffjavascript's nqr for this field
};
}  // namespace params

namespace bls12_381 {
using Fq = Fp<params::Bls12_381Fq>;
using Fr = Fp<params::Bls12_381Fr>;
}  // namespace bls12_381

namespace bn254 {
using Fq = Fp<params::Bn254Fq>;
using Fr = Fp<params::Bn254Fr>;
}  // namespace bn254

}  // namespace cuzk::ff
