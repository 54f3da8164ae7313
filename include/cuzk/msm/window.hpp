// Window size and work split of the Pippenger MSM (CPU).
//
// Signed-digit windows of c bits: a scalar of `nbits` bits is cut into
// W = floor(nbits / c) + 1 windows. Digits lie in [-2^(c-1) + 1, 2^(c-1)], so a window
// needs 2^(c-1) buckets. The "+1" window absorbs the carry out of the top full window;
// when c does not divide nbits the top window has spare bits and never carries, so
// floor(nbits/c) + 1 = ceil(nbits/c) windows, and when it does, the extra window holds
// the final carry (digit 0 or 1).
//
// Work is split into W x chunks tasks: task (w, k) accumulates window w over the k-th
// slice of the points into its own buckets and reduces them (running sum), so windows
// and point slices both give parallelism (2 cores: whole windows; 64 cores: several
// slices per window).
//
// Cost model used to pick c and the number of chunks (in units of one XYZZ mixed addition):
//   a task costs  add_cost(c) * m / chunks   (one bucket addition per point and window)
//             +   kReduceCost * 2^c          (running sum: 2 additions per bucket)
// where add_cost(c) is 1 for XYZZ buckets and kBatchAffineAddCost when the window has
// enough buckets (2^(c-1) >= kMinBatchAffineBuckets) for batch-affine accumulation
// (batch_affine.hpp: ~6 multiplications per addition plus a share of one inversion).
//   T threads run the W * chunks tasks in rounds = ceil(W * chunks / T),
//   estimated time = rounds * task cost.
// The (c, chunks) pair with the smallest estimate wins; ties go to the smaller c (less
// bucket memory). c is limited to [1, kMaxAutoWindow] automatically and to
// [1, kMaxWindow] when the caller forces it. bench/msm sweeps c to check the model.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace cuzk::msm {

inline constexpr unsigned kMaxWindow = 24;      // explicit window sizes accepted
inline constexpr unsigned kMaxAutoWindow = 16;  // largest window the cost model picks
inline constexpr double kReduceCost = 1.3;      // XYZZ add / XYZZ mixed add
// Windows with at least this many buckets accumulate batch-affine; fewer buckets give
// batches too small to pay for their inversion (and more collisions).
inline constexpr std::size_t kMinBatchAffineBuckets = 2048;
inline constexpr double kBatchAffineAddCost = 0.7;  // batch-affine add / XYZZ mixed add

inline constexpr double add_cost(unsigned c) {
  return (std::size_t{1} << (c - 1)) >= kMinBatchAffineBuckets ? kBatchAffineAddCost : 1.0;
}

inline constexpr unsigned num_windows(std::size_t nbits, unsigned c) {
  return static_cast<unsigned>(nbits / c) + 1;
}

struct WorkSplit {
  unsigned window_bits = 1;
  std::size_t chunks = 1;
};

namespace detail {
inline double split_cost(std::size_t m, std::size_t nbits, unsigned c, std::size_t chunks, std::size_t threads) {
  const double w = num_windows(nbits, c);
  const double tasks = w * static_cast<double>(chunks);
  const double rounds = static_cast<double>((static_cast<std::size_t>(tasks) + threads - 1) / threads);
  const double task = add_cost(c) * static_cast<double>(m) / static_cast<double>(chunks) + kReduceCost * static_cast<double>(std::size_t{1} << c);
  return rounds * task;
}
inline std::size_t max_chunks(std::size_t m, std::size_t threads) {
  // More chunks than 8 per thread never pays; a chunk should hold at least a few points.
  return std::max<std::size_t>(1, std::min<std::size_t>(8 * threads, m / 4));
}
}  // namespace detail

inline void check_window_bits(unsigned c) {
  if (c < 1 || c > kMaxWindow)
    throw std::invalid_argument("msm: window size " + std::to_string(c) + " outside [1, " + std::to_string(kMaxWindow) + "]");
}

// Best number of chunks for a fixed window size.
inline std::size_t choose_chunks(std::size_t m, std::size_t nbits, unsigned c, std::size_t threads) {
  threads = std::max<std::size_t>(threads, 1);
  std::size_t best = 1;
  double best_cost = std::numeric_limits<double>::infinity();
  for (std::size_t k = 1; k <= detail::max_chunks(m, threads); ++k) {
    double cost = detail::split_cost(m, nbits, c, k, threads);
    if (cost < best_cost) best_cost = cost, best = k;
  }
  return best;
}

// Window size for m points with nbits-bit scalars on `threads` threads.
inline unsigned choose_window(std::size_t m, std::size_t nbits, std::size_t threads) {
  threads = std::max<std::size_t>(threads, 1);
  unsigned best = 1;
  double best_cost = std::numeric_limits<double>::infinity();
  for (unsigned c = 1; c <= kMaxAutoWindow; ++c) {
    std::size_t k = choose_chunks(m, nbits, c, threads);
    double cost = detail::split_cost(m, nbits, c, k, threads);
    if (cost < best_cost) best_cost = cost, best = c;
  }
  return best;
}

}  // namespace cuzk::msm
