// Shared memory per SM (smem_limits.hpp) and the NTT tiles chosen from it, checked without a
// device (host arithmetic; runs in CI wherever the CUDA backend is built): blocks per SM on the
// H200, an A100 and a consumer card; the padding that makes one card hold as few blocks per SM
// as another; the NTT's shapes, unchanged on the H200 and with tiles of at most 2^10 elements
// (3 blocks per SM) on the smaller SMs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>

#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/smem_limits.hpp"

namespace {
using namespace cuzk;
using gpu::SmemLimits;

const SmemLimits kH200 = SmemLimits::of_kib(228), kA100 = SmemLimits::of_kib(164), kConsumer = SmemLimits::of_kib(100);
constexpr std::size_t kKiB = 1024;

TEST(SmemLimits, BlocksPerSm) {
  EXPECT_EQ(kConsumer.max_per_block, 99 * kKiB);
  EXPECT_EQ(kH200.max_per_block, 227 * kKiB);
  // The NTT's 2^11 tile (64 KiB), its 2^10 tile, the MSM's G1 level-0 block (7 x 48 x 128 bytes).
  EXPECT_EQ(gpu::blocks_per_sm(64 * kKiB, kH200), 3u);
  EXPECT_EQ(gpu::blocks_per_sm(64 * kKiB, kA100), 2u);
  EXPECT_EQ(gpu::blocks_per_sm(64 * kKiB, kConsumer), 1u);
  EXPECT_EQ(gpu::blocks_per_sm(32 * kKiB, kConsumer), 3u);
  EXPECT_EQ(gpu::blocks_per_sm(43008, kH200), 5u);
  EXPECT_EQ(gpu::blocks_per_sm(43008, kConsumer), 2u);
  EXPECT_EQ(gpu::blocks_per_sm(128 * kKiB, kConsumer), 0u);  // over the per-block limit
  EXPECT_EQ(gpu::blocks_per_sm(99 * kKiB, kConsumer), 1u);
  EXPECT_EQ(gpu::blocks_per_sm(0, kConsumer), 100u);  // the reserved 1 KiB alone
}

// The padded block holds, on the real SM, exactly as many blocks as the emulated SM would (or
// as the real one holds unpadded, where that is fewer), never less memory than asked for.
TEST(SmemLimits, EmulatedLaunchBytesHoldTheEmulatedBlocks) {
  for (const SmemLimits& emu : {kConsumer, kA100, kH200})
    for (std::size_t bytes = 1000; bytes <= emu.max_per_block; bytes += 1000) {
      const std::size_t p = gpu::emulated_launch_bytes(bytes, kH200, emu);
      EXPECT_GE(p, bytes);
      EXPECT_LE(p, kH200.max_per_block);
      EXPECT_EQ(gpu::blocks_per_sm(p, kH200), std::min(gpu::blocks_per_sm(bytes, emu), gpu::blocks_per_sm(bytes, kH200)))
          << bytes << " bytes, emulating " << (emu.per_sm >> 10) << " KiB";
      if (&emu == &kH200) {
        EXPECT_EQ(p, bytes);  // nothing to emulate
      }
    }
  EXPECT_EQ(gpu::blocks_per_sm(gpu::emulated_launch_bytes(64 * kKiB, kH200, kConsumer), kH200), 1u);
  EXPECT_EQ(gpu::blocks_per_sm(gpu::emulated_launch_bytes(43008, kH200, kConsumer), kH200), 2u);
  EXPECT_THROW(gpu::emulated_launch_bytes(100 * kKiB, kH200, kConsumer), std::invalid_argument);
}

int tile_log(const gpu::NttPassShape& s) { return std::max(s.last, s.inner + s.log_cols); }

TEST(NttShapeForDevice, H200KeepsItsMeasuredShapes) {
  for (std::size_t k = 0; k <= 31; ++k) {
    const auto want = gpu::NttPassShape::for_size(k), got = gpu::NttPassShape::for_device(k, kH200);
    EXPECT_EQ(got.last, want.last) << "2^" << k;
    EXPECT_EQ(got.inner, want.inner) << "2^" << k;
    EXPECT_EQ(got.log_cols, want.log_cols) << "2^" << k;
    EXPECT_EQ(got.radix, want.radix) << "2^" << k;
  }
}

// On smaller SMs: valid shapes whose tiles leave 3 blocks per SM. On sm_80 and the consumer
// cards, at most one pass more than the H200 needs and the shapes the emulated-SM run measured
// fastest; an SM too small even for those gets the H200's shapes with their tiles cut.
TEST(NttShapeForDevice, SmallerSmsGetTilesOfThreeBlocks) {
  auto passes = [](std::size_t k, const gpu::NttPassShape& s) {
    const int rest = static_cast<int>(k) - std::min(static_cast<int>(k), s.last);
    return 1 + (rest + s.inner - 1) / s.inner;
  };
  for (const SmemLimits& l : {kA100, kConsumer, SmemLimits::of_kib(48)})
    for (std::size_t k = 0; k <= 31; ++k) {
      const auto h = gpu::NttPassShape::for_size(k), s = gpu::NttPassShape::for_device(k, l);
      ASSERT_TRUE(s.valid()) << "2^" << k;
      EXPECT_GE(gpu::blocks_per_sm((std::size_t{32} << tile_log(s)), l), 3u) << "2^" << k;
      EXPECT_EQ(s.radix, h.radix);
      if (l.per_sm >= kConsumer.per_sm) {
        EXPECT_LE(passes(k, s), passes(k, h) + 1) << "2^" << k;
      }
    }
  const auto s27 = gpu::NttPassShape::for_device(27, kConsumer), s20 = gpu::NttPassShape::for_device(20, kA100);
  EXPECT_EQ(s27.last, 10);
  EXPECT_EQ(s27.inner, 6);
  EXPECT_EQ(s27.log_cols, 4);
  EXPECT_EQ(s20.last + s20.inner, 20);  // two passes: single columns
  EXPECT_EQ(s20.log_cols, 0);
  const auto s24 = gpu::NttPassShape::for_device(24, SmemLimits::of_kib(48));  // 3 tiles of 2^8 (8 KiB)
  EXPECT_EQ(tile_log(s24), 8);
}

}  // namespace
