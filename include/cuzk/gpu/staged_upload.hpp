// Host -> device uploads on a copy stream of their own, whatever the host memory is:
//   - a page-locked source (registered with HostRegistration, or a PinnedBuffer) is one
//     asynchronous copy straight from it;
//   - a pageable source goes through two pinned staging buffers of kChunkBytes each,
//     double buffered: the host copies chunk k+1 into one while the copy engine uploads
//     chunk k from the other; an Event per buffer says when the copy engine is done with it.
// The pinned staging (two buffers of min(chunk, largest pageable upload so far), at most
// 2 x chunk_bytes) is allocated at the first pageable upload, grown when a larger one
// comes, and kept for the uploader's lifetime. The host copies into the staging run on an
// executor's threads (a device context's copies(), else three of the uploader's own, made at its
// first pageable upload). Plain C++; one thread at a time per uploader.
#pragma once

#include <cstddef>
#include <memory>

#include "cuzk/gpu/executor.hpp"
#include "cuzk/gpu/host_memory.hpp"

namespace cuzk::gpu {

// True when every byte of [p, p + bytes) is page-locked memory known to CUDA (the range's
// two ends are checked: registrations and pinned allocations are contiguous ranges).
bool is_pinned_range(const void* p, std::size_t bytes);

class StagedUploader {
 public:
  static constexpr std::size_t kChunkBytes = std::size_t{16} << 20;
  static constexpr std::size_t kStagingBytes = 2 * kChunkBytes;  // the most pinned memory held

  // A copy stream on the current device; pageable uploads go in pieces of chunk_bytes, copied
  // into the staging on `copies` (null: the uploader's own threads). copies outlives the uploader.
  explicit StagedUploader(std::size_t chunk_bytes = kChunkBytes, Executor* copies = nullptr);
  ~StagedUploader();  // waits for the queued copies
  StagedUploader(const StagedUploader&) = delete;
  StagedUploader& operator=(const StagedUploader&) = delete;

  // Queues device dst <- host src (bytes) on stream(). A pinned source must stay unchanged
  // until the stream has reached the copy (synchronize(), or an Event recorded on stream());
  // a pageable one may be reused as soon as upload() returns (it is in the staging by then).
  // Returns true when the source was pinned (no staging).
  bool upload(void* dst, const void* src, std::size_t bytes);
  void synchronize() { stream_.synchronize(); }
  Stream& stream() { return stream_; }
  std::size_t staging_bytes() const { return staging_[0].size() + staging_[1].size(); }

 private:
  // memcpy n bytes s -> d in up to four parts: the caller's and three on the copy executor (one
  // host thread copies ~7 GB/s, the link takes ~55).
  void parallel_copy(unsigned char* d, const unsigned char* s, std::size_t n);

  std::size_t chunk_;
  Executor* copies_;
  std::unique_ptr<Executor> own_copies_;  // when none was given, made at the first staged upload
  Stream stream_;
  PinnedBuffer<unsigned char> staging_[2];
  Event free_[2];           // recorded after the copy out of staging_[k]
  bool queued_[2] = {false, false};
  int next_ = 0;
};

}  // namespace cuzk::gpu
