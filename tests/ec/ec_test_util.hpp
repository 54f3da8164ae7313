// Helpers shared by the ec tests: the four groups as a typed-test list, random points,
// points outside the subgroup, and parsing of oracle (noble) points.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "cuzk/ec/curves.hpp"
#include "cuzk/ec/serialize_common.hpp"
#include "support/curve_names.hpp"
#include "support/oracle.hpp"

namespace cuzk::ec::test {

using AllCurves = ::testing::Types<bls12_381::G1Curve, bls12_381::G2Curve, bn254::G1Curve, bn254::G2Curve>;

using cuzk::test::CurveNames;

template <class C>
typename C::Scalar random_scalar(std::mt19937_64& g) {
  return C::Scalar::random(g);
}

// k * G for a random k.
template <class C>
Jacobian<C> random_point(std::mt19937_64& g) {
  return Jacobian<C>::generator() * random_scalar<C>(g);
}

// A point on the curve from a random x, NOT cofactor-cleared.
template <class C>
Affine<C> random_curve_point(std::mt19937_64& g) {
  using Base = typename C::Base;
  for (;;) {
    Base x = Base::random(g);
    auto y = (x.square() * x + C::b()).sqrt();
    if (y) return Affine<C>{x, *y};
  }
}

template <class C>
constexpr bool kHasCofactor = !(C::kCofactor.size() == 1 && C::kCofactor[0] == 1);

template <class Base>
Base parse_base(const nlohmann::json& v) {
  if constexpr (detail::QuadraticExt<Base>) {
    using Fq = typename Base::Base;
    return Base(cuzk::test::parse_field<Fq>(v.at(0)), cuzk::test::parse_field<Fq>(v.at(1)));
  } else {
    return cuzk::test::parse_field<Base>(v);
  }
}

template <class C>
Affine<C> parse_point(const nlohmann::json& v) {
  if (v.contains("inf") && v["inf"].get<bool>()) return Affine<C>::infinity();
  return Affine<C>{parse_base<typename C::Base>(v.at("x")), parse_base<typename C::Base>(v.at("y"))};
}

// Scalar parsed as up to 8 limbs (the oracle scalars go up to 2^512 - 1).
inline ff::Limbs<8> parse_limbs(const nlohmann::json& v) { return ff::big::parse<8>(v.get<std::string>()); }

}  // namespace cuzk::ec::test
