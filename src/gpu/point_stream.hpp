// Streamed MSMs over host-resident points (private to src/gpu; plain C++ templates over
// msm.hpp): the scalars of a range cut into per-chunk DeviceScalars, and a pair of device
// chunk buffers through which a point array passes chunk by chunk, the upload of chunk j+1
// (a helper thread, the copy stream of a StagedUploader) overlapping the MSM of chunk j
// (this thread's default stream), and the first chunk of the next MSM uploaded during the
// last chunk of this one. Chunk sums are added on the host.
#pragma once

#include <algorithm>
#include <cstddef>
#include <future>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ec/point.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/staged_upload.hpp"

namespace cuzk::gpu {

// DeviceScalars of d[j*chunk, min(n, (j+1)*chunk)) for every chunk j (d: n device Fr in
// Montgomery form). A chunk's scalars cost one classification of its range plus a few
// allocations and a synchronisation: build them once, before the MSMs, and share them.
template <class Fr>
std::vector<DeviceScalars<Fr>> chunk_scalars(const Fr* d, std::size_t n, std::size_t chunk) {
  if (chunk == 0) throw std::invalid_argument("gpu: chunk_scalars with a chunk of 0 scalars");
  std::vector<DeviceScalars<Fr>> out;
  out.reserve((n + chunk - 1) / chunk);
  for (std::size_t off = 0; off < n; off += chunk)
    out.push_back(DeviceScalars<Fr>::from_device(d + off, std::min(chunk, n - off)));
  return out;
}

class PointStream {
 public:
  // Two device buffers of `chunk` points of up to point_bytes each, on `device` (current).
  PointStream(std::size_t chunk, std::size_t point_bytes, StagedUploader& up, int device)
      : chunk_(chunk), point_bytes_(point_bytes), up_(up), device_(device) {
    if (chunk == 0) throw std::invalid_argument("gpu: a streamed key needs chunks of at least one point");
    for (auto& b : buf_) b = DeviceBuffer<unsigned char>(chunk * point_bytes);
  }
  ~PointStream() {
    try {
      up_.synchronize();  // no copy into the buffers may outlive them
    } catch (...) {
    }
  }
  PointStream(const PointStream&) = delete;
  PointStream& operator=(const PointStream&) = delete;

  std::size_t chunk() const { return chunk_; }

  // sum_i s_i P_i over host points pts, sc[j] holding the scalars of chunk j. next_first:
  // the host bytes of the next msm's first chunk (first_chunk()), uploaded while this
  // msm's last chunk runs; that msm then finds them in place. ws: the chunks' MSM scratch.
  template <class C>
  ec::Jacobian<C> msm(std::span<const ec::Affine<C>> pts, const std::vector<DeviceScalars<typename C::Scalar>>& sc,
                      std::span<const std::byte> next_first = {}, MsmWorkspace* ws = nullptr) {
    using A = ec::Affine<C>;
    if (sizeof(A) > point_bytes_ || next_first.size() > buf_[0].size())
      throw std::logic_error("gpu: chunk buffers too small for this point type");
    const std::size_t chunks = (pts.size() + chunk_ - 1) / chunk_;
    if (sc.size() != chunks)
      throw std::invalid_argument("gpu: streamed msm over " + std::to_string(chunks) + " chunks of points but " +
                                  std::to_string(sc.size()) + " of scalars");
    auto index = [&](std::size_t j) { return (base_ + j) % 2; };  // chunk j's buffer
    auto len = [&](std::size_t j) { return std::min(chunk_, pts.size() - j * chunk_); };
    auto bytes = [&](std::size_t j) { return std::as_bytes(pts.subspan(j * chunk_, len(j))); };
    auto upload = [&](std::size_t j, std::span<const std::byte> src) {
      DeviceGuard g(device_);
      up_.upload(buf_[index(j)].data(), src.data(), src.size());
      ready_[index(j)].record(up_.stream());
    };
    const bool in_place = chunks != 0 && prefetched_.data() == bytes(0).data() && prefetched_.size() == bytes(0).size();
    prefetched_ = {};
    ec::Jacobian<C> acc = ec::Jacobian<C>::infinity();
    std::future<void> next;
    try {
      if (chunks != 0 && !in_place) upload(0, bytes(0));
      for (std::size_t j = 0; j < chunks; ++j) {
        // Chunk j+1 (or the next msm's first) goes to the other buffer, whose MSM has returned.
        if (j + 1 < chunks) next = std::async(std::launch::async, upload, j + 1, bytes(j + 1));
        else if (!next_first.empty()) next = std::async(std::launch::async, upload, j + 1, next_first);
        ready_[index(j)].wait_default();
        acc += gpu::msm<C>(reinterpret_cast<const A*>(buf_[index(j)].data()), len(j), sc[j], MsmOptions{0, 0, ws});
        if (next.valid()) next.get();
      }
    } catch (...) {
      if (next.valid()) next.wait();
      throw;  // ~PointStream waits for the copy stream
    }
    if (chunks != 0) {
      base_ = index(chunks);
      prefetched_ = next_first;
    }
    return acc;
  }

 private:
  std::size_t chunk_, point_bytes_;
  StagedUploader& up_;
  int device_;
  DeviceBuffer<unsigned char> buf_[2];
  Event ready_[2];  // recorded on the copy stream after the upload into buf_[k]
  std::size_t base_ = 0;                  // the buffer of the next msm's first chunk
  std::span<const std::byte> prefetched_;  // what was uploaded there ahead of time
};

// The host bytes of the first chunk of pts (what PointStream::msm prefetches).
template <class A>
std::span<const std::byte> first_chunk(std::span<const A> pts, std::size_t chunk) {
  return std::as_bytes(pts.first(std::min(chunk, pts.size())));
}

}  // namespace cuzk::gpu
