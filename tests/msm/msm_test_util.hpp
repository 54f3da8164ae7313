// Shared helpers of the msm tests: scalar families and the naive reference sum_i k_i * P_i
// computed with the ec layer's scalar multiplication (random points and scalars: tests/support).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/msm/msm.hpp"
#include "support/curve_names.hpp"
#include "support/random_points.hpp"
#include "support/random_vec.hpp"

namespace cuzk::msm::test {

using cuzk::test::CurveNames;
using cuzk::test::random_points;
using cuzk::test::random_vec;
using ec::Affine;
using ec::Jacobian;

// Mostly booleans: ~45% zero, ~45% one, ~10% random.
template <class S>
std::vector<S> boolean_mix(std::size_t n, std::mt19937_64& g, unsigned pct_random = 10) {
  std::vector<S> s(n);
  for (auto& x : s) {
    unsigned r = static_cast<unsigned>(g() % 100);
    x = r < pct_random ? S::random(g) : (r % 2 ? S::one() : S::zero());
  }
  return s;
}

template <class C>
Jacobian<C> naive_msm(std::span<const Affine<C>> pts, std::span<const typename C::Scalar> s) {
  Jacobian<C> acc = Jacobian<C>::infinity();
  for (std::size_t i = 0; i < pts.size(); ++i) acc += Jacobian<C>::from_affine(pts[i]) * s[i];
  return acc;
}

template <class S>
std::vector<typename S::Repr> to_canonical(std::span<const S> s) {
  std::vector<typename S::Repr> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = s[i].to_canonical();
  return out;
}

template <class C>
::testing::AssertionResult same_point(const Jacobian<C>& got, const Jacobian<C>& want) {
  if (got == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got << ", want " << want;
}

}  // namespace cuzk::msm::test
