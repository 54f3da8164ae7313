// Extension-field towers of BLS12-381 and BN254:
//   Fq2  = Fq[u]/(u^2 + 1)
//   Fq6  = Fq2[v]/(v^3 - xi),  xi = 1 + u (BLS12-381), 9 + u (BN254)
//   Fq12 = Fq6[w]/(w^2 - v)
// One generic implementation (fp2.hpp, fp6.hpp, fp12.hpp) parameterised by the per-curve
// tower configs below.
#pragma once

#include "cuzk/ff/fields.hpp"
#include "cuzk/ff/fp12.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/fp6.hpp"

namespace cuzk::ff {

namespace params {
struct Bls12_381Tower {
  using Base = bls12_381::Fq;
  static constexpr u64 kXi0 = 1;  // xi = 1 + u
  static constexpr u64 kXi1 = 1;
};
struct Bn254Tower {
  using Base = bn254::Fq;
  static constexpr u64 kXi0 = 9;  // xi = 9 + u
  static constexpr u64 kXi1 = 1;
};
}  // namespace params

namespace bls12_381 {
using Fq2 = Fp2<params::Bls12_381Tower>;
using Fq6 = Fp6<params::Bls12_381Tower>;
using Fq12 = Fp12<params::Bls12_381Tower>;
}  // namespace bls12_381

namespace bn254 {
using Fq2 = Fp2<params::Bn254Tower>;
using Fq6 = Fp6<params::Bn254Tower>;
using Fq12 = Fp12<params::Bn254Tower>;
}  // namespace bn254

}  // namespace cuzk::ff
