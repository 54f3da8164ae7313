// Points for the GPU MSM tests: n distinct affine points P_i = P_0 + i Q (cheap to make in
// bulk, one affine batch conversion), P_0 and Q drawn from rng.
#pragma once

#include <random>
#include <span>
#include <vector>

#include "cuzk/ec/curves.hpp"

namespace cuzk::test {

template <class C>
std::vector<ec::Affine<C>> make_points(std::mt19937_64& rng, std::size_t n) {
  const auto g = ec::Jacobian<C>::generator();
  const auto q = g * C::Scalar::random(rng);
  std::vector<ec::Jacobian<C>> j(n);
  ec::Jacobian<C> p = g * C::Scalar::random(rng);
  for (auto& x : j) x = p, p += q;
  return ec::batch_to_affine<C>(std::span<const ec::Jacobian<C>>(j));
}

}  // namespace cuzk::test
