// k distinct affine points P0 + i Q (i < k) made on the host in one batch conversion, for the
// GPU benchmarks (fixed seed: the same points in every run).
#pragma once

#include <random>
#include <span>
#include <vector>

#include "cuzk/ec/curves.hpp"

namespace cuzk::bench {

template <class C>
std::vector<ec::Affine<C>> distinct_points(std::size_t k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto g = ec::Jacobian<C>::generator();
  const auto q = g * C::Scalar::random(rng);
  std::vector<ec::Jacobian<C>> j(k);
  ec::Jacobian<C> p = g * C::Scalar::random(rng);
  for (auto& x : j) x = p, p += q;
  return ec::batch_to_affine<C>(std::span<const ec::Jacobian<C>>(j));
}

}  // namespace cuzk::bench
