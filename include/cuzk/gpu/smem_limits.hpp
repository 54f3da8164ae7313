// Shared memory per SM and per block, and how many blocks of a given size an SM holds (plain
// C++: host planning code and CPU tests use it; runtime.cu reads a device's figures).
//
// Cards differ most here: an SM of sm_90 (H100/H200) offers 228 KiB, sm_80 (A100) 164 KiB, and
// the consumer cards sm_86, sm_89 and sm_120 (RTX 30xx, 40xx, 50xx) 100 KiB. Kernels whose
// blocks hold 32-64 KiB of operands (the NTT's tiles, the MSM's level-0 accumulators) therefore
// run 3-5 blocks per SM on an H200 and 1-2 on a consumer card. The NTT sizes its tiles from
// these figures (NttPassShape::for_device); emulated_launch_bytes lets one card measure how
// another would run them (CUZK_EMULATE_SMEM_PER_SM_KIB, runtime.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace cuzk::gpu {

struct SmemLimits {
  std::size_t per_sm = 0;              // cudaDevAttrMaxSharedMemoryPerMultiprocessor
  std::size_t reserved_per_block = 0;  // cudaDevAttrReservedSharedMemoryPerBlock (1 KiB from sm_80)
  std::size_t max_per_block = 0;       // cudaDevAttrMaxSharedMemoryPerBlockOptin

  // An SM of per_sm_kib KiB as sm_80 and later lay it out: 1 KiB reserved per block, a block
  // at most the rest (100 -> 99 KiB per block, as on sm_86/89/120; 228 -> 227 as on sm_90).
  static SmemLimits of_kib(std::size_t per_sm_kib) {
    return {per_sm_kib << 10, std::size_t{1} << 10, (per_sm_kib - 1) << 10};
  }
};

// Blocks of `bytes` dynamic shared memory one SM holds, counting shared memory alone
// (registers and threads may allow fewer). 0 when a block does not fit at all.
inline std::size_t blocks_per_sm(std::size_t bytes, const SmemLimits& l) {
  if (bytes > l.max_per_block) return 0;
  return l.per_sm / (bytes + l.reserved_per_block);
}

// The dynamic shared memory to give each block that needs `bytes`, on a device with limits
// `real`, so that its SMs hold no more of these blocks than an SM with limits `emulated` would:
// `bytes` when the real SM holds no more anyway, else the smallest padded size that leaves the
// real SM k = blocks_per_sm(bytes, emulated) blocks (a hardware allocation unit rounding it up
// can only leave fewer). Throws std::invalid_argument when a block of `bytes` does not fit the
// emulated SM (a card of that kind could not launch it either).
inline std::size_t emulated_launch_bytes(std::size_t bytes, const SmemLimits& real, const SmemLimits& emulated) {
  const std::size_t k = blocks_per_sm(bytes, emulated);
  if (k == 0)
    throw std::invalid_argument("a block of " + std::to_string(bytes) + " bytes of shared memory does not fit an SM of " +
                                std::to_string(emulated.per_sm >> 10) + " KiB");
  if (blocks_per_sm(bytes, real) <= k) return bytes;
  // p + reserved > per_sm / (k + 1): at most k blocks; and <= per_sm / k (so exactly k) for
  // the block sizes of real kernels.
  const std::size_t p = real.per_sm / (k + 1) + 1 - real.reserved_per_block;
  return std::max(bytes, std::min(p, real.max_per_block));
}

}  // namespace cuzk::gpu
