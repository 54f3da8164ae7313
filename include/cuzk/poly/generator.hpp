// The multiplicative generator of a scalar field, used as the coset shift of the
// classic (bellperson) H computation. It is a quadratic non-residue with g^n != 1 for
// every domain size n, so the coset g*<omega> never meets the domain.
#pragma once

#include <cstdint>

#include "cuzk/ff/fields.hpp"

namespace cuzk::poly {

template <class F>
struct MultiplicativeGenerator;  // specialise with `static constexpr std::uint64_t kValue`

template <>
struct MultiplicativeGenerator<ff::bls12_381::Fr> {
  static constexpr std::uint64_t kValue = 7;  // bellperson/blstrs Scalar::MULTIPLICATIVE_GENERATOR
};
template <>
struct MultiplicativeGenerator<ff::bn254::Fr> {
  static constexpr std::uint64_t kValue = 5;
};

template <class F>
F multiplicative_generator() {
  return F::from_u64(MultiplicativeGenerator<F>::kValue);
}

}  // namespace cuzk::poly
