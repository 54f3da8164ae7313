// Bucket method (Pippenger) over a ScalarPlan, and the plain parallel sum used for the
// points whose scalar is 1.
//
// Windows with at least kMinBatchAffineBuckets buckets in use accumulate batch-affine
// (batch_affine.hpp: affine buckets, one shared inversion per batch of additions, ~6M per
// addition); smaller windows (and the nearly empty top window) use XYZZ buckets.
// XYZZ buckets (ec::Xyzz): a mixed addition costs 8M + 2S and ec::Xyzz's
// add_mixed handles the exceptional cases a bucket meets (empty bucket, P + P by an
// affine doubling, P + (-P) giving infinity). A task (window w, point slice k) fills
// 2^(c-1) buckets from its slice, then reduces them by the running sum
//   running = b[B-1] + ... + b[j],  total += running  (j = B-1 .. 0)
// which gives sum_j (j+1) b[j] with 2B additions. Windows are combined from the top by
// c doublings and one addition each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "cuzk/ec/point.hpp"
#include "cuzk/msm/batch_affine.hpp"
#include "cuzk/msm/plan.hpp"

namespace cuzk::msm {

namespace detail {

template <class C, bool kIndexed>
void fill_buckets(std::span<const ec::Affine<C>> points, const ScalarPlan& plan, unsigned w, std::size_t begin,
                  std::size_t end, std::vector<ec::Xyzz<C>>& buckets) {
  const std::size_t m = plan.pippenger_size();
  const std::int32_t* d = plan.digits.data() + std::size_t{w} * m;
  for (std::size_t j = begin; j < end; ++j) {
    const std::int32_t v = d[j];
    if (j + 1 < end) {  // the next bucket and point are random accesses: fetch them early
      const std::int32_t vn = d[j + 1];
      if (vn != 0) __builtin_prefetch(&buckets[static_cast<std::size_t>(vn > 0 ? vn - 1 : -vn - 1)], 1);
      if constexpr (kIndexed) __builtin_prefetch(&points[plan.rest[j + 1]]);
    }
    if (v == 0) continue;
    const ec::Affine<C>& pt = kIndexed ? points[plan.rest[j]] : points[j];
    if (v > 0) {
      auto& b = buckets[static_cast<std::size_t>(v - 1)];
      b = b.add_mixed(pt);
    } else {
      auto& b = buckets[static_cast<std::size_t>(-v - 1)];
      b = b.add_mixed(-pt);
    }
  }
}

// Number of buckets window w can touch: the top window holds only nbits - w c bits
// (digits 0 .. 2^(nbits - w c), it never carries out), the others all 2^(c-1).
inline std::size_t buckets_in_use(const ScalarPlan& plan, unsigned w) {
  const std::size_t nb = std::size_t{1} << (plan.window_bits - 1);
  const std::size_t lo = std::size_t{w} * plan.window_bits;
  if (lo >= plan.nbits) return 1;
  const std::size_t t = plan.nbits - lo;
  return t >= plan.window_bits ? nb : std::min(nb, std::size_t{1} << t);
}

// Same as fill_buckets, into batch-affine buckets.
template <class C, bool kIndexed>
void fill_batch_affine(std::span<const ec::Affine<C>> points, const ScalarPlan& plan, unsigned w, std::size_t begin,
                       std::size_t end, BatchAffineBuckets<C>& buckets) {
  const std::size_t m = plan.pippenger_size();
  const std::int32_t* d = plan.digits.data() + std::size_t{w} * m;
  buckets.begin(buckets_in_use(plan, w));
  for (std::size_t j = begin; j < end; ++j) {
    const std::int32_t v = d[j];
    if (j + 4 < end) {  // random accesses: fetch the bucket and point a few steps ahead
      const std::int32_t vn = d[j + 4];
      if (vn != 0) buckets.prefetch(static_cast<std::uint32_t>(vn > 0 ? vn - 1 : -vn - 1));
      if constexpr (kIndexed) __builtin_prefetch(&points[plan.rest[j + 4]]);
    }
    if (v == 0) continue;
    const ec::Affine<C>& pt = kIndexed ? points[plan.rest[j]] : points[j];
    if (pt.is_infinity()) continue;
    if (v > 0) buckets.add(static_cast<std::uint32_t>(v - 1), &pt, false);
    else buckets.add(static_cast<std::uint32_t>(-v - 1), &pt, true);
  }
  buckets.finish();
}

// g * p for a small g >= 1 (double-and-add).
template <class C>
ec::Xyzz<C> mul_small(const ec::Xyzz<C>& p, std::size_t g) {
  if (g == 1) return p;
  ec::Xyzz<C> r = p;
  for (int i = 62 - __builtin_clzll(g); i >= 0; --i) {
    r = r.dbl();
    if ((g >> i) & 1) r += p;
  }
  return r;
}

// Sum_j (j+1) * buckets[j]; empties the buckets. The running sum is constant between
// non-empty buckets, so a run of g empty buckets costs one multiplication by g + 1
// instead of g additions (sparse buckets: few points per task, large windows).
template <class C>
ec::Xyzz<C> reduce_buckets(std::vector<ec::Xyzz<C>>& buckets) {
  using X = ec::Xyzz<C>;
  X running = X::infinity(), total = X::infinity();
  std::size_t last = buckets.size();  // index where `running` took its current value
  for (std::size_t j = buckets.size(); j-- > 0;) {
    if (buckets[j].is_infinity()) continue;
    if (!running.is_infinity()) total += mul_small<C>(running, last - j);
    running += buckets[j];
    buckets[j] = X::infinity();
    last = j;
  }
  if (!running.is_infinity()) total += mul_small<C>(running, last + 1);
  return total;
}

}  // namespace detail

// Pippenger part of a plan: sum over the plan's Pippenger scalars.
template <class C>
ec::Xyzz<C> pippenger(std::span<const ec::Affine<C>> points, const ScalarPlan& plan) {
  using X = ec::Xyzz<C>;
  const std::size_t m = plan.pippenger_size();
  if (m == 0) return X::infinity();
  const unsigned W = plan.num_windows, c = plan.window_bits;
  const std::size_t chunks = std::max<std::size_t>(1, std::min(plan.chunks, m));
  const std::size_t nbuckets = std::size_t{1} << (c - 1);
  std::vector<X> partial(std::size_t{W} * chunks, X::infinity());
  // Thread-local buckets, made on a thread's first task of each kind.
  tbb::enumerable_thread_specific<std::vector<X>> tls([&] { return std::vector<X>(nbuckets, X::infinity()); });
  tbb::enumerable_thread_specific<detail::BatchAffineBuckets<C>> tls_ba([&] { return detail::BatchAffineBuckets<C>(nbuckets); });

  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, partial.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t t = r.begin(); t < r.end(); ++t) {
      const unsigned w = static_cast<unsigned>(t / chunks);
      const std::size_t k = t % chunks;
      const std::size_t begin = m * k / chunks, end = m * (k + 1) / chunks;
      if (detail::buckets_in_use(plan, w) >= kMinBatchAffineBuckets) {
        auto& buckets = tls_ba.local();
        if (plan.identity) detail::fill_batch_affine<C, false>(points, plan, w, begin, end, buckets);
        else detail::fill_batch_affine<C, true>(points, plan, w, begin, end, buckets);
        partial[t] = buckets.reduce([](const X& p, std::size_t g) { return detail::mul_small<C>(p, g); });
      } else {
        auto& buckets = tls.local();
        if (plan.identity) detail::fill_buckets<C, false>(points, plan, w, begin, end, buckets);
        else detail::fill_buckets<C, true>(points, plan, w, begin, end, buckets);
        partial[t] = detail::reduce_buckets<C>(buckets);
      }
    }
  });

  X acc = X::infinity();
  for (unsigned w = W; w-- > 0;) {
    if (!acc.is_infinity())
      for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    for (std::size_t k = 0; k < chunks; ++k) acc += partial[std::size_t{w} * chunks + k];
  }
  return acc;
}

// Sum of points[idx[i]] over all i (parallel; blocks summed by batch-affine tree
// additions, see batch_affine.hpp).
template <class C>
ec::Xyzz<C> sum_indexed(std::span<const ec::Affine<C>> points, std::span<const std::uint32_t> idx) {
  using X = ec::Xyzz<C>;
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, idx.size(), 4096), X::infinity(),
      [&](const tbb::blocked_range<std::size_t>& r, X acc) {
        std::vector<ec::Affine<C>> v(r.size());
        for (std::size_t i = r.begin(); i < r.end(); ++i) v[i - r.begin()] = points[idx[i]];
        return acc + detail::sum_affine_tree<C>(v);
      },
      [](const X& a, const X& b) { return a + b; });
}

// Whole plan: ones by additions plus Pippenger for the rest.
template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> points, const ScalarPlan& plan) {
  if (points.size() != plan.num_points)
    throw std::invalid_argument("msm: " + std::to_string(points.size()) + " points but the scalar plan expects " +
                                std::to_string(plan.num_points));
  if (plan.nbits != C::Scalar::kBits)
    throw std::invalid_argument("msm: scalar plan was made for a different scalar field");
  ec::Xyzz<C> s = pippenger<C>(points, plan);
  if (!plan.ones.empty()) s += sum_indexed<C>(points, plan.ones);
  return s.to_jacobian();
}

}  // namespace cuzk::msm
