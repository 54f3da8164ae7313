// The constraint matrices of a streamed key (KeyPlacement::kStreamPoints) stay in host memory
// and pass through the point chunk buffers, a piece at a time, for the a/b/c evaluation: a
// 2^27-row PoRep matrix takes gigabytes that a 16 GiB card cannot spare beside the proof.
// This header cuts a CSR matrix into such pieces and says how each sits in its buffer; plain
// C++, so the CPU tests check the cut and its emulated evaluation (eval_chunks_host) without
// a device. The device twin of eval_chunks_host is eval_rows_chunk_device (abc.hpp).
//
// A chunk holds the terms [z0, z1) and the rows r0 .. r1-1 they belong to (rows without terms
// included). A row longer than a buffer is split: its partial sum leaves one chunk as the
// carry (split) and enters the next (continued), so every row's sum is finished, and written,
// in exactly one chunk.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::gpu {

struct CsrChunk {
  std::uint64_t r0 = 0, r1 = 0;  // rows r0 .. r1-1
  std::uint64_t z0 = 0, z1 = 0;  // terms z0 .. z1-1
  bool continued = false;        // row r0 began in the chunk before (its sum so far: the carry)
  bool split = false;            // row r1-1 goes on in the next chunk (its sum so far: the carry)
  // The chunk in its buffer: row_ptr[r0 .. r1] at offset 0, cols[z0 .. z1) at cols_off,
  // vals[z0 .. z1) at vals_off (16-byte aligned; of an indexed matrix, val_idx[z0 .. z1)),
  // `bytes` in all.
  std::size_t cols_off = 0, vals_off = 0, bytes = 0;
};

// Bytes of a chunk of `rows` rows and `terms` terms with values of val_bytes each.
inline CsrChunk csr_chunk_layout(std::uint64_t rows, std::uint64_t terms, std::size_t val_bytes) {
  CsrChunk c;
  c.cols_off = static_cast<std::size_t>((rows + 1) * 8);
  c.vals_off = (c.cols_off + static_cast<std::size_t>(terms) * 4 + 15) / 16 * 16;
  c.bytes = c.vals_off + static_cast<std::size_t>(terms) * val_bytes;
  return c;
}

// The chunks of a matrix with row pointers row_ptr (num_rows + 1 entries) in buffers of
// `capacity` bytes, in order. A row is split only when it does not fit an empty buffer.
// Throws std::invalid_argument when capacity cannot hold one row with one term.
inline std::vector<CsrChunk> plan_csr_chunks(std::span<const std::uint64_t> row_ptr, std::size_t capacity,
                                             std::size_t val_bytes) {
  if (row_ptr.empty()) throw std::invalid_argument("gpu: a CSR matrix needs row_ptr[0]");
  if (capacity < csr_chunk_layout(1, 1, val_bytes).bytes)
    throw std::invalid_argument("gpu: a stream buffer of " + std::to_string(capacity) +
                                " bytes cannot hold one constraint term");
  const std::uint64_t rows = row_ptr.size() - 1;
  auto fits = [&](std::uint64_t nr, std::uint64_t nt) { return csr_chunk_layout(nr, nt, val_bytes).bytes <= capacity; };
  // The most terms a chunk of nr rows can hold (0 when not even the rows fit).
  auto max_terms = [&](std::uint64_t nr) {
    std::uint64_t lo = 0, hi = capacity / (4 + val_bytes) + 1;  // fits(nr, lo) or lo == 0
    if (!fits(nr, 0)) return std::uint64_t{0};
    while (lo + 1 < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      (fits(nr, mid) ? lo : hi) = mid;
    }
    return lo;
  };
  std::vector<CsrChunk> out;
  std::uint64_t r = 0, z = row_ptr[0];
  while (r < rows) {
    CsrChunk c;
    c.r0 = r, c.z0 = z, c.continued = z > row_ptr[r];
    std::uint64_t k = r;  // rows r0 .. k-1 are whole in the chunk
    while (k < rows && fits(k - c.r0 + 1, row_ptr[k + 1] - c.z0)) ++k;
    if (k < rows && k == c.r0) {
      // Row r0 does not fit even alone: as many of its terms as the buffer holds.
      const std::uint64_t t = max_terms(1);
      c.r1 = k + 1, c.z1 = c.z0 + t, c.split = true;
    } else if (k < rows && k > c.r0 && !fits(1, row_ptr[k + 1] - row_ptr[k])) {
      // Row k would not fit an empty buffer either: start it here, in the room left.
      const std::uint64_t room = max_terms(k - c.r0 + 1);
      const std::uint64_t before = row_ptr[k] - c.z0;
      if (room > before) {
        c.r1 = k + 1, c.z1 = row_ptr[k] + (room - before), c.split = true;
      } else {
        c.r1 = k, c.z1 = row_ptr[k];
      }
    } else {
      c.r1 = k, c.z1 = row_ptr[k];
    }
    const CsrChunk l = csr_chunk_layout(c.r1 - c.r0, c.z1 - c.z0, val_bytes);
    c.cols_off = l.cols_off, c.vals_off = l.vals_off, c.bytes = l.bytes;
    out.push_back(c);
    r = c.split ? c.r1 - 1 : c.r1;
    z = c.z1;
  }
  return out;
}

// The evaluation the device does chunk by chunk, on the host (the CPU twin the tests compare
// the device with): out[i] = <row i, w> (mul: out[i] *= <row i, w>) for every row, reading
// the terms only through the chunks' ranges (their values through the value index when the
// matrix has one) and passing split rows' sums as the carry.
template <class F, class Matrix>
void eval_chunks_host(const Matrix& m, std::span<const CsrChunk> chunks, std::span<const F> w, std::span<F> out,
                      bool mul) {
  F carry = F::zero();
  for (const CsrChunk& c : chunks) {
    for (std::uint64_t i = c.r0; i < c.r1; ++i) {
      const std::uint64_t b = std::max(m.row_ptr[i], c.z0), e = std::min(m.row_ptr[i + 1], c.z1);
      F acc = F::zero();
      for (std::uint64_t k = b; k < e; ++k) acc += m.value(k) * w[m.cols[k]];
      if (i == c.r0 && c.continued) acc += carry;
      if (i + 1 == c.r1 && c.split) {
        carry = acc;
        continue;
      }
      out[i] = mul ? out[i] * acc : acc;
    }
  }
}

}  // namespace cuzk::gpu
