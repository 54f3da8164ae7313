// Parser fuzzing: every truncation must throw DecodeError; random byte flips must either parse
// or throw DecodeError (anything else, or a crash, fails the test).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "cuzk/error.hpp"

namespace cuzk::test {

template <class Parse>
void fuzz_truncations(const std::vector<std::uint8_t>& good, Parse parse, std::size_t from = 0) {
  for (std::size_t len = from; len < good.size(); ++len) {
    std::vector<std::uint8_t> t(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(len));
    EXPECT_THROW(parse(std::span<const std::uint8_t>(t)), DecodeError) << "truncated to " << len << " bytes";
  }
}

// Returns how many of the mutated inputs were rejected.
template <class Parse>
std::size_t fuzz_flips(const std::vector<std::uint8_t>& good, Parse parse, std::size_t iterations, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::size_t rejected = 0;
  for (std::size_t it = 0; it < iterations; ++it) {
    std::vector<std::uint8_t> t = good;
    const std::size_t flips = 1 + rng() % 3;
    for (std::size_t k = 0; k < flips; ++k) {
      const std::size_t at = rng() % t.size();
      t[at] = (rng() % 2) ? static_cast<std::uint8_t>(rng()) : static_cast<std::uint8_t>(t[at] ^ (1u << (rng() % 8)));
    }
    try {
      parse(std::span<const std::uint8_t>(t));
    } catch (const DecodeError&) {
      ++rejected;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "iteration " << it << ": non-DecodeError exception: " << e.what();
    }
  }
  return rejected;
}

}  // namespace cuzk::test
