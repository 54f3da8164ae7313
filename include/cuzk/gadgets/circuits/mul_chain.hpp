// Benchmark circuit: a multiplicative Fibonacci chain z = x·y of n constraints (+1 pinning the
// last value to the single public input). Witness from a seeded RNG.
#pragma once

#include <cstdint>
#include <random>

#include "cuzk/gadgets/num.hpp"

namespace cuzk::gadgets::circuits {

template <class F>
struct MulChain {
  std::size_t n = 1;
  std::uint64_t seed = 1;

  std::size_t expected_constraints() const { return n + 1; }

  template <class CS>
  void synthesize(CS& cs) const {
    std::mt19937_64 rng(seed);
    const F x0 = F::random(rng), y0 = F::random(rng);
    auto x = AllocatedNum<F>::alloc(cs, "x0", [&] { return x0; });
    auto y = AllocatedNum<F>::alloc(cs, "y0", [&] { return y0; });
    for (std::size_t i = 0; i < n; ++i) {
      auto z = x.mul(cs, y);
      x = y;
      y = z;
    }
    auto out = AllocatedNum<F>::alloc_input(cs, "out", [&] { return y.value(); });
    enforce_equal<F>(cs, y, out);
  }
};

}  // namespace cuzk::gadgets::circuits
