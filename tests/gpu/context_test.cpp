// A device's context (cuzk/gpu/context.hpp) and its proofs' memory pools (memory_pool.hpp):
// a lane's allocations are its own (another lane's trim leaves them and their cache alone), a
// lane keeps its cache for a lease of the same kind and gives it back for another kind, an
// allocation that finds the device full takes back what idle lanes keep (never what a lane in
// use keeps), and the executors' threads run on the context's device.
#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "cuzk/gpu/context.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "require_device.hpp"

namespace {
using namespace cuzk;
using gpu::DeviceAlloc;
using gpu::DeviceContext;
using Bytes = gpu::DeviceBuffer<unsigned char>;

constexpr std::size_t kMiB = std::size_t{1} << 20;

// A stream-ordered buffer of `bytes` from `pool`, touched, then freed; the pool keeps it.
void use(gpu::MemoryPool& pool, std::size_t bytes) {
  const gpu::PoolScope scope(&pool);
  {
    Bytes b(bytes, DeviceAlloc::kStreamOrdered);
    gpu::device_memset_zero(b.data(), bytes);
  }
  gpu::stream_synchronize();
}

std::size_t free_bytes() {
  std::size_t f = 0;
  gpu::device_memory(&f, nullptr);
  return f;
}

TEST(DeviceContext, LanesAreApartAndKeepTheirCacheForTheSameUse) {
  gpu::set_device(0);
  DeviceContext ctx(0, {}, 2);
  int a_key = 0, b_key = 0;
  const DeviceContext::LaneUse ua{&a_key, 1, 1}, ub{&b_key, 1, 1};
  gpu::MemoryPool* first = nullptr;
  {
    DeviceContext::Lease a = ctx.lease(ua);
    DeviceContext::Lease b = ctx.lease(ub);
    ASSERT_NE(&a.memory(), &b.memory()) << "two running proofs share a pool";
    use(a.memory(), 64 * kMiB);
    use(b.memory(), 32 * kMiB);
    EXPECT_GE(a.memory().reserved_bytes(), 64 * kMiB);
    a.memory().trim();  // one proof's trim ...
    EXPECT_EQ(a.memory().reserved_bytes(), 0u);
    EXPECT_GE(b.memory().reserved_bytes(), 32 * kMiB) << "... emptied another proof's cache";
    use(a.memory(), 64 * kMiB);
    first = &a.memory();
  }
  EXPECT_EQ(ctx.lanes(), 2u);
  {
    DeviceContext::Lease again = ctx.lease(ua);  // the same key and batch: the same lane, cache kept
    EXPECT_EQ(&again.memory(), first);
    EXPECT_GE(again.memory().reserved_bytes(), 64 * kMiB);
  }
  {
    const int other = 0;
    DeviceContext::Lease a = ctx.lease(ua);
    DeviceContext::Lease c = ctx.lease({&other, 1, 1});  // another kind: the idle lane, emptied
    EXPECT_EQ(c.memory().reserved_bytes(), 0u);
    EXPECT_EQ(ctx.lanes(), 2u);
  }
}

TEST(DeviceContext, AFullDeviceTakesBackWhatIdleLanesKeep) {
  gpu::set_device(0);
  DeviceContext ctx(0, {}, 2);
  int k1 = 0, k2 = 0;
  const std::size_t f0 = free_bytes();
  const std::size_t piece = f0 / 10 * 4;  // 40 %: two fit, three do not
  ASSERT_GT(piece, std::size_t{1} << 28) << "too little free device memory for this test";
  {
    DeviceContext::Lease idle = ctx.lease({&k1, 1, 1});
    DeviceContext::Lease other = ctx.lease({&k2, 1, 1});
    use(idle.memory(), piece);  // kept in its cache once its lease ends
  }
  DeviceContext::Lease busy = ctx.lease({&k2, 1, 1});  // k2's lane again: k1's stays idle, its cache kept
  ASSERT_EQ(ctx.lanes(), 2u);
  ASSERT_EQ(busy.memory().reserved_bytes(), 0u);
  const Bytes filler(piece);  // what other work holds: with the idle cache, 80 %
  {
    const gpu::PoolScope scope(&busy.memory());
    Bytes b;
    ASSERT_NO_THROW(b = Bytes(piece, DeviceAlloc::kStreamOrdered)) << "the idle lane's cache was not taken back";
    gpu::device_memset_zero(b.data(), piece);
  }
  gpu::stream_synchronize();
  busy.memory().trim();
}

TEST(DeviceContext, ExecutorsRunOnItsDevice) {
  gpu::set_device(0);
  DeviceContext ctx(gpu::device_count() - 1);
  int seen = -1;
  ctx.tasks().submit([&seen] { seen = gpu::current_device(); }).get();
  EXPECT_EQ(seen, gpu::device_count() - 1);
  EXPECT_EQ(ctx.tasks().threads(), DeviceContext::kTaskThreadsPerProof);
  EXPECT_THROW(DeviceContext(gpu::device_count()), gpu::CudaError);
  EXPECT_THROW(DeviceContext(0, {}, 0), std::invalid_argument);
}

}  // namespace
