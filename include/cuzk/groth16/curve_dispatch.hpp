// The one dispatch from a run-time curve (r1cs::Curve) to its pairing engine type:
//   dispatch_curve(c, [&]<class E>() { return prove<E>(...); })
// calls the lambda's template with groth16::Bn254 or groth16::Bls12_381; every branch must
// return the same type.
#pragma once

#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/r1cs/curve_id.hpp"

namespace cuzk::groth16 {

template <class F>
decltype(auto) dispatch_curve(r1cs::Curve c, F&& f) {
  if (c == r1cs::Curve::bn254) return std::forward<F>(f).template operator()<Bn254>();
  return std::forward<F>(f).template operator()<Bls12_381>();
}

}  // namespace cuzk::groth16
