// Multi-scalar multiplication on the CPU: sum_i k_i * P_i for G1 and G2 of BLS12-381 and
// BN254 (any ec curve traits C), multithreaded with oneTBB.
//
//   msm<C>(points, scalars [, window_bits])          scalars: C::Scalar, Montgomery form
//   msm<C>(points, canonical_limbs [, window_bits])   scalars: canonical LE limbs (< r)
//   msm_split01<C>(...)                               0/1 fast path: scalars equal to 1 are
//                                                     summed by additions, zeros dropped,
//                                                     Pippenger runs on the rest only
//   msm_density<C>(points, density, scalars, layout)  density-bitmap form (plan.hpp)
//   msm_batch<C>(point_lists, scalars)                several point lists, one plan
//   msm<C>(points, plan)                              any plan (pippenger.hpp), e.g. one plan
//                                                     shared by G1 and G2 lists
// window_bits = 0 chooses the window size from the cost model in window.hpp. Points at
// infinity ((0,0)) and zero scalars are fine. Length mismatches and scalars >= r (canonical
// input) throw std::invalid_argument.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ec/point.hpp"
#include "cuzk/msm/pippenger.hpp"
#include "cuzk/msm/plan.hpp"

namespace cuzk::msm {

namespace detail {
inline void check_lengths(std::size_t points, std::size_t scalars) {
  if (points != scalars)
    throw std::invalid_argument("msm: " + std::to_string(points) + " points but " + std::to_string(scalars) + " scalars");
}
}  // namespace detail

template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> points, std::span<const typename C::Scalar> scalars,
                    unsigned window_bits = 0) {
  detail::check_lengths(points.size(), scalars.size());
  return msm<C>(points, plan_msm<typename C::Scalar>(scalars, {.split01 = false, .window_bits = window_bits}));
}

template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> points, std::span<const typename C::Scalar::Repr> scalars,
                    unsigned window_bits = 0) {
  detail::check_lengths(points.size(), scalars.size());
  return msm<C>(points, plan_msm_canonical<typename C::Scalar>(scalars, {.split01 = false, .window_bits = window_bits}));
}

template <class C>
ec::Jacobian<C> msm_split01(std::span<const ec::Affine<C>> points, std::span<const typename C::Scalar> scalars,
                            unsigned window_bits = 0) {
  detail::check_lengths(points.size(), scalars.size());
  return msm<C>(points, plan_msm<typename C::Scalar>(scalars, {.split01 = true, .window_bits = window_bits}));
}

template <class C>
ec::Jacobian<C> msm_split01(std::span<const ec::Affine<C>> points, std::span<const typename C::Scalar::Repr> scalars,
                            unsigned window_bits = 0) {
  detail::check_lengths(points.size(), scalars.size());
  return msm<C>(points, plan_msm_canonical<typename C::Scalar>(scalars, {.split01 = true, .window_bits = window_bits}));
}

// Density-bitmap MSM (layouts in plan.hpp). The number of positions is scalars.size() for
// kDensePoints (bellperson: full assignment, points only for set bits) and points.size()
// for kDenseScalars. Uses the 0/1 split.
template <class C>
ec::Jacobian<C> msm_density(std::span<const ec::Affine<C>> points, std::span<const std::uint64_t> density,
                            std::span<const typename C::Scalar> scalars,
                            DensityLayout layout = DensityLayout::kDensePoints, unsigned window_bits = 0) {
  const std::size_t positions = layout == DensityLayout::kDensePoints ? scalars.size() : points.size();
  ScalarPlan plan = plan_msm_density<typename C::Scalar>(density, positions, scalars, layout,
                                                         {.split01 = true, .window_bits = window_bits});
  if (plan.num_points != points.size())
    throw std::invalid_argument("msm: density bitmap selects " + std::to_string(plan.num_points) + " points but " +
                                std::to_string(points.size()) + " were given");
  return msm<C>(points, plan);
}

template <class C>
ec::Jacobian<C> msm_density(std::span<const ec::Affine<C>> points, std::span<const std::uint64_t> density,
                            std::span<const typename C::Scalar::Repr> scalars,
                            DensityLayout layout = DensityLayout::kDensePoints, unsigned window_bits = 0) {
  const std::size_t positions = layout == DensityLayout::kDensePoints ? scalars.size() : points.size();
  ScalarPlan plan = plan_msm_density_canonical<typename C::Scalar>(density, positions, scalars, layout,
                                                                   {.split01 = true, .window_bits = window_bits});
  if (plan.num_points != points.size())
    throw std::invalid_argument("msm: density bitmap selects " + std::to_string(plan.num_points) + " points but " +
                                std::to_string(points.size()) + " were given");
  return msm<C>(points, plan);
}

// Several MSMs over the same scalars: the scalar conversion, 0/1 split and digit
// decomposition are done once. Every point list must have scalars.size() entries.
// (Lists of different groups, e.g. G1 A/B1 and G2 B2, share a plan through
// plan_msm + msm<C>(points, plan) per group.)
template <class C>
std::vector<ec::Jacobian<C>> msm_batch(std::span<const std::span<const ec::Affine<C>>> point_lists,
                                       std::span<const typename C::Scalar> scalars, PlanOptions o = {.split01 = true}) {
  for (const auto& pl : point_lists) detail::check_lengths(pl.size(), scalars.size());
  const ScalarPlan plan = plan_msm<typename C::Scalar>(scalars, o);
  std::vector<ec::Jacobian<C>> out;
  out.reserve(point_lists.size());
  for (const auto& pl : point_lists) out.push_back(msm<C>(pl, plan));
  return out;
}

template <class C>
std::vector<ec::Jacobian<C>> msm_batch(std::span<const std::span<const ec::Affine<C>>> point_lists,
                                       std::span<const typename C::Scalar::Repr> scalars,
                                       PlanOptions o = {.split01 = true}) {
  for (const auto& pl : point_lists) detail::check_lengths(pl.size(), scalars.size());
  const ScalarPlan plan = plan_msm_canonical<typename C::Scalar>(scalars, o);
  std::vector<ec::Jacobian<C>> out;
  out.reserve(point_lists.size());
  for (const auto& pl : point_lists) out.push_back(msm<C>(pl, plan));
  return out;
}

}  // namespace cuzk::msm
