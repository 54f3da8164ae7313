// Streamed keys (private to src/gpu; plain C++ templates over msm.hpp and abc.hpp): a pair
// of device chunk buffers through which host arrays pass a chunk at a time, the upload of
// chunk j+1 (a task on the device context's tasks() executor, the copy stream of a
// StagedUploader) overlapping the work on chunk j (this thread's default stream). Three kinds of work use them:
//   - MSMs over the key's point arrays, each chunk's scalars classified just before its MSM
//     (one chunk's DeviceScalars on the device at a time), the first chunk of the next MSM
//     uploaded during the last chunk of this one; chunk sums are added on the host;
//   - MSMs of a batch of proofs over one point upload (msm_batch): each chunk's points serve
//     every proof's scalars of that chunk, uploaded from the host through ScalarChunks;
//   - the a/b/c evaluation from the key's host CSR matrices, cut by plan_csr_chunks into
//     pieces the size of a buffer (csr_chunks.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ec/point.hpp"
#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/executor.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/staged_upload.hpp"
#include "cuzk/r1cs/csr.hpp"

namespace cuzk::gpu {

// Two device buffers of `chunk` scalars and a copy stream of their own (StagedUploader),
// through which PointStream::msm_batch passes each proof's scalars of a chunk.
template <class Fr>
class ScalarChunks {
 public:
  // tasks: where the uploads wait for their copies (a device context's tasks()).
  ScalarChunks(std::size_t chunk, StagedUploader& up, Executor& tasks) : chunk_(chunk), up_(up), tasks_(tasks) {
    for (auto& b : buf_) b = DeviceBuffer<Fr>(chunk);
  }
  ~ScalarChunks() {
    try {
      up_.synchronize();  // no copy into the buffers may outlive them
    } catch (...) {
    }
  }
  ScalarChunks(const ScalarChunks&) = delete;
  ScalarChunks& operator=(const ScalarChunks&) = delete;
  std::size_t chunk() const { return chunk_; }
  const Fr* buffer(int k) const { return buf_[k].data(); }
  // Uploads host [src, src + n) into buffer k in a task and waits for the copy there; the
  // buffer's previous reader must have returned (DeviceScalars::from_device synchronises).
  TaskFuture upload_async(int k, const Fr* src, std::size_t n, int device) {
    if (src == nullptr || n == 0) return TaskFuture();
    return tasks_.submit([this, k, src, n, device] {
      DeviceGuard g(device);
      up_.upload(buf_[k].data(), src, n * sizeof(Fr));
      up_.synchronize();
    });
  }

 private:
  std::size_t chunk_;
  StagedUploader& up_;
  Executor& tasks_;
  DeviceBuffer<Fr> buf_[2];
};

class PointStream {
 public:
  // Two device buffers of `chunk` points of up to point_bytes each, on `device` (current); the
  // uploads run as tasks (a device context's tasks()).
  PointStream(std::size_t chunk, std::size_t point_bytes, StagedUploader& up, int device, Executor& tasks)
      : chunk_(chunk), point_bytes_(point_bytes), up_(up), device_(device), tasks_(tasks) {
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

  std::size_t buffer_bytes() const { return buf_[0].size(); }

  // sum_i s_i P_i over host points pts and the device scalars d[0 .. pts.size()) (Montgomery
  // form). next_first: the host bytes of the next msm's first chunk (first_chunk()), uploaded
  // while this msm's last chunk runs; that msm then finds them in place. o: the chunks' MSM
  // options (their scratch, the tuning).
  template <class C>
  ec::Jacobian<C> msm(std::span<const ec::Affine<C>> pts, const typename C::Scalar* d,
                      std::span<const std::byte> next_first = {}, const MsmOptions& o = {}) {
    using A = ec::Affine<C>;
    using Fr = typename C::Scalar;
    if (sizeof(A) > point_bytes_ || next_first.size() > buf_[0].size())
      throw std::logic_error("gpu: chunk buffers too small for this point type");
    const std::size_t chunks = (pts.size() + chunk_ - 1) / chunk_;
    auto len = [&](std::size_t j) { return std::min(chunk_, pts.size() - j * chunk_); };
    ec::Jacobian<C> acc = ec::Jacobian<C>::infinity();
    run(
        chunks, [&](std::size_t j) { return Pieces{{{0, std::as_bytes(pts.subspan(j * chunk_, len(j)))}}, 1}; },
        [&](std::size_t j, const unsigned char* buf) {
          const DeviceScalars<Fr> sc = DeviceScalars<Fr>::from_device(d + j * chunk_, len(j));
          acc += gpu::msm<C>(reinterpret_cast<const A*>(buf), len(j), sc, o);
        },
        next_first);
    return acc;
  }

  // For each host scalar array s_i = scalars[i][0 .. pts.size()) (Montgomery form): sum_k
  // s_i[k] P_k over the host points pts, each point chunk uploaded once for all of them (a
  // batch of proofs with one key: a sector's partitions). Chunk j's scalars of each array pass
  // through sb's two device buffers, the next array's uploaded on sb's copy stream while this
  // one's MSM runs. next_first and o as for msm().
  template <class C>
  std::vector<ec::Jacobian<C>> msm_batch(std::span<const ec::Affine<C>> pts,
                                         std::span<const typename C::Scalar* const> scalars,
                                         ScalarChunks<typename C::Scalar>& sb,
                                         std::span<const std::byte> next_first = {}, const MsmOptions& o = {}) {
    using A = ec::Affine<C>;
    using Fr = typename C::Scalar;
    if (sizeof(A) > point_bytes_ || next_first.size() > buf_[0].size())
      throw std::logic_error("gpu: chunk buffers too small for this point type");
    if (sb.chunk() < std::min(chunk_, pts.size())) throw std::logic_error("gpu: scalar chunk buffers too small");
    const std::size_t chunks = (pts.size() + chunk_ - 1) / chunk_;
    auto len = [&](std::size_t j) { return std::min(chunk_, pts.size() - j * chunk_); };
    const std::size_t k = scalars.size();
    std::vector<ec::Jacobian<C>> acc(k, ec::Jacobian<C>::infinity());
    if (k == 0) return acc;
    // Upload q = j k + i (array i's chunk j) goes to buffer q % 2; the next upload is queued
    // as soon as the buffer it overwrites has been read (by upload q - 1's classification),
    // across chunk boundaries too.
    auto upload = [&](std::size_t q) {
      const std::size_t j = q / k, i = q % k;
      return sb.upload_async(static_cast<int>(q % 2), scalars[i] + j * chunk_, len(j), device_);
    };
    TaskFuture next = upload(0);
    run(
        chunks, [&](std::size_t j) { return Pieces{{{0, std::as_bytes(pts.subspan(j * chunk_, len(j)))}}, 1}; },
        [&](std::size_t j, const unsigned char* buf) {
          const A* p = reinterpret_cast<const A*>(buf);
          for (std::size_t i = 0; i < k; ++i) {
            const std::size_t q = j * k + i;
            next.get();
            const DeviceScalars<Fr> sc = DeviceScalars<Fr>::from_device(sb.buffer(static_cast<int>(q % 2)), len(j));
            if (q + 1 < chunks * k) next = upload(q + 1);
            acc[i] += gpu::msm<C>(p, len(j), sc, o);
          }
        },
        next_first);
    return acc;
  }

  // out[i] = <row i of m, w> (mul: out[i] *= <row i, w>) for i < m.num_rows(), the matrix's
  // terms passing through the buffers as `chunks` cut them (plan_csr_chunks with
  // buffer_bytes()); out[i] for m.num_rows() <= i < n: 0 (mul: unchanged). Device w, out.
  // table: null, or m's value table on the device, and then m's 16-bit positions (val_idx)
  // pass through the buffers instead of its values (the chunks cut for 2-byte values).
  template <class Fr>
  void eval_rows(const r1cs::CsrMatrix<Fr>& m, std::span<const CsrChunk> chunks, const Fr* w, Fr* out, std::size_t n,
                 bool mul, const Fr* table = nullptr) {
    if (table != nullptr && !m.indexed()) throw std::logic_error("gpu: a value table for a matrix without an index");
    if (n < m.num_rows())
      throw std::invalid_argument("gpu: " + std::to_string(m.num_rows()) + " rows do not fit " + std::to_string(n) +
                                  " outputs");
    if (!mul && n > m.num_rows()) device_memset_zero(out + m.num_rows(), (n - m.num_rows()) * sizeof(Fr));
    DeviceBuffer<Fr> carry(2, DeviceAlloc::kStreamOrdered);
    auto part = [](const auto& v, std::uint64_t b, std::uint64_t e) {
      return std::as_bytes(std::span(v).subspan(static_cast<std::size_t>(b), static_cast<std::size_t>(e - b)));
    };
    run(
        chunks.size(),
        [&](std::size_t j) {
          const CsrChunk& c = chunks[j];
          if (c.bytes > buffer_bytes()) throw std::logic_error("gpu: a CSR chunk larger than its buffer");
          return Pieces{{{{0, part(m.row_ptr, c.r0, c.r1 + 1)},
                          {c.cols_off, part(m.cols, c.z0, c.z1)},
                          {c.vals_off, table != nullptr ? part(m.val_idx, c.z0, c.z1) : part(m.vals, c.z0, c.z1)}}},
                        3};
        },
        [&](std::size_t j, const unsigned char* buf) {
          eval_rows_chunk_device<Fr>(buf, chunks[j], w, out, carry.data(), j, mul, table);
        });
  }

 private:
  struct Piece {
    std::size_t offset;  // in the buffer
    std::span<const std::byte> bytes;
  };
  struct Pieces {
    std::array<Piece, 3> p;
    int n;
  };

  // Item j = 0 .. count-1: its pieces (pieces(j)) are uploaded into one buffer while item j-1's
  // work runs on the other; work(j, buffer) runs once they have landed. next_first: uploaded
  // (at offset 0) while the last item's work runs, for the next call, which finds it in place
  // when its first item is that one piece.
  template <class PiecesOf, class Work>
  void run(std::size_t count, PiecesOf pieces, Work work, std::span<const std::byte> next_first = {}) {
    auto index = [&](std::size_t j) { return (base_ + j) % 2; };  // item j's buffer
    auto upload = [&](std::size_t j, Pieces ps) {
      DeviceGuard g(device_);
      done_[index(j)].wait_on(up_.stream());  // the work of the item before in this buffer
      for (int k = 0; k < ps.n; ++k) {
        const Piece& q = ps.p[k];
        if (!q.bytes.empty()) up_.upload(buf_[index(j)].data() + q.offset, q.bytes.data(), q.bytes.size());
      }
      ready_[index(j)].record(up_.stream());
    };
    const Pieces first = count != 0 ? pieces(0) : Pieces{};
    const bool in_place = count != 0 && first.n == 1 && first.p[0].offset == 0 &&
                          prefetched_.data() == first.p[0].bytes.data() &&
                          prefetched_.size() == first.p[0].bytes.size();
    prefetched_ = {};
    TaskFuture next;
    try {
      if (count != 0 && !in_place) upload(0, first);
      for (std::size_t j = 0; j < count; ++j) {
        // Item j+1 (or the next call's first) goes to the other buffer, whose work has returned.
        if (j + 1 < count) next = tasks_.submit([&upload, j, ps = pieces(j + 1)] { upload(j + 1, ps); });
        else if (!next_first.empty())
          next = tasks_.submit([&upload, j, ps = Pieces{{{{0, next_first}}}, 1}] { upload(j + 1, ps); });
        ready_[index(j)].wait_default();
        work(j, buf_[index(j)].data());
        done_[index(j)].record_default();  // work may still run on the device (the CSR kernels)
        if (next.valid()) next.get();
      }
    } catch (...) {
      if (next.valid()) next.wait();
      throw;  // ~PointStream waits for the copy stream
    }
    if (count != 0) {
      base_ = index(count);
      prefetched_ = next_first;
    }
  }

  std::size_t chunk_, point_bytes_;
  StagedUploader& up_;
  int device_;
  Executor& tasks_;
  DeviceBuffer<unsigned char> buf_[2];
  Event ready_[2];  // recorded on the copy stream after the upload into buf_[k]
  Event done_[2];   // recorded on the default stream after the work on buf_[k]
  std::size_t base_ = 0;                  // the buffer of the next call's first item
  std::span<const std::byte> prefetched_;  // what was uploaded there ahead of time
};

// The host bytes of the first chunk of pts (what PointStream::msm prefetches).
template <class A>
std::span<const std::byte> first_chunk(std::span<const A> pts, std::size_t chunk) {
  return std::as_bytes(pts.first(std::min(chunk, pts.size())));
}

}  // namespace cuzk::gpu
