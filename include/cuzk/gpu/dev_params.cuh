// Device constants of a host field Fp<P>, derived at compile time from the host's own
// constants (Fp<P>::kModulus, kR, kInv), split into 32-bit limbs: DevParams<F>, and the
// matching device element type DevField<F> = DevFp<DevParams<F>>.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/dev_fp.cuh"

namespace cuzk::gpu {

namespace detail {
template <std::size_t M>
constexpr std::array<std::uint32_t, 2 * M> split32(const ff::Limbs<M>& v) {
  std::array<std::uint32_t, 2 * M> o{};
  for (std::size_t i = 0; i < M; ++i) {
    o[2 * i] = static_cast<std::uint32_t>(v[i]);
    o[2 * i + 1] = static_cast<std::uint32_t>(v[i] >> 32);
  }
  return o;
}
// Limb i of a compile-time table. The table is a local constexpr array so that device
// code never refers to the host variable; with i a constant (unrolled loops) this folds
// to an immediate.
template <const auto& Table, std::size_t... I>
CUZK_HD constexpr std::uint32_t limb_at(int i, std::index_sequence<I...>) {
  constexpr std::uint32_t a[] = {Table[I]...};
  return a[i];
}
}  // namespace detail

template <class F>
struct DevParams {
  static constexpr int kN = static_cast<int>(2 * F::kLimbs);
  static constexpr std::array<std::uint32_t, 2 * F::kLimbs> kP = detail::split32(F::kModulus);
  static constexpr std::array<std::uint32_t, 2 * F::kLimbs> kOne = detail::split32(F::kR);
  // -p^-1 mod 2^32 is the low word of -p^-1 mod 2^64.
  static constexpr std::uint32_t kInv = static_cast<std::uint32_t>(F::kInv);
  static_assert(F::kNoCarry, "DevFp needs a spare top bit in the modulus");

  static CUZK_HD constexpr std::uint32_t p(int i) {
    return detail::limb_at<kP>(i, std::make_index_sequence<2 * F::kLimbs>{});
  }
  static CUZK_HD constexpr std::uint32_t one(int i) {
    return detail::limb_at<kOne>(i, std::make_index_sequence<2 * F::kLimbs>{});
  }
  static CUZK_HD constexpr std::uint32_t inv() { return kInv; }
};

template <class F, bool kOutline = false>
using DevField = DevFp<DevParams<F>, kOutline>;

}  // namespace cuzk::gpu
