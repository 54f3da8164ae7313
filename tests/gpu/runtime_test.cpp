// Device memory (cuzk/gpu/runtime.hpp): stream-ordered buffers (DeviceAlloc::kStreamOrdered)
// hold what is written to them, move between plain and ordered owners, serve another thread
// after the allocating thread's stream is synchronised, and an allocation (plain, or a
// stream-ordered one larger than the cached pieces) that needs the memory the pool keeps
// cached gets it (the pool's cache is returned to the driver first). Every visible device runs
// this build's kernels (device_supported). An emulated SM (Tuning::emulate_smem_per_sm_kib) is
// reported as such and pads launches to its blocks per SM; figures out of range are refused. The
// memory settings (configure_device_memory) are fixed once device memory is in use.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/gpu/runtime.hpp"
#include "device_words.hpp"
#include "require_device.hpp"

namespace {
using namespace cuzk;
using u64 = std::uint64_t;
using gpu::DeviceAlloc;
using test::download;
using test::random_words;

TEST(DeviceMemory, StreamOrderedBufferRoundTripsAndMoves) {
  gpu::set_device(0);
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, (std::size_t{5} << 20) + 3}) {
    const auto want = random_words(n, n);
    gpu::DeviceBuffer<u64> d{std::span<const u64>(want), DeviceAlloc::kStreamOrdered};
    EXPECT_EQ(download(d), want) << n;
    // Freed and reallocated in stream order: the new contents, not the old ones.
    const auto next = random_words(n, n + 1);
    d = gpu::DeviceBuffer<u64>(std::span<const u64>(next), DeviceAlloc::kStreamOrdered);
    EXPECT_EQ(download(d), next) << n;
    // An ordered buffer moved over a plain one frees the plain memory and keeps its own.
    gpu::DeviceBuffer<u64> plain{std::span<const u64>(want)};
    plain = std::move(d);
    EXPECT_EQ(download(plain), next) << n;
    EXPECT_EQ(d.size(), 0u);
  }
  EXPECT_EQ(gpu::DeviceBuffer<u64>(0, DeviceAlloc::kStreamOrdered).data(), nullptr);
}

TEST(DeviceMemory, StreamOrderedBufferServesAnotherThread) {
  gpu::set_device(0);
  const std::size_t n = std::size_t{3} << 20;
  const auto want = random_words(n, 7);
  gpu::DeviceBuffer<u64> d(n, DeviceAlloc::kStreamOrdered);
  d.upload(want);
  gpu::stream_synchronize();  // the rule: other streams after the allocating stream's sync
  std::vector<u64> seen;
  std::thread reader([&] {
    gpu::set_device(0);
    seen = download(d);
  });
  reader.join();
  EXPECT_EQ(seen, want);
}

TEST(DeviceMemory, PlainAllocationTakesWhatThePoolKeeps) {
  gpu::set_device(0);
  std::size_t free0 = 0, total = 0;
  gpu::device_memory(&free0, &total);
  // Two allocations of 60% of the free memory cannot be live together; the pool keeps the
  // first one's memory after its free, so the second (plain) needs that cache back.
  const std::size_t bytes = free0 / 10 * 6;
  ASSERT_GT(bytes, std::size_t{1} << 28) << "too little free device memory for this test";
  {
    gpu::DeviceBuffer<unsigned char> big(bytes, DeviceAlloc::kStreamOrdered);
    gpu::device_memset_zero(big.data(), bytes);  // touched, not only reserved
  }
  gpu::stream_synchronize();
  std::size_t free1 = 0;
  gpu::device_memory(&free1, nullptr);
  EXPECT_LT(free1 + bytes / 2, free0) << "the pool returned its memory at once (no cache: a cost per proof)";
  gpu::DeviceBuffer<unsigned char> plain;
  EXPECT_NO_THROW(plain = gpu::DeviceBuffer<unsigned char>(bytes));
  EXPECT_EQ(plain.size(), bytes);
  plain = gpu::DeviceBuffer<unsigned char>();
  // And the cache can be returned on request.
  { gpu::DeviceBuffer<unsigned char> again(bytes / 2, DeviceAlloc::kStreamOrdered); }
  gpu::release_cached_device_memory();
  std::size_t free2 = 0;
  gpu::device_memory(&free2, nullptr);
  EXPECT_GT(free2 + (std::size_t{256} << 20), free0) << "release_cached_device_memory left the cache";
}

TEST(DeviceMemory, LargeStreamOrderedAllocationAfterSmallerOnesGetsTheirCache) {
  gpu::set_device(0);
  std::size_t free0 = 0, total = 0;
  gpu::device_memory(&free0, &total);
  // A daemon's proofs of one size leave the pool's cache in pieces of their size; a larger
  // proof then needs more than the device has left beside that cache, in one piece. (On the
  // H200 this passed with the allocation's retry after a device synchronisation alone, without
  // trimming the pool first: the driver serves it from the cache.)
  const std::size_t piece = free0 / 16;
  ASSERT_GT(piece, std::size_t{1} << 26) << "too little free device memory for this test";
  {
    std::vector<gpu::DeviceBuffer<unsigned char>> pieces;
    for (int i = 0; i < 12; ++i) pieces.emplace_back(piece, DeviceAlloc::kStreamOrdered);
  }
  gpu::stream_synchronize();
  const std::size_t big = free0 / 2;
  gpu::DeviceBuffer<unsigned char> large;
  ASSERT_NO_THROW(large = gpu::DeviceBuffer<unsigned char>(big, DeviceAlloc::kStreamOrdered));
  gpu::device_memset_zero(large.data(), big);  // usable, not only reserved
  gpu::stream_synchronize();
  large = gpu::DeviceBuffer<unsigned char>();
  gpu::release_cached_device_memory();
}

// The build has code every visible device can run (the CMake architecture list, or PTX the
// driver compiles); a device index past the last is refused with a message, and the probe
// leaves the thread's current device as it was.
TEST(Devices, EveryVisibleDeviceRunsThisBuildsKernels) {
  const int before = gpu::current_device();
  std::string why;
  for (int d = 0; d < gpu::device_count(); ++d) EXPECT_TRUE(gpu::device_supported(d, &why)) << why;
  EXPECT_EQ(gpu::current_device(), before);
  EXPECT_FALSE(gpu::device_supported(gpu::device_count(), &why));
  EXPECT_NE(why.find("device " + std::to_string(gpu::device_count())), std::string::npos) << why;
  EXPECT_EQ(gpu::current_device(), before);
}

// The device's own figures (sm_80 and later: at least 100 KiB per SM, 1 KiB reserved per block),
// then a consumer card's 100 KiB SM emulated: reported as such, and a 64 KiB block (the NTT's
// 2^11 tile) padded so that the device holds one per SM, as that card would.
TEST(SharedMemory, EmulatedSmIsReportedAndPadsLaunches) {
  const gpu::SmemLimits real = gpu::device_smem_limits();
  EXPECT_GE(real.per_sm, std::size_t{100} << 10);
  EXPECT_GE(real.max_per_block, std::size_t{99} << 10);
  EXPECT_EQ(gpu::launch_smem_bytes(std::size_t{64} << 10), std::size_t{64} << 10);
  const gpu::SmemLimits emu = gpu::device_smem_limits(100);
  EXPECT_EQ(emu.per_sm, std::size_t{100} << 10);
  EXPECT_EQ(emu.max_per_block, std::size_t{99} << 10);
  const std::size_t padded = gpu::launch_smem_bytes(std::size_t{64} << 10, 100);
  EXPECT_GE(padded, std::size_t{64} << 10);
  EXPECT_EQ(gpu::blocks_per_sm(padded, real), 1u) << padded;
  EXPECT_THROW(gpu::launch_smem_bytes(std::size_t{100} << 10, 100), std::invalid_argument);
  const std::size_t own_kib = real.per_sm >> 10;
  EXPECT_EQ(gpu::device_smem_limits(own_kib).per_sm, real.per_sm);
  for (const std::size_t bad : {std::size_t{8}, std::size_t{15}, own_kib + 1, std::size_t{1000000}}) {
    EXPECT_THROW(gpu::device_smem_limits(bad), std::invalid_argument) << bad;
    EXPECT_THROW(gpu::launch_smem_bytes(1024, bad), std::invalid_argument) << bad;
  }
}

// The stream-ordered memory's settings are the process's: once device memory is in use, the
// settings in force (require_device.hpp's, from the environment) may be given again, others not.
TEST(DeviceMemory, SettingsAreFixedOnceMemoryIsInUse) {
  gpu::set_device(0);
  { const gpu::DeviceBuffer<u64> b(16, DeviceAlloc::kStreamOrdered); }
  gpu::stream_synchronize();
  const gpu::Tuning in_force = gpu::tuning_from_environment();
  EXPECT_NO_THROW(gpu::configure_device_memory(in_force));
  gpu::Tuning more_guard = in_force;
  more_guard.guard_bytes += 64;
  EXPECT_THROW(gpu::configure_device_memory(more_guard), std::logic_error);
  gpu::Tuning other_pool = in_force;
  other_pool.pool_driver_defaults = !in_force.pool_driver_defaults;
  EXPECT_THROW(gpu::configure_device_memory(other_pool), std::logic_error);
  gpu::Tuning other_knobs = in_force;  // the rest of the tuning is not the memory's
  other_knobs.msm_profile = !in_force.msm_profile;
  EXPECT_NO_THROW(gpu::configure_device_memory(other_knobs));
}

}  // namespace
