// ScalarPlan: the scalar side of an MSM, computed once and reusable for several point
// lists (Groth16's A, B1 and B2 queries share one witness; G1 and G2 lists may share one
// plan, it does not depend on the group).
//
// A plan holds
//   - `ones`:   indices of the points whose scalar is exactly 1 (only with split01); they
//               are summed by plain additions;
//   - `rest`:   indices of the points that go through Pippenger (scalar not 0, and not 1
//               with split01); unless `identity` is set, in which case Pippenger runs over
//               points[0 .. num_points) in order (plain MSM, no index list);
//   - `digits`: the signed window digits of the Pippenger scalars, window-major:
//               digits[w * pippenger_size() + j] is digit w of the j-th Pippenger scalar.
// Zero scalars are dropped (or give all-zero digits in identity mode).
//
// Density bitmaps (bellperson / supraseal layout). `density` is a little-endian bit vector
// stored in 64-bit words: bit i is (density[i / 64] >> (i % 64)) & 1, for positions
// i < positions; density.size() must be exactly ceil(positions / 64), bits at positions
// >= `positions` in the last word are ignored. Let rank(i) be the number of set bits
// below position i. Two layouts:
//   DensityLayout::kDensePoints  (bellperson `multiexp` with a DensityTracker, supraseal's
//       A / B queries): positions are variables; scalars has one entry per position (the
//       full assignment), points has one entry per SET bit (the query keeps points only
//       for variables that occur). Pair: points[rank(i)] * scalars[i] for set bits i.
//   DensityLayout::kDenseScalars: positions are points; points has one entry per
//       position, scalars one per set bit. Pair: points[i] * scalars[rank(i)].
// Points whose bit is clear take no part.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "cuzk/ff/bigint.hpp"
#include "cuzk/msm/digits.hpp"
#include "cuzk/msm/window.hpp"

namespace cuzk::msm {

enum class DensityLayout { kDensePoints, kDenseScalars };

struct PlanOptions {
  bool split01 = false;      // sum the points with scalar 1 by additions, Pippenger for the rest
  unsigned window_bits = 0;  // 0: choose_window(); otherwise forced, in [1, kMaxWindow]
  std::size_t threads = 0;   // thread count the cost model assumes; 0: the TBB arena's
};

struct ScalarPlan {
  std::size_t num_points = 0;  // length of the point list this plan applies to
  std::size_t nbits = 0;       // scalar bit length (the field's)
  unsigned window_bits = 1;
  unsigned num_windows = 0;
  std::size_t chunks = 1;      // point slices per window (see window.hpp)
  bool identity = false;
  std::vector<std::uint32_t> ones;
  std::vector<std::uint32_t> rest;
  std::vector<std::int32_t> digits;

  std::size_t pippenger_size() const { return identity ? num_points : rest.size(); }
};

inline std::size_t default_threads() {
  return static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
}

namespace detail {

inline constexpr std::size_t kPlanBlock = 4096;  // positions per block, a multiple of 64

enum class Kind { kZero, kOne, kOther };

// Scalars in Montgomery form (ff::Fp).
template <class F>
struct MontSource {
  std::span<const F> s;
  Kind kind(std::size_t j) const { return s[j].is_zero() ? Kind::kZero : s[j].is_one() ? Kind::kOne : Kind::kOther; }
  typename F::Repr canonical(std::size_t j) const { return s[j].to_canonical(); }
};

// Canonical little-endian limbs, checked against the field modulus.
template <class F>
struct CanonicalSource {
  std::span<const typename F::Repr> s;
  Kind kind(std::size_t j) const {
    const auto& k = s[j];
    bool high_zero = true;
    for (std::size_t i = 1; i < k.size(); ++i) high_zero &= k[i] == 0;
    if (high_zero && k[0] == 0) return Kind::kZero;
    if (high_zero && k[0] == 1) return Kind::kOne;
    return Kind::kOther;
  }
  typename F::Repr canonical(std::size_t j) const {
    if (ff::big::cmp(s[j], F::kModulus) >= 0)
      throw std::invalid_argument("msm: scalar " + std::to_string(j) + " is not reduced (>= the group order r)");
    return s[j];
  }
};

inline void finish_split(ScalarPlan& p, const PlanOptions& o, std::size_t m) {
  const std::size_t threads = o.threads ? o.threads : default_threads();
  if (o.window_bits) {
    check_window_bits(o.window_bits);
    p.window_bits = o.window_bits;
  } else {
    p.window_bits = choose_window(m, p.nbits, threads);
  }
  p.num_windows = num_windows(p.nbits, p.window_bits);
  p.chunks = choose_chunks(m, p.nbits, p.window_bits, threads);
}

inline void check_count(std::size_t n) {
  if (n >= (std::size_t{1} << 32)) throw std::invalid_argument("msm: more than 2^32 - 1 points");
}

// Plain MSM: digits of every scalar, in point order.
template <class F, class Src>
ScalarPlan plan_identity(const Src& src, std::size_t n, const PlanOptions& o) {
  check_count(n);
  ScalarPlan p;
  p.num_points = n;
  p.nbits = F::kBits;
  p.identity = true;
  finish_split(p, o, n);
  p.digits.resize(std::size_t{p.num_windows} * n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1024), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t j = r.begin(); j < r.end(); ++j) {
      if (src.kind(j) == Kind::kZero) {
        for (unsigned w = 0; w < p.num_windows; ++w) p.digits[std::size_t{w} * n + j] = 0;
      } else {
        signed_digits(src.canonical(j), p.window_bits, p.num_windows, p.digits.data() + j, n);
      }
    }
  });
  return p;
}

// Selected positions of a (possibly absent) density bitmap.
struct Selection {
  std::span<const std::uint64_t> bits;  // empty: every position is selected
  std::size_t positions = 0;
  DensityLayout layout = DensityLayout::kDensePoints;
  bool selected(std::size_t i) const { return bits.empty() || ((bits[i / 64] >> (i % 64)) & 1); }
};

// General plan: zero scalars dropped, ones split off when asked, the rest indexed.
template <class F, class Src>
ScalarPlan plan_selected(const Src& src, const Selection& sel, const PlanOptions& o) {
  const std::size_t n = sel.positions;
  check_count(n);
  const std::size_t nblocks = (n + kPlanBlock - 1) / kPlanBlock;
  // rank at the start of each block
  std::vector<std::uint32_t> rank0(nblocks + 1, 0);
  for (std::size_t b = 0; b < nblocks; ++b) {
    std::uint32_t cnt = 0;
    if (sel.bits.empty()) {
      cnt = static_cast<std::uint32_t>(std::min(kPlanBlock, n - b * kPlanBlock));
    } else {
      const std::size_t end = std::min(n, (b + 1) * kPlanBlock);
      for (std::size_t i = b * kPlanBlock; i < end; i += 64) {
        std::uint64_t w = sel.bits[i / 64];
        if (end - i < 64) w &= (std::uint64_t{1} << (end - i)) - 1;
        cnt += static_cast<std::uint32_t>(std::popcount(w));
      }
    }
    rank0[b + 1] = rank0[b] + cnt;
  }
  const std::size_t selected_total = rank0[nblocks];

  ScalarPlan p;
  p.nbits = F::kBits;
  p.num_points = (sel.bits.empty() || sel.layout == DensityLayout::kDenseScalars) ? n : selected_total;

  // Visits the selected positions of block b as (point index, scalar index).
  auto for_block = [&](std::size_t b, auto&& fn) {
    std::uint32_t r = rank0[b];
    const std::size_t end = std::min(n, (b + 1) * kPlanBlock);
    for (std::size_t i = b * kPlanBlock; i < end; ++i) {
      if (!sel.selected(i)) continue;
      const std::size_t rk = r++;
      if (sel.bits.empty()) fn(i, i);
      else if (sel.layout == DensityLayout::kDensePoints) fn(rk, i);
      else fn(i, rk);
    }
  };

  // pass 1: count ones and rest per block
  std::vector<std::size_t> n_ones(nblocks + 1, 0), n_rest(nblocks + 1, 0);
  tbb::parallel_for(std::size_t{0}, nblocks, [&](std::size_t b) {
    std::size_t o1 = 0, o2 = 0;
    for_block(b, [&](std::size_t, std::size_t j) {
      Kind k = src.kind(j);
      if (k == Kind::kOne && o.split01) ++o1;
      else if (k != Kind::kZero) ++o2;
    });
    n_ones[b + 1] = o1;
    n_rest[b + 1] = o2;
  });
  for (std::size_t b = 0; b < nblocks; ++b) {
    n_ones[b + 1] += n_ones[b];
    n_rest[b + 1] += n_rest[b];
  }
  const std::size_t m = n_rest[nblocks];
  finish_split(p, o, m);
  p.ones.resize(n_ones[nblocks]);
  p.rest.resize(m);
  p.digits.resize(std::size_t{p.num_windows} * m);

  // pass 2: write indices and digits
  tbb::parallel_for(std::size_t{0}, nblocks, [&](std::size_t b) {
    std::size_t o1 = n_ones[b], o2 = n_rest[b];
    for_block(b, [&](std::size_t pt, std::size_t j) {
      Kind k = src.kind(j);
      if (k == Kind::kOne && o.split01) {
        p.ones[o1++] = static_cast<std::uint32_t>(pt);
      } else if (k != Kind::kZero) {
        p.rest[o2] = static_cast<std::uint32_t>(pt);
        signed_digits(src.canonical(j), p.window_bits, p.num_windows, p.digits.data() + o2, m);
        ++o2;
      }
    });
  });
  return p;
}

template <class F, class Src>
ScalarPlan plan_dispatch(const Src& src, std::size_t n, const PlanOptions& o) {
  if (!o.split01) return plan_identity<F>(src, n, o);
  return plan_selected<F>(src, Selection{{}, n, DensityLayout::kDensePoints}, o);
}

template <class F, class Src>
ScalarPlan plan_density(const Src& src, std::size_t nscalars, std::span<const std::uint64_t> density,
                        std::size_t positions, DensityLayout layout, const PlanOptions& o) {
  if (density.size() != (positions + 63) / 64)
    throw std::invalid_argument("msm: density bitmap has " + std::to_string(density.size()) + " words, expected " +
                                std::to_string((positions + 63) / 64) + " for " + std::to_string(positions) + " positions");
  Selection sel{density, positions, layout};
  if (positions == 0) sel.bits = {};
  if (layout == DensityLayout::kDensePoints) {
    if (nscalars != positions)
      throw std::invalid_argument("msm: dense-points layout needs one scalar per position (" + std::to_string(nscalars) +
                                  " scalars, " + std::to_string(positions) + " positions)");
  } else {
    std::size_t set = 0;
    for (std::size_t i = 0; i < positions; i += 64) {
      std::uint64_t w = density[i / 64];
      if (positions - i < 64) w &= (std::uint64_t{1} << (positions - i)) - 1;
      set += static_cast<std::size_t>(std::popcount(w));
    }
    if (nscalars != set)
      throw std::invalid_argument("msm: dense-scalars layout needs one scalar per set bit (" + std::to_string(nscalars) +
                                  " scalars, " + std::to_string(set) + " bits set)");
  }
  return plan_selected<F>(src, sel, o);
}

}  // namespace detail

// Plan for scalars in Montgomery form (F = the scalar field, e.g. ff::bn254::Fr).
template <class F>
ScalarPlan plan_msm(std::span<const F> scalars, const PlanOptions& o = {}) {
  return detail::plan_dispatch<F>(detail::MontSource<F>{scalars}, scalars.size(), o);
}

// Plan for canonical little-endian scalars (snarkjs .wtns layout); each must be < r.
template <class F>
ScalarPlan plan_msm_canonical(std::span<const typename F::Repr> scalars, const PlanOptions& o = {}) {
  return detail::plan_dispatch<F>(detail::CanonicalSource<F>{scalars}, scalars.size(), o);
}

// Plans driven by a density bitmap (layouts described at the top of this file).
// split01 defaults to true here, as bellperson and supraseal do.
template <class F>
ScalarPlan plan_msm_density(std::span<const std::uint64_t> density, std::size_t positions, std::span<const F> scalars,
                            DensityLayout layout, PlanOptions o = {.split01 = true}) {
  return detail::plan_density<F>(detail::MontSource<F>{scalars}, scalars.size(), density, positions, layout, o);
}
template <class F>
ScalarPlan plan_msm_density_canonical(std::span<const std::uint64_t> density, std::size_t positions,
                                      std::span<const typename F::Repr> scalars, DensityLayout layout,
                                      PlanOptions o = {.split01 = true}) {
  return detail::plan_density<F>(detail::CanonicalSource<F>{scalars}, scalars.size(), density, positions, layout, o);
}

}  // namespace cuzk::msm
