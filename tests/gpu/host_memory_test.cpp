// Pinned host memory, streams, events (cuzk/gpu/host_memory.hpp) and staged uploads
// (cuzk/gpu/staged_upload.hpp): round trips through device buffers on copy streams,
// cross-stream ordering by events, is_pinned for registered / allocated / pageable memory,
// HostRegistration's unregistration, and StagedUploader's pageable path (many pieces,
// a partial last piece, the source reusable on return, staging that grows) and pinned path.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/gpu/staged_upload.hpp"
#include "device_words.hpp"
#include "require_device.hpp"

namespace {
using namespace cuzk;
using u64 = std::uint64_t;
using test::download;
using test::random_words;

TEST(HostMemory, PinnedBufferRoundTripOnStreams) {
  const std::size_t n = (std::size_t{3} << 20) + 5;  // 24 MiB + 40 bytes
  const auto want = random_words(n, 1);
  gpu::PinnedBuffer<u64> src(n), back(n);
  ASSERT_EQ(src.size(), n);
  std::copy(want.begin(), want.end(), src.data());
  std::fill(back.data(), back.data() + n, 0);
  gpu::DeviceBuffer<u64> d(n);
  gpu::Stream up, down;
  up.copy_to_device(d.data(), src.data(), n * sizeof(u64));
  gpu::Event uploaded;
  uploaded.record(up);
  uploaded.wait_on(down);  // the download stream waits for the upload
  down.copy_to_host(back.data(), d.data(), n * sizeof(u64));
  down.synchronize();
  EXPECT_TRUE(std::equal(want.begin(), want.end(), back.data()));
  // The same through the default stream: an event recorded there, waited on by a stream.
  gpu::DeviceBuffer<u64> d2(n);
  gpu::copy_device_to_device(d2.data(), d.data(), n * sizeof(u64));
  gpu::Event copied;
  copied.record_default();
  std::fill(back.data(), back.data() + n, 0);
  copied.wait_on(down);
  down.copy_to_host(back.data(), d2.data(), n * sizeof(u64));
  gpu::Event done;
  done.record(down);
  done.synchronize();
  EXPECT_TRUE(std::equal(want.begin(), want.end(), back.data()));
  // Moving a PinnedBuffer hands over its memory.
  gpu::PinnedBuffer<u64> moved(std::move(src));
  EXPECT_EQ(src.size(), 0u);
  EXPECT_EQ(src.data(), nullptr);
  EXPECT_TRUE(gpu::is_pinned(moved.data()));
}

TEST(HostMemory, IsPinnedAndHostRegistrationUnregisters) {
  std::vector<u64> v(1 << 18, 7);  // 2 MiB, heap (pageable)
  const std::size_t bytes = v.size() * sizeof(u64);
  EXPECT_FALSE(gpu::is_pinned(v.data()));
  EXPECT_FALSE(gpu::is_pinned_range(v.data(), bytes));
  gpu::HostRegistration reg(v.data(), bytes);
  EXPECT_EQ(reg.bytes(), bytes);
  EXPECT_TRUE(gpu::is_pinned(v.data()));
  EXPECT_TRUE(gpu::is_pinned(v.data() + v.size() - 1));
  EXPECT_TRUE(gpu::is_pinned_range(v.data(), bytes));
  // Moved: still registered, once.
  gpu::HostRegistration moved(std::move(reg));
  EXPECT_EQ(reg.bytes(), 0u);
  EXPECT_TRUE(gpu::is_pinned(v.data()));
  reg.reset();  // the moved-from one owns nothing: no effect
  EXPECT_TRUE(gpu::is_pinned(v.data()));
  moved.reset();
  EXPECT_EQ(moved.bytes(), 0u);
  EXPECT_FALSE(gpu::is_pinned(v.data()));
  // Registering again after the reset works (it was really unregistered).
  { gpu::HostRegistration again(v.data(), bytes); EXPECT_TRUE(gpu::is_pinned(v.data())); }
  EXPECT_FALSE(gpu::is_pinned(v.data()));
  EXPECT_EQ(gpu::HostRegistration(v.data(), 0).bytes(), 0u);
  // A range pinned only in its first half is not a pinned range.
  {
    gpu::HostRegistration half(v.data(), bytes / 2);
    EXPECT_TRUE(gpu::is_pinned_range(v.data(), bytes / 2));
    EXPECT_FALSE(gpu::is_pinned_range(v.data(), bytes));
  }
  gpu::PinnedBuffer<u64> p(16);
  EXPECT_TRUE(gpu::is_pinned_range(p.data(), 16 * sizeof(u64)));
  EXPECT_FALSE(gpu::is_pinned(nullptr));
}

TEST(StagedUploader, PageableSourceInManyPiecesIsReusableOnReturn) {
  const std::size_t n = 100'003;  // 800,024 bytes: 196 pieces of 4 KiB, the last one partial
  auto a = random_words(n, 2);
  const auto want_a = a;
  const auto want_b = random_words(n, 3);
  auto b = want_b;
  gpu::DeviceBuffer<u64> da(n), db(n);
  gpu::StagedUploader up(4096);
  EXPECT_EQ(up.staging_bytes(), 0u);
  EXPECT_FALSE(up.upload(da.data(), a.data(), n * sizeof(u64)));
  std::fill(a.begin(), a.end(), 0);  // the source may change once upload() returned
  EXPECT_FALSE(up.upload(db.data(), b.data(), n * sizeof(u64)));
  std::iota(b.begin(), b.end(), u64{0});
  up.synchronize();
  EXPECT_EQ(download(da), want_a);
  EXPECT_EQ(download(db), want_b);
  EXPECT_EQ(up.staging_bytes(), 2u * 4096);
}

TEST(StagedUploader, StagingGrowsWithTheUploadsAndPinnedSourcesSkipIt) {
  gpu::StagedUploader up;  // default pieces of kChunkBytes
  const auto small = random_words(1000, 4);
  gpu::DeviceBuffer<u64> ds(1000);
  EXPECT_FALSE(up.upload(ds.data(), small.data(), small.size() * sizeof(u64)));
  EXPECT_EQ(up.staging_bytes(), 2 * small.size() * sizeof(u64));  // no more than needed
  const std::size_t n = (gpu::StagedUploader::kChunkBytes / sizeof(u64)) * 2 + 333;  // 2 full pieces + a bit
  const auto big = random_words(n, 5);
  gpu::DeviceBuffer<u64> db(n);
  EXPECT_FALSE(up.upload(db.data(), big.data(), n * sizeof(u64)));
  EXPECT_EQ(up.staging_bytes(), gpu::StagedUploader::kStagingBytes);
  gpu::PinnedBuffer<u64> pinned(n);
  std::copy(big.rbegin(), big.rend(), pinned.data());
  gpu::DeviceBuffer<u64> dp(n);
  EXPECT_TRUE(up.upload(dp.data(), pinned.data(), n * sizeof(u64)));
  up.synchronize();
  EXPECT_EQ(download(ds), small);
  EXPECT_EQ(download(db), big);
  const std::vector<u64> reversed(big.rbegin(), big.rend());
  EXPECT_EQ(download(dp), reversed);
  EXPECT_TRUE(up.upload(dp.data(), nullptr, 0));  // nothing to do
  EXPECT_THROW(gpu::StagedUploader(0), std::invalid_argument);
}

}  // namespace
