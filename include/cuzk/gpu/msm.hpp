// Multi-scalar multiplication on the GPU, G1 and G2 of BLS12-381 and BN254; plain C++
// (no nvcc needed to include it).
//
//   DeviceScalars<Fr>    scalars uploaded once (Montgomery form in, canonical on the
//                        device), classified once into "ones" and "others" (zeros are
//                        dropped): several MSMs share them (A, B1, B2 of one witness).
//   msm<C>(points, n, scalars[, MsmOptions])   sum_i k_i P_i over n device-resident affine
//                        points; MsmOptions::workspace (an MsmWorkspace) lets successive
//                        MSMs reuse one scratch allocation.
//
// Pipeline (src/gpu/msm_impl.cuh): signed-digit windows of c bits over the scalars that
// are neither 0 nor 1 (from word planes, with the carries between windows found once when
// the windows come in several batches); per batch of windows a CUB radix sort of (bucket,
// point) pairs; bucket accumulation first in equal chunks of the sorted pairs (sized to fill
// whole waves of the device, the product's operands in shared memory: src/gpu/msm_smem.cuh),
// then in pieces of at most kPiece partial sums (load-balanced whatever the digit
// distribution), level by level; bucket reduction by groups (running sums), folded by up to
// 8 per step while more than kWindowThreads are left, then
// a tree per window; the windows are combined on the host (Horner). The kernels call one
// out-of-line Fq product (DevFp<C, true>): inlined, their code outgrew the instruction cache.
// Scalars equal to 1 are summed by the same accumulation as one bucket.
// Results are exact group elements (compare affine forms with the CPU msm).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

#include "cuzk/ec/point.hpp"
#include "cuzk/gpu/coord_info.hpp"
#include "cuzk/gpu/msm_carries.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/gpu/tuning.hpp"

namespace cuzk::gpu {

// What the device pipeline reads of a DeviceScalars (all device pointers).
struct ScalarView {
  // kScalarWords word planes of n u32: word k (little-endian) of scalar i (< r) at [k n + i],
  // so a pass over one window reads the one or two planes holding its bits.
  const std::uint32_t* canonical = nullptr;
  const std::uint32_t* ones = nullptr;       // indices of the scalars equal to 1
  const std::uint32_t* others = nullptr;     // indices of the scalars > 1
  std::size_t n = 0, num_ones = 0, num_others = 0;
  unsigned nbits = 0;  // bit length of r
};
inline constexpr int kScalarWords = 8;  // both scalar fields are 4 x 64 bits

// Its memory is stream-ordered (runtime.hpp, DeviceAlloc): from_host/from_device return
// with their stream synchronised, so any thread may then read it; destroy it after every MSM
// that reads it has returned (msm() returns when its work is done).
template <class Fr>
class DeviceScalars {
 public:
  DeviceScalars() = default;
  // From host scalars (Montgomery form, as Fr stores them): one upload.
  static DeviceScalars from_host(std::span<const Fr> s);
  // From n device-resident Fr (Montgomery form), e.g. the H evaluations or a witness
  // suffix already on the device; d is only read.
  static DeviceScalars from_device(const Fr* d, std::size_t n);
  // VRAM held by a DeviceScalars of n scalars, and the extra VRAM its construction
  // needs for a moment (flags, prefix sums, CUB temp).
  static std::size_t resident_bytes(std::size_t n) { return n * (kScalarWords * 4 + 8); }
  static std::size_t build_scratch_bytes(std::size_t n) { return 4 * (n + 1) * 4 + (std::size_t{8} << 20); }

  std::size_t size() const { return view_.n; }
  std::size_t num_ones() const { return view_.num_ones; }
  std::size_t num_others() const { return view_.num_others; }
  const ScalarView& view() const { return view_; }

 private:
  DeviceBuffer<std::uint32_t> canonical_, ones_, others_;
  ScalarView view_;
};

// Window size and work layout of one GPU MSM over m scalars > 1 (and m1 scalars == 1).
struct MsmLayout {
  static constexpr unsigned kPiece = 32;  // entries per level-0 chunk (at least), partial sums per later task
  // Up to 22 bits: from ~2^27 points on the cost model prefers 12 windows of 22 bits to 13 of
  // 20 (4x the buckets to reduce, one window fewer to accumulate).
  static constexpr unsigned kMaxWindow = 22;
  static constexpr std::size_t kMaxEntries = std::size_t{1} << 25;  // sort entries per batch
  static constexpr unsigned kWindowThreads = 256;  // group sums left per window for its last block
  // The window reduction folds its group sums by fold_factor(g) while g > kWindowThreads
  // (MsmRun::windows); fold_entries is the size of the first fold (0 when there is none), the
  // largest the fold buffers hold.
  static constexpr std::size_t fold_factor(std::size_t g) { return std::min<std::size_t>(8, g / kWindowThreads); }
  static constexpr std::size_t fold_entries(std::size_t groups) {
    return groups > kWindowThreads ? groups / fold_factor(groups) : 0;
  }
  unsigned c = 1, windows = 1, batch = 1;  // window bits, windows, windows per sort batch
  std::size_t buckets = 1;                 // per window: 2^(c-1)
  std::size_t groups = 1;                  // reduction groups per window
  std::size_t entries = 0;                 // sort entries per batch (m * batch)
  std::size_t nseg = 1;                    // segments (buckets) per batch
  std::size_t cap_a = 0, cap_b = 0;        // partial-sum buffers (points)
  // With more than one batch (and at most kMaxCarryWindows windows), the carries between the
  // windows of each scalar are found once (one u32 mask per scalar, msm_carries.hpp), so each
  // batch reads only the words of its windows instead of every scalar whole.
  std::size_t carry_masks = 0;  // m, or 0

  // Bytes of the scratch, with `point_bytes` = sizeof(XYZZ point); cub_bytes is the CUB
  // temp storage (msm_cub_bound gives an upper bound).
  std::size_t scratch_bytes(std::size_t point_bytes, std::size_t cub_bytes) const {
    const std::size_t u = 4;
    std::size_t b = 4 * std::max<std::size_t>(entries, 1) * u;             // keys and values, double-buffered
    b += carry_masks * u;  // carry masks
    b += 5 * (nseg + 2) * u;                     // segment bounds, pieces, offsets x2
    b += (cap_a + cap_b) * point_bytes;          // partial sums
    b += (windows * buckets + 2 * windows * (groups + fold_entries(groups)) + windows) * point_bytes;
    return b + cub_bytes + 64 * 256;             // + alignment slack
  }
};

inline unsigned msm_num_windows(unsigned nbits, unsigned c) { return nbits / c + 1; }

// forced_c: window bits (0: chosen here); batch_entries: sort entries per batch (0: kMaxEntries;
// smaller values only test the multi-batch path on small inputs).
inline MsmLayout plan_msm_layout(std::size_t m, std::size_t m1, unsigned nbits, unsigned forced_c = 0,
                                 std::size_t batch_entries = 0) {
  MsmLayout L;
  if (forced_c != 0) {
    if (forced_c > MsmLayout::kMaxWindow)
      throw std::invalid_argument("gpu msm: window size " + std::to_string(forced_c) + " above " +
                                  std::to_string(MsmLayout::kMaxWindow));
    L.c = forced_c;
  } else {
    double best = 0;
    for (unsigned c = 1; c <= MsmLayout::kMaxWindow; ++c) {
      const double w = msm_num_windows(nbits, c);
      const double cost = w * (double(m) + 4.0 * double(std::size_t{1} << (c - 1)));
      if (c == 1 || cost < best) best = cost, L.c = c;
    }
  }
  L.windows = msm_num_windows(nbits, L.c);
  L.buckets = std::size_t{1} << (L.c - 1);
  const std::size_t mm = std::max<std::size_t>(m, 1);
  const std::size_t max_entries = batch_entries != 0 ? batch_entries : MsmLayout::kMaxEntries;
  L.batch = static_cast<unsigned>(std::clamp<std::size_t>(max_entries / mm, 1, L.windows));
  L.entries = m * L.batch;
  L.nseg = L.batch * L.buckets;
  if (L.batch < L.windows && L.windows <= kMaxCarryWindows) L.carry_masks = m;
  const std::size_t want = std::max<std::size_t>(1, (std::size_t{1} << 17) / L.windows);
  L.groups = std::min<std::size_t>(std::bit_floor(want), L.buckets);
  const std::size_t top = std::max(L.entries, m1);
  L.cap_a = top / MsmLayout::kPiece + L.nseg + 2;
  L.cap_b = L.cap_a / MsmLayout::kPiece + L.nseg + 2;
  return L;
}

// Upper bound of the CUB temp storage of one MSM (radix sort of `entries` pairs, scans
// and reductions over the segments).
inline std::size_t msm_cub_bound(const MsmLayout& L) { return (std::size_t{32} << 20) + L.entries / 2; }

// VRAM needed by one msm<C> call over n points (scalars and points not included).
template <class C>
std::size_t msm_scratch_bytes(std::size_t n) {
  using B = typename C::Base;
  const MsmLayout L = plan_msm_layout(n, n, 255);
  return L.scratch_bytes(4 * sizeof(B), msm_cub_bound(L));
}

// Device scratch reused by successive MSMs of one caller (one at a time): it grows to the
// largest need and keeps it, so a proof's MSMs, or a benchmark's repetitions, allocate once.
// Without one every msm call allocates and frees its scratch. The memory is stream-ordered
// (runtime.hpp): the caller's thread allocates, uses and frees it.
class MsmWorkspace {
 public:
  // At least `bytes` of device memory, valid until the next reserve or the workspace's end.
  std::byte* reserve(std::size_t bytes) {
    if (bytes > buf_.size()) {
      buf_ = DeviceBuffer<std::byte>();  // free first: old and new need not fit together
      buf_ = DeviceBuffer<std::byte>(bytes, DeviceAlloc::kStreamOrdered);
    }
    return buf_.data();
  }
  std::size_t capacity() const { return buf_.size(); }

 private:
  DeviceBuffer<std::byte> buf_;
};

// window_bits: 0 chooses; batch_entries: sort entries per batch (0: MsmLayout::kMaxEntries;
// small values only test the multi-batch path); workspace: scratch to reuse (none: own);
// tuning: its msm_level0, msm_profile and emulated SM (emulate_smem_per_sm_kib) steer the run.
struct MsmOptions {
  unsigned window_bits = 0;
  std::size_t batch_entries = 0;
  MsmWorkspace* workspace = nullptr;
  Tuning tuning = {};
};

namespace detail {
// Runs the device pipeline over n affine points (device, ec::Affine layout) and writes
// the window sums (L.windows XYZZ points, host memory, ec::Xyzz layout) and the sum of
// the points of the one-scalars (one XYZZ) to the host. Instantiated for the four
// (Fq, degree) pairs of G1/G2 of BLS12-381 and BN254.
template <class Fq, int Deg>
void msm_window_sums(const void* points, std::size_t n, const ScalarView& s, const MsmLayout& L, void* window_sums,
                     void* ones_sum, MsmWorkspace* workspace, const Tuning& tuning);
}  // namespace detail

template <class C>
ec::Jacobian<C> msm(const ec::Affine<C>* d_points, std::size_t n, const DeviceScalars<typename C::Scalar>& s,
                    const MsmOptions& o) {
  if (s.size() != n)
    throw std::invalid_argument("gpu msm: " + std::to_string(n) + " points but " + std::to_string(s.size()) +
                                " scalars");
  using Info = CoordInfo<typename C::Base>;
  const MsmLayout L = plan_msm_layout(s.num_others(), s.num_ones(), s.view().nbits, o.window_bits, o.batch_entries);
  std::vector<ec::Xyzz<C>> sums(L.windows, ec::Xyzz<C>::infinity());
  ec::Xyzz<C> ones = ec::Xyzz<C>::infinity();
  if (n != 0)
    detail::msm_window_sums<typename Info::Fq, Info::kDeg>(d_points, n, s.view(), L, sums.data(), &ones, o.workspace,
                                                           o.tuning);
  ec::Jacobian<C> acc = ec::Jacobian<C>::infinity();
  for (unsigned w = L.windows; w-- > 0;) {
    for (unsigned k = 0; k < L.c; ++k) acc = acc.dbl();
    acc += sums[w].to_jacobian();
  }
  return acc + ones.to_jacobian();
}
template <class C>
ec::Jacobian<C> msm(const ec::Affine<C>* d_points, std::size_t n, const DeviceScalars<typename C::Scalar>& s,
                    unsigned window_bits = 0) {
  return msm<C>(d_points, n, s, MsmOptions{window_bits});
}
template <class C>
ec::Jacobian<C> msm(const DeviceBuffer<ec::Affine<C>>& points, const DeviceScalars<typename C::Scalar>& s,
                    const MsmOptions& o) {
  return msm<C>(points.data(), points.size(), s, o);
}
template <class C>
ec::Jacobian<C> msm(const DeviceBuffer<ec::Affine<C>>& points, const DeviceScalars<typename C::Scalar>& s,
                    unsigned window_bits = 0) {
  return msm<C>(points.data(), points.size(), s, MsmOptions{window_bits});
}

}  // namespace cuzk::gpu
