// StagedUploader (cuzk/gpu/staged_upload.hpp): plain C++ over host_memory.hpp.
#include "cuzk/gpu/staged_upload.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace cuzk::gpu {

bool is_pinned_range(const void* p, std::size_t bytes) {
  if (bytes == 0) return true;
  const auto* b = static_cast<const unsigned char*>(p);
  return is_pinned(b) && is_pinned(b + bytes - 1);
}

StagedUploader::StagedUploader(std::size_t chunk_bytes, Executor* copies) : chunk_(chunk_bytes), copies_(copies) {
  if (chunk_bytes == 0) throw std::invalid_argument("gpu: StagedUploader with a chunk of 0 bytes");
}

void StagedUploader::parallel_copy(unsigned char* d, const unsigned char* s, std::size_t n) {
  constexpr std::size_t kParts = 4, kMinPart = std::size_t{1} << 20;
  const std::size_t parts = std::clamp<std::size_t>(n / kMinPart, 1, kParts);
  const std::size_t step = (n + parts - 1) / parts;
  if (parts > 1 && copies_ == nullptr) copies_ = (own_copies_ = std::make_unique<Executor>(kParts - 1)).get();
  std::vector<TaskFuture> rest;
  for (std::size_t p = 1; p < parts; ++p)
    rest.push_back(copies_->submit([=] { std::memcpy(d + p * step, s + p * step, std::min(step, n - p * step)); }));
  std::memcpy(d, s, std::min(step, n));
  for (auto& f : rest) f.get();
}

StagedUploader::~StagedUploader() {
  try {
    stream_.synchronize();  // the staging buffers and the callers' pinned sources are read until then
  } catch (...) {
  }
}

bool StagedUploader::upload(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return true;
  if (is_pinned_range(src, bytes)) {
    stream_.copy_to_device(dst, src, bytes);
    return true;
  }
  const std::size_t want = std::min(chunk_, bytes);
  if (staging_[0].size() < want) {  // grow (both buffers idle first)
    for (int k = 0; k < 2; ++k)
      if (queued_[k]) free_[k].synchronize(), queued_[k] = false;
    for (auto& s : staging_) s = PinnedBuffer<unsigned char>(want);
  }
  const std::size_t piece = staging_[0].size();
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (std::size_t off = 0; off < bytes; off += piece) {
    const std::size_t len = std::min(piece, bytes - off);
    const int k = next_;
    next_ ^= 1;
    if (queued_[k]) free_[k].synchronize();  // the copy engine has finished reading staging_[k]
    parallel_copy(staging_[k].data(), s + off, len);
    stream_.copy_to_device(d + off, staging_[k].data(), len);
    free_[k].record(stream_);
    queued_[k] = true;
  }
  return false;
}

}  // namespace cuzk::gpu
