// Test-side list of the pairing engines, with the key their vectors have in pairing.json.
#pragma once

#include <gtest/gtest.h>

#include "cuzk/ec/pairing.hpp"

namespace cuzk::test {

template <class E>
struct EngineName;
template <>
struct EngineName<ec::bls12_381::PairingEngine> {
  static constexpr const char* kKey = "bls12_381";
};
template <>
struct EngineName<ec::bn254::PairingEngine> {
  static constexpr const char* kKey = "bn254";
};

using Engines = ::testing::Types<ec::bls12_381::PairingEngine, ec::bn254::PairingEngine>;

}  // namespace cuzk::test
