// Random group elements for the suites' tests: n distinct affine points P_i = P_0 + i Q of the
// order-r subgroup, P_0 and Q random multiples of the generator (cheap in bulk: one affine batch
// conversion). With some_infinity, every third point (i % 3 == 1) is the point at infinity.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cuzk/ec/point.hpp"

namespace cuzk::test {

template <class C, class Rng>
std::vector<ec::Affine<C>> random_points(std::size_t n, Rng& rng, bool some_infinity = false) {
  using S = typename C::Scalar;
  const auto g = ec::Jacobian<C>::generator();
  ec::Jacobian<C> p = g * S::random(rng);
  const ec::Jacobian<C> q = g * S::random(rng);
  std::vector<ec::Jacobian<C>> j(n);
  for (auto& x : j) x = p, p += q;
  auto out = ec::batch_to_affine<C>(std::span<const ec::Jacobian<C>>(j));
  if (some_infinity)
    for (std::size_t i = 1; i < n; i += 3) out[i] = ec::Affine<C>::infinity();
  return out;
}

// One random point k G.
template <class C, class Rng>
ec::Affine<C> random_point(Rng& rng) {
  return (ec::Jacobian<C>::generator() * C::Scalar::random(rng)).to_affine();
}

}  // namespace cuzk::test
