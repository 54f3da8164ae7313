// The shape of the device NTT's shared-memory passes (plain C++: the tuning, the planning code
// and CPU tests use it; ntt.cu defines the size tables).
#pragma once

#include <cstddef>

#include "cuzk/gpu/smem_limits.hpp"

namespace cuzk::gpu {

struct Tuning;  // tuning.hpp

// Shape of the shared-memory passes of the device NTT: the final pass runs `last` levels
// on contiguous tiles; the earlier ones run up to `inner` levels each on tiles of
// 2^inner rows x 2^log_cols adjacent columns (wider rows: longer contiguous reads).
// Each tile must fit in shared memory: 2^(levels + cols) elements <= 2^kMaxTileLog.
struct NttPassShape {
  // 2^12 elements of 32 bytes: 128 KiB of shared memory per tile.
  static constexpr int kMaxTileLog = 12;
  // Measured on the H200 (bench/RESULTS.md, radix 2 before the values below 2p), forward
  // 2^27: 49.3 ms; 10,9,1 took 51.1 ms, 11,8,2 and 10,8,2 49.6-49.7 ms, 12,8,3 (128 KiB tiles)
  // 61.0 ms. With radix 4: 11,8,3 42.6 ms, 11,9,2 43.4 ms.
  int last = 11, inner = 8, log_cols = 3;
  // Levels per shared-memory round: one (radix 2) or two while two remain (radix 4).
  // Radix 4 (H200, forward 2^27, 11,8,3): 42.6 ms against 44.8 ms for radix 2.
  int radix = 4;
  // The shape measured fastest for 2^log_n points on the H200 (the table in ntt.cu): what
  // NttPlan uses unless told otherwise. The fields above are its choice at 2^22 and from 2^25 on.
  static NttPassShape for_size(std::size_t log_n);
  // The shape for 2^log_n points on an SM of `smem`, with tiles small enough that the SM holds
  // 3 of them (the pass kernel's radix-4 register bound allows 3 blocks of 256 per SM, and the
  // H200's shapes were measured at 3): for_size(log_n) where 2^11-element tiles (64 KiB) fit 3
  // times (the H200's 228 KiB per SM); a table of 2^10-element tiles (32 KiB) measured with a
  // consumer card's SM emulated where only those do (sm_80's 164 KiB, the consumer cards'
  // 100 KiB, where a 2^11 tile would leave one block, 8 warps, per SM: 2^27 66.8 against
  // 47.7 ms, H100 emulating 100 KiB); for_size with its tiles cut on smaller SMs still.
  static NttPassShape for_device(std::size_t log_n, const SmemLimits& smem);
  // The tuning's shape (Tuning::ntt_passes: one shape for every size, for benchmarking shapes
  // without rebuilding) when it has one, else for_device(log_n) of the current device's SM (or
  // of the SM the tuning emulates, Tuning::emulate_smem_per_sm_kib: device_smem_limits).
  static NttPassShape for_tuning(std::size_t log_n, const Tuning& tuning);
  // The ranges above: 1 <= last <= 12, inner >= 1, 0 <= log_cols <= last, inner + log_cols <= 12,
  // radix 2 or 4.
  bool valid() const {
    return last >= 1 && inner >= 1 && log_cols >= 0 && log_cols <= last && last <= kMaxTileLog &&
           inner + log_cols <= kMaxTileLog && (radix == 2 || radix == 4);
  }
  friend bool operator==(const NttPassShape&, const NttPassShape&) = default;
};

}  // namespace cuzk::gpu
