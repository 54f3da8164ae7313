// GPU MSM host pipeline (private to src/gpu): detail::msm_window_sums<Fq, Deg>, included
// by msm_g1.cu and msm_g2.cu (one instantiation set each, so they compile in parallel).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <optional>
#include <stdexcept>
#include <string>

#include "check.cuh"
#include "cuzk/gpu/msm.hpp"
#include "msm_kernels.cuh"
#include "msm_smem.cuh"

namespace cuzk::gpu::detail {

using msmk::u32;

// Bump allocator over one device allocation (256-byte aligned pieces): the caller's
// workspace, or its own.
class Arena {
 public:
  Arena(std::size_t bytes, MsmWorkspace* ws) : size_(bytes) {
    if (ws == nullptr) ws = &own_;
    base_ = ws->reserve(bytes);
  }
  template <class T>
  T* take(std::size_t n) {
    const std::size_t b = (n * sizeof(T) + 255) & ~std::size_t{255};
    if (used_ + b > size_)
      throw std::logic_error("gpu msm: scratch layout exceeds its estimate (" + std::to_string(used_ + b) + " > " +
                             std::to_string(size_) + " bytes)");
    T* p = reinterpret_cast<T*>(base_ + used_);
    used_ += b;
    return p;
  }

 private:
  MsmWorkspace own_;
  std::byte* base_ = nullptr;
  std::size_t size_ = 0, used_ = 0;
};

// Optional phase timing (Tuning::msm_profile): synchronises between phases and prints the
// accumulated times of one MSM to stderr. Off: no synchronisation, no cost.
class PhaseClock {
 public:
  static constexpr int kPhases = 6;
  explicit PhaseClock(bool on) : on_(on), t_(std::chrono::steady_clock::now()) {}
  void lap(int phase) {
    if (!on_) return;
    stream_synchronize();
    const auto now = std::chrono::steady_clock::now();
    ms_[phase] += std::chrono::duration<double, std::milli>(now - t_).count();
    t_ = now;
  }
  void report(const MsmLayout& L, std::size_t m, std::size_t m1, const char* level0) const {
    if (!on_) return;
    std::fprintf(stderr,
                 "msm profile: m=%zu ones=%zu c=%u W=%u batch=%u level0=%s | setup+ones %.2f digits %.2f sort %.2f "
                 "bounds %.2f accumulate %.2f reduce %.2f ms\n",
                 m, m1, L.c, L.windows, L.batch, level0, ms_[0], ms_[1], ms_[2], ms_[3], ms_[4], ms_[5]);
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point t_;
  double ms_[kPhases] = {};
};

inline unsigned blocks_of(std::size_t n, unsigned t) { return static_cast<unsigned>((n + t - 1) / t); }

template <class F>
inline constexpr bool kExtensionCoord = false;
template <class D>
inline constexpr bool kExtensionCoord<DevFp2<D>> = true;
// The DevParams of a coordinate field's base field.
template <class F>
struct CoordParams {
  using C = typename F::Params;
};
template <class D>
struct CoordParams<DevFp2<D>> {
  using C = typename D::Params;
};

template <class F>
class MsmRun {
  using X = DevXyzz<F>;
  using A = DevAffine<F>;
  static constexpr unsigned kT = 128;

 public:
  MsmRun(const A* pts, const ScalarView& s, const MsmLayout& L, MsmWorkspace* ws, const Tuning& t)
      : chunk_(chunk_kernel(t)), pts_(pts), s_(s), L_(L), clock_(t.msm_profile) {
    const int end_bit = std::bit_width(L.nseg);
    std::size_t sort_b = 0, scan_b = 0, max_b = 0;
    cub::DoubleBuffer<u32> dk(nullptr, nullptr), dv(nullptr, nullptr);
    CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_b, dk, dv, static_cast<int>(L.entries), 0, end_bit));
    CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_b, static_cast<u32*>(nullptr),
                                                  static_cast<u32*>(nullptr), static_cast<int>(L.nseg + 1)));
    CUZK_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, max_b, static_cast<u32*>(nullptr), static_cast<u32*>(nullptr),
                                           static_cast<int>(L.nseg)));
    cub_bytes_ = std::max({sort_b, scan_b, max_b, std::size_t{256}});
    arena_.emplace(L.scratch_bytes(sizeof(X), cub_bytes_), ws);
    Arena& a = *arena_;
    for (auto** p : {&keys_[0], &keys_[1], &vals_[0], &vals_[1]}) *p = a.take<u32>(std::max<std::size_t>(L.entries, 1));
    start_ = a.take<u32>(L.nseg + 2);
    end_ = a.take<u32>(L.nseg + 2);
    pieces_ = a.take<u32>(L.nseg + 2);
    poff_[0] = a.take<u32>(L.nseg + 2);
    poff_[1] = a.take<u32>(L.nseg + 2);
    part_[0] = a.take<X>(L.cap_a);
    part_[1] = a.take<X>(L.cap_b);
    buckets_ = a.take<X>(std::size_t{L.windows} * L.buckets);
    groups_ = a.take<X>(std::size_t{L.windows} * L.groups);
    gsums_ = a.take<X>(std::size_t{L.windows} * L.groups);
    for (auto*& f : folds_) f = a.take<X>(std::size_t{L.windows} * MsmLayout::fold_entries(L.groups));
    wsums_ = a.take<X>(L.windows);
    cub_ = a.take<std::byte>(cub_bytes_);
    if (L.carry_masks != 0) masks_ = a.take<u32>(L.carry_masks);
  }

  // The sum of the points whose scalar is 1, into host memory (ec::Xyzz layout).
  void ones(void* host_out) {
    const u32 seg[2] = {0, static_cast<u32>(s_.num_ones)};
    copy_to_device(start_, &seg[0], 4);
    copy_to_device(end_, &seg[1], 4);
    reduce_segments(1, s_.ones, buckets_, nullptr, static_cast<u32>(s_.num_ones));
    copy_to_host(host_out, buckets_, sizeof(X));
    clock_.lap(0);
  }

  // The L.windows window sums, into host memory.
  void windows(void* host_out) {
    const u32 m = static_cast<u32>(s_.num_others), B = static_cast<u32>(L_.buckets);
    if (masks_ != nullptr) {
      msmk::carries_kernel<<<blocks_of(m, 256), 256>>>(s_.canonical, s_.n, s_.others, m, L_.c, L_.windows, masks_);
      CUZK_CUDA_LAUNCH_CHECK("carries_kernel");
    }
    for (unsigned w0 = 0; w0 < L_.windows; w0 += L_.batch) {
      const u32 wb = std::min(L_.batch, L_.windows - w0);
      const u32 nseg = wb * B, e = m * wb;
      if (masks_ != nullptr)
        msmk::masked_digits_kernel<<<blocks_of(m, 256), 256>>>(s_.canonical, s_.n, masks_, s_.others, m, L_.c, w0, wb,
                                                               B, keys_[0], vals_[0]);
      else
        msmk::digits_kernel<<<blocks_of(m, 256), 256>>>(s_.canonical, s_.n, s_.others, m, L_.c, w0, wb, B, keys_[0],
                                                        vals_[0]);
      CUZK_CUDA_LAUNCH_CHECK("digits_kernel");
      clock_.lap(1);
      cub::DoubleBuffer<u32> dk(keys_[0], keys_[1]), dv(vals_[0], vals_[1]);
      std::size_t tb = cub_bytes_;
      CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_, tb, dk, dv, static_cast<int>(e), 0, std::bit_width(nseg)));
      clock_.lap(2);
      device_memset_zero(start_, std::size_t{nseg} * 4);
      device_memset_zero(end_, std::size_t{nseg} * 4);
      msmk::bounds_kernel<<<blocks_of(e, 256), 256>>>(dk.Current(), e, nseg, start_, end_);
      CUZK_CUDA_LAUNCH_CHECK("bounds_kernel");
      clock_.lap(3);
      reduce_segments(nseg, dv.Current(), buckets_ + std::size_t{w0} * B, dk.Current(), e);
      clock_.lap(4);
    }
    const u32 W = L_.windows, G = static_cast<u32>(L_.groups);
    msmk::bucket_groups_kernel<F><<<blocks_of(std::size_t{W} * G, kT), kT>>>(buckets_, B, G, W, groups_, gsums_);
    CUZK_CUDA_LAUNCH_CHECK("bucket_groups_kernel");
    // Fold the G group sums of each window down to at most kWindowThreads (ping-pong with
    // the fold buffers), then one block per window.
    X *t = groups_, *s = gsums_, *tn = folds_[0], *sn = folds_[1];
    u32 g = G;
    while (g > MsmLayout::kWindowThreads) {
      const u32 M = static_cast<u32>(MsmLayout::fold_factor(g));
      msmk::group_fold_kernel<F><<<blocks_of(std::size_t{W} * (g / M), kT), kT>>>(
          t, s, g, M, static_cast<u32>(std::countr_zero(B / g)), W, tn, sn);
      CUZK_CUDA_LAUNCH_CHECK("group_fold_kernel");
      g /= M;
      std::swap(t, tn);
      std::swap(s, sn);
    }
    msmk::window_sum_kernel<F><<<W, g>>>(t, s, g, B / g, wsums_);
    CUZK_CUDA_LAUNCH_CHECK("window_sum_kernel");
    copy_to_host(host_out, wsums_, std::size_t{W} * sizeof(X));
    clock_.lap(5);
    clock_.report(L_, s_.num_others, s_.num_ones, chunk_.registers ? "registers" : "shared");
  }

 private:
  void launch_piece_sum(unsigned blocks, const u32* st, const u32* en, const u32* poff, u32 nseg, u32 total,
                        const X* in, X* out) const {
    msmk::piece_sum_kernel<F, kMinBlocks><<<blocks, kT>>>(st, en, poff, nseg, MsmLayout::kPiece, total, in, out);
  }
  // Level 0's kernel, its block size and dynamic shared memory, and how many of its threads the
  // device holds at once. The shared-memory kernel (msm_smem.cuh; G1: 7 Fq slots per thread, 5
  // blocks of 128 per SM on sm_90; G2: 14 Fq slots, 5 blocks of 64, BLS12-381), unless the device
  // holds more threads of the register kernel (chunk_sum_kernel, bounded by kMinBlocks): on a
  // consumer card's 100 KiB SM the shared-memory kernel gets 2 blocks (256 or 128 threads), the
  // register kernel 3 blocks of 128 (G1) or 2 (G2) as on any SM with 64K registers.
  // launch_smem_bytes pads the shared-memory blocks where another card's SM is emulated
  // (Tuning::emulate_smem_per_sm_kib); Tuning::msm_level0 may force one kernel.
  static constexpr unsigned kChunkT = kExtensionCoord<F> ? 64 : 128;
  struct ChunkKernel {
    void (*fn)(const u32*, const u32*, const A*, const u32*, const u32*, u32, u32, u32, X*) = nullptr;
    unsigned block = 0;
    std::size_t smem = 0;
    std::size_t resident = 0;
    bool registers = false;
  };
  static ChunkKernel chunk_kernel(const Tuning& t) {
    using C = typename CoordParams<F>::C;
    constexpr int kDeg = kExtensionCoord<F> ? 2 : 1, kMin = 5;
    ChunkKernel k;
    k.fn = msmk::chunk_sum_smem_kernel<C, kDeg, kChunkT, kMin>;
    k.block = kChunkT;
    k.smem = launch_smem_bytes(msmk::ChunkSumSmem<msmk::SmemCoord<C, kChunkT, kDeg>, kChunkT>::smem_bytes(),
                               t.emulate_smem_per_sm_kib);
    CUZK_CUDA_CHECK(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(k.smem)));
    CUZK_CUDA_CHECK(
        cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
    int dev = 0, sms = 0, per_sm = 0, per_sm_reg = 0;
    CUZK_CUDA_CHECK(cudaGetDevice(&dev));
    CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUZK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.fn, kChunkT, k.smem));
    const auto reg_fn = msmk::chunk_sum_kernel<F, kMinBlocks>;
    CUZK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_reg, reg_fn, kT, 0));
    std::size_t threads = std::size_t{kChunkT} * static_cast<std::size_t>(std::max(1, per_sm));
    // Tuning::msm_level0 may force one kernel (same-run comparisons).
    const bool want_reg = t.msm_level0 == MsmLevel0::kRegisters;
    const bool want_smem = t.msm_level0 == MsmLevel0::kShared;
    if (want_reg || (!want_smem && std::size_t{kT} * static_cast<std::size_t>(per_sm_reg) > threads)) {
      k.fn = reg_fn, k.block = kT, k.smem = 0, k.registers = true;
      threads = std::size_t{kT} * static_cast<std::size_t>(per_sm_reg);
    }
    k.resident = threads * static_cast<std::size_t>(std::max(1, sms));
    return k;
  }
  // Entries per level-0 thread for e entries: at least kPiece (the partial-sum buffers are
  // sized for that), and such that the threads fill whole waves of the device (4 or more, so
  // that a kernel sharing the device delays this one by a fraction of it). With kPiece = 32 at
  // 2^26 points (2^26 entries per window, 67584 resident threads of the G1 kernel) the last of
  // 32 waves held 16 of 528 blocks: ~3% of the accumulation ran on 3% of the device.
  u32 chunk_entries(u32 e) const {
    const std::size_t R = chunk_.resident;
    std::size_t best_s = MsmLayout::kPiece, best_cost = 0;
    for (std::size_t waves = 4; waves <= 256; ++waves) {
      const std::size_t S = std::max<std::size_t>(MsmLayout::kPiece, (e + waves * R - 1) / (waves * R));
      const std::size_t threads = (e + S - 1) / S;
      const std::size_t cost = (threads + R - 1) / R * S;  // wave-steps of one entry each
      if (best_cost == 0 || cost < best_cost) best_cost = cost, best_s = S;
      if (S == MsmLayout::kPiece) break;
    }
    return static_cast<u32>(best_s);
  }
  void launch_chunk_sum(const u32* keys, const u32* vals, const u32* st, const u32* poff, u32 nseg, u32 S, u32 e,
                        X* out) const {
    const std::size_t threads = (std::size_t{e} + S - 1) / S;
    chunk_.fn<<<blocks_of(threads, chunk_.block), chunk_.block, chunk_.smem>>>(keys, vals, pts_, st, poff, nseg, S, e,
                                                                               out);
  }
  ChunkKernel chunk_;
  // Register bound of the accumulation kernels (blocks of 128 per SM), measured on the H200
  // with the out-of-line product (2026-12-03, bench/RESULTS.md): G1 BLS12-381 2^26 506 ms with
  // 3 (<= 168 registers), 537 with 4 (128, the product spilling), 535 with 1; G2 2^20 42.8 ms
  // with 1 (255 registers), 45.2 with 3, 61.0 with 4.
  static constexpr int kMinBlocks = kExtensionCoord<F> ? 1 : 3;

  // Segments b < nseg given by start_/end_ over the e affine points listed in vals, with
  // their sorted keys (nullptr: one segment) -> dst[b] = their sum, level by level: level 0
  // runs the chunk kernel (chunk_kernel(): chunks of chunk_entries(e) >= kPiece entries across
  // segment boundaries), the next levels pieces of at most kPiece partial sums per thread.
  void reduce_segments(u32 nseg, const u32* vals, X* dst, const u32* keys, u32 e) {
    const u32* st = start_;
    const u32* en = end_;
    const X* in = nullptr;
    int pi = 0, xi = 0;
    const std::size_t caps[2] = {L_.cap_a, L_.cap_b};
    for (int level = 0;; ++level) {
      u32* poff = poff_[pi];
      const bool chunked = level == 0;
      const u32 S = chunked ? chunk_entries(e) : MsmLayout::kPiece;
      if (chunked) msmk::chunk_pieces_kernel<<<blocks_of(nseg + 1, 256), 256>>>(st, en, nseg, S, pieces_);
      else msmk::pieces_kernel<<<blocks_of(nseg + 1, 256), 256>>>(st, en, nseg, MsmLayout::kPiece, pieces_);
      CUZK_CUDA_LAUNCH_CHECK("pieces_kernel");
      std::size_t tb = cub_bytes_;
      CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_, tb, pieces_, poff, static_cast<int>(nseg + 1)));
      tb = cub_bytes_;
      CUZK_CUDA_CHECK(cub::DeviceReduce::Max(cub_, tb, pieces_, pieces_ + nseg + 1, static_cast<int>(nseg)));
      u32 total = 0, most = 0;
      copy_to_host(&total, poff + nseg, 4);
      copy_to_host(&most, pieces_ + nseg + 1, 4);
      if (total > caps[xi])
        throw std::logic_error("gpu msm: " + std::to_string(total) + " partial sums exceed the buffer of " +
                               std::to_string(caps[xi]));
      X* out = part_[xi];
      if (total != 0 && chunked) {
        launch_chunk_sum(keys, vals, st, poff, nseg, S, e, out);
        CUZK_CUDA_LAUNCH_CHECK("chunk_sum_kernel");
      } else if (total != 0) {
        launch_piece_sum(blocks_of(total, kT), st, en, poff, nseg, total, in, out);
        CUZK_CUDA_LAUNCH_CHECK("piece_sum_kernel");
      }
      if (most <= 1) {
        msmk::gather_kernel<F><<<blocks_of(nseg, 256), 256>>>(pieces_, poff, nseg, out, dst);
        CUZK_CUDA_LAUNCH_CHECK("gather_kernel");
        return;
      }
      st = poff;
      en = poff + 1;
      in = out;
      pi ^= 1;
      xi ^= 1;
    }
  }

  const A* pts_;
  ScalarView s_;
  MsmLayout L_;
  std::size_t cub_bytes_ = 0;
  std::optional<Arena> arena_;
  u32 *keys_[2]{}, *vals_[2]{}, *start_ = nullptr, *end_ = nullptr, *pieces_ = nullptr, *poff_[2]{};
  X *part_[2]{}, *buckets_ = nullptr, *groups_ = nullptr, *gsums_ = nullptr, *wsums_ = nullptr, *folds_[2]{};
  std::byte* cub_ = nullptr;
  u32* masks_ = nullptr;
  PhaseClock clock_;
};

template <class Fq, int Deg>
void msm_window_sums(const void* points, std::size_t n, const ScalarView& s, const MsmLayout& L, void* window_sums,
                     void* ones_sum, MsmWorkspace* workspace, const Tuning& tuning) {
  using F = DevCoord<Fq, Deg, /*kOutline=*/true>;
  if (n == 0) return;
  MsmRun<F> run(static_cast<const DevAffine<F>*>(points), s, L, workspace, tuning);
  if (s.num_ones != 0) run.ones(ones_sum);
  if (s.num_others != 0) run.windows(window_sums);
}

}  // namespace cuzk::gpu::detail
