// n random field elements (or scalars) from rng: the inputs of the suites' differential and
// property tests (F is any type with F::random(rng)).
#pragma once

#include <cstddef>
#include <vector>

namespace cuzk::test {

template <class F, class Rng>
std::vector<F> random_vec(std::size_t n, Rng& rng) {
  std::vector<F> v(n);
  for (auto& x : v) x = F::random(rng);
  return v;
}

}  // namespace cuzk::test
