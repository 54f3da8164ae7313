// Helpers shared by the point encoders: coordinate field shape (Fp or Fp2), byte <-> limb
// conversion with canonicity checks, and error construction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "cuzk/ec/point.hpp"
#include "cuzk/error.hpp"

namespace cuzk::ec::detail {

// Coordinate fields: a prime field (has kLimbs) or a quadratic extension (has c0, c1).
template <class F>
concept QuadraticExt = requires(const F& f) {
  f.c0;
  f.c1;
};

template <class F>
struct PrimeOf {
  using type = F;
};
template <QuadraticExt F>
struct PrimeOf<F> {
  using type = typename F::Base;
};
template <class F>
using PrimeOfT = typename PrimeOf<F>::type;

template <class F>
inline constexpr std::size_t kDegree = QuadraticExt<F> ? 2 : 1;

// Bytes of one coordinate (one base-field element) and of an affine point (x, y).
template <class C>
inline constexpr std::size_t kCoordBytes = PrimeOfT<typename C::Base>::kBytes * kDegree<typename C::Base>;

[[noreturn]] inline void fail(const char* curve, const std::string& what) {
  throw DecodeError(std::string(curve) + ": " + what);
}

// Limbs from big-endian / little-endian bytes (exactly 8*N bytes).
template <std::size_t N>
Limbs<N> limbs_from_be(std::span<const std::uint8_t> b) {
  Limbs<N> c{};
  for (std::size_t i = 0; i < 8 * N; ++i) c[i / 8] |= u64{b[8 * N - 1 - i]} << (8 * (i % 8));
  return c;
}
template <std::size_t N>
Limbs<N> limbs_from_le(std::span<const std::uint8_t> b) {
  Limbs<N> c{};
  for (std::size_t i = 0; i < 8 * N; ++i) c[i / 8] |= u64{b[i]} << (8 * (i % 8));
  return c;
}
template <std::size_t N>
void limbs_to_le(const Limbs<N>& c, std::span<std::uint8_t> out) {
  for (std::size_t i = 0; i < 8 * N; ++i) out[i] = static_cast<std::uint8_t>(c[i / 8] >> (8 * (i % 8)));
}

template <class Fq>
bool less_than_modulus(const typename Fq::Repr& c) {
  return ff::big::cmp(c, Fq::kModulus) < 0;
}

}  // namespace cuzk::ec::detail
