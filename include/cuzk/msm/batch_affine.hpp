// Batch-affine bucket accumulation for the Pippenger MSM (CPU).
//
// Buckets are affine points. Pending additions bucket[b] += P are collected in a batch
// whose buckets are pairwise distinct; all the slopes of a batch share ONE field
// inversion (Montgomery's trick), so an addition costs about 6 multiplications
// (3 for the shared inversion, 1 for the slope, 1 square and 1 multiplication for the
// new point) instead of the 8M + 2S of an XYZZ mixed addition.
//
// Special cases of one pending addition A + P (A = current bucket value):
//   A empty        the bucket takes P directly (no batch entry);
//   A.x != P.x     chord slope (P.y - A.y) / (P.x - A.x);
//   A == P         tangent slope 3 x^2 / (2 y)  (y != 0: the groups have odd order);
//   A == -P        the bucket becomes empty (no inversion needed).
// An addition whose bucket is already in the batch (a collision) waits in a small queue
// and joins the next batch; when the queue is full (many points in one bucket, e.g.
// equal scalars) the addition goes to an XYZZ overflow bucket instead, so the work stays
// linear whatever the digit distribution. The bucket sum is affine + overflow.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ec/point.hpp"
#include "cuzk/msm/window.hpp"

namespace cuzk::msm::detail {

// Largest number of additions sharing one inversion; the batch is also limited to a
// quarter of the buckets in use, which keeps collisions rare.
inline constexpr std::size_t kMaxBatch = 1024;
// (kMinBatchAffineBuckets in window.hpp: fewest buckets for which it is used.)

inline std::size_t batch_size_for(std::size_t buckets_in_use) {
  return std::max<std::size_t>(16, std::min(kMaxBatch, buckets_in_use / 4));
}

template <class C>
class BatchAffineBuckets {
 public:
  using A = ec::Affine<C>;
  using X = ec::Xyzz<C>;
  using Base = typename C::Base;

  explicit BatchAffineBuckets(std::size_t nbuckets)
      : bucket_(nbuckets, A::infinity()), busy_(nbuckets, 0) {
    batch_.reserve(kMaxBatch);
    queue_.reserve(kMaxBatch);
    prefix_.resize(2 * kMaxBatch);
    kind_.resize(2 * kMaxBatch);
  }

  // Starts a task whose digits use buckets [0, in_use).
  void begin(std::size_t in_use) {
    limit_ = batch_size_for(in_use);
    queue_limit_ = limit_ / 2;
  }

  // bucket[b] += (neg ? -p : p); p must not be the point at infinity.
  void add(std::uint32_t b, const A* p, bool neg) {
    insert(Entry{b, neg, p});
    if (batch_.size() >= limit_) flush();
  }

  // Hint that bucket b will be added to soon.
  void prefetch(std::uint32_t b) const {
    __builtin_prefetch(&bucket_[b], 1);
    __builtin_prefetch(&busy_[b], 1);
  }

  // Applies every pending addition.
  void finish() {
    if (!batch_.empty()) flush();
    for (const Entry& e : queue_) overflow_add(e);
    queue_.clear();
    if (!batch_.empty()) process_batch();  // drained entries that found free buckets
  }

  // Sum_j (j+1) * bucket[j] over all buckets; empties them (call finish() first).
  template <class MulSmall>
  X reduce(MulSmall&& mul_small) {
    X running = X::infinity(), total = X::infinity();
    std::size_t last = bucket_.size();
    for (std::size_t j = bucket_.size(); j-- > 0;) {
      const bool has_a = !bucket_[j].is_infinity();
      const bool has_o = overflow_used_ && !overflow_[j].is_infinity();
      if (!has_a && !has_o) continue;
      if (!running.is_infinity()) total += mul_small(running, last - j);
      if (has_a) running = running.add_mixed(bucket_[j]);
      if (has_o) running += overflow_[j];
      bucket_[j] = A::infinity();
      if (overflow_used_) overflow_[j] = X::infinity();
      last = j;
    }
    overflow_used_ = false;
    if (!running.is_infinity()) total += mul_small(running, last + 1);
    return total;
  }

 private:
  struct Entry {
    std::uint32_t b;
    bool neg;
    const A* p;
  };
  enum Kind : std::uint8_t { kAdd, kDbl, kCancel };

  void insert(const Entry& e) {
    if (busy_[e.b]) {
      if (queue_.size() < queue_limit_) queue_.push_back(e);
      else overflow_add(e);
      return;
    }
    A& a = bucket_[e.b];
    if (a.is_infinity()) {
      a = e.neg ? -*e.p : *e.p;
      return;
    }
    busy_[e.b] = 1;
    batch_.push_back(e);
  }

  void overflow_add(const Entry& e) {
    if (overflow_.empty()) overflow_.assign(bucket_.size(), X::infinity());  // first use only
    overflow_used_ = true;
    X& o = overflow_[e.b];
    o = o.add_mixed(e.neg ? -*e.p : *e.p);
  }

  // Applies the batch, then moves the queued additions into the next batch.
  void flush() {
    process_batch();
    if (queue_.empty()) return;
    std::vector<Entry> q;
    q.swap(queue_);
    queue_.reserve(kMaxBatch);
    for (const Entry& e : q) insert(e);
  }

  void process_batch() {
    const std::size_t n = batch_.size();
    Base acc = Base::one();
    for (std::size_t i = 0; i < n; ++i) {
      if (i + 4 < n) __builtin_prefetch(&bucket_[batch_[i + 4].b]);
      const Entry& e = batch_[i];
      const A& a = bucket_[e.b];
      const A& p = *e.p;
      Base d;
      Kind k = kAdd;
      if (a.x == p.x) {
        const bool same = e.neg ? (a.y == -p.y) : (a.y == p.y);
        if (!same) {
          kind_[i] = kCancel;
          continue;
        }
        k = kDbl;
        d = a.y.dbl();
      } else {
        d = p.x - a.x;
      }
      kind_[i] = k;
      prefix_[i] = acc;
      acc *= d;
    }
    Base inv = acc.inverse();
    for (std::size_t i = n; i-- > 0;) {
      const Entry& e = batch_[i];
      A& a = bucket_[e.b];
      busy_[e.b] = 0;
      if (kind_[i] == kCancel) {
        a = A::infinity();
        continue;
      }
      const A& p = *e.p;
      const Base dinv = inv * prefix_[i];
      Base num;
      if (kind_[i] == kDbl) {
        inv *= a.y.dbl();  // the denominators are recomputed: cheaper than storing them
        const Base x2 = a.x.square();
        num = x2.dbl() + x2;
      } else {
        inv *= p.x - a.x;
        num = e.neg ? -(p.y + a.y) : p.y - a.y;
      }
      const Base lambda = num * dinv;
      const Base x3 = lambda.square() - a.x - p.x;
      a.y = lambda * (a.x - x3) - a.y;
      a.x = x3;
    }
    batch_.clear();
  }

  std::vector<A> bucket_;
  std::vector<std::uint8_t> busy_;
  std::vector<X> overflow_;
  bool overflow_used_ = false;
  std::vector<Entry> batch_, queue_;
  std::vector<Base> prefix_;
  std::vector<Kind> kind_;
  std::size_t limit_ = 16, queue_limit_ = 8;
};

// Sum of the affine points v (any of them may be infinity) by rounds of pairwise affine
// additions, each round sharing one inversion; the last few points are added in XYZZ.
// Used for the points whose scalar is 1. Overwrites v.
template <class C>
ec::Xyzz<C> sum_affine_tree(std::vector<ec::Affine<C>>& v) {
  using A = ec::Affine<C>;
  using Base = typename C::Base;
  constexpr std::size_t kTail = 32;  // below this many points a round's inversion does not pay
  std::size_t n = 0;
  for (const A& p : v)
    if (!p.is_infinity()) v[n++] = p;
  std::vector<Base> den(n / 2), prefix(n / 2);
  while (n > kTail) {
    const std::size_t pairs = n / 2;
    Base acc = Base::one();
    for (std::size_t i = 0; i < pairs; ++i) {
      const A& a = v[2 * i];
      const A& b = v[2 * i + 1];
      // a == -b: den stays 0 and the pair vanishes below; a == b: tangent 3x^2 / 2y
      den[i] = a.x == b.x ? (a.y == b.y ? a.y.dbl() : Base::zero()) : b.x - a.x;
      prefix[i] = acc;
      if (!den[i].is_zero()) acc *= den[i];
    }
    Base inv = acc.inverse();
    for (std::size_t i = pairs; i-- > 0;) {
      if (den[i].is_zero()) {
        v[2 * i] = A::infinity();
        continue;
      }
      const A a = v[2 * i];
      const A& b = v[2 * i + 1];
      const Base dinv = inv * prefix[i];
      inv *= den[i];
      Base num;
      if (a.x == b.x) {
        const Base x2 = a.x.square();
        num = x2.dbl() + x2;
      } else {
        num = b.y - a.y;
      }
      const Base lambda = num * dinv;
      const Base x3 = lambda.square() - a.x - b.x;
      v[2 * i] = A{x3, lambda * (a.x - x3) - a.y};
    }
    // compact: the pair sums (dropping cancelled pairs), then the odd one out
    std::size_t k = 0;
    for (std::size_t i = 0; i < pairs; ++i)
      if (!v[2 * i].is_infinity()) v[k++] = v[2 * i];
    if (n % 2) v[k++] = v[n - 1];
    n = k;
  }
  ec::Xyzz<C> s = ec::Xyzz<C>::infinity();
  for (std::size_t i = 0; i < n; ++i) s = s.add_mixed(v[i]);
  return s;
}

}  // namespace cuzk::msm::detail
