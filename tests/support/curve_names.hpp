// gtest's names of a typed test's curve parameters: the curve's kName ("bls12_381_g1", ...), so a
// failing case reads MsmTest/bn254_g2 instead of MsmTest/3.
#pragma once

#include <string>

namespace cuzk::test {

struct CurveNames {
  template <class C>
  static std::string GetName(int) {
    return C::kName;
  }
};

}  // namespace cuzk::test
