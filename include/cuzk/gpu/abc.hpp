// The QAP side of a Groth16 proof on the GPU: CSR matrices resident on the device, the
// a/b/c evaluation (a_i = <A row i, w>, ...) and the H polynomial in the bellperson
// convention (the snarkjs one is compute_h_snarkjs_device in ntt.hpp). Plain C++; the
// kernels are instantiated for bls12_381::Fr and bn254::Fr. Work is queued on the
// current device's default stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "cuzk/gpu/csr_chunks.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/r1cs/csr.hpp"

namespace cuzk::gpu {

// A CSR matrix on the device. An indexed matrix (CsrMatrix::indexed) goes up as its 16-bit
// value positions and their table instead of its values: 6 bytes a term instead of 36.
template <class Fr>
class DeviceCsr {
 public:
  DeviceCsr() = default;
  explicit DeviceCsr(const r1cs::CsrMatrix<Fr>& m)
      : row_ptr_(std::span<const std::uint64_t>(m.row_ptr)),
        cols_(std::span<const std::uint32_t>(m.cols)),
        rows_(m.num_rows()) {
    if (m.indexed()) {
      idx_ = DeviceBuffer<std::uint16_t>(std::span<const std::uint16_t>(m.val_idx));
      table_ = DeviceBuffer<Fr>(std::span<const Fr>(m.val_table));
    } else {
      vals_ = DeviceBuffer<Fr>(std::span<const Fr>(m.vals));
    }
  }
  // Bytes a term's value takes: its 16-bit position when m is indexed, else the element.
  static std::size_t value_bytes(const r1cs::CsrMatrix<Fr>& m) {
    return m.indexed() ? sizeof(std::uint16_t) : sizeof(Fr);
  }
  // Bytes of the host arrays one pass over m reads (row pointers, columns, and the values or
  // their positions): what a streamed pass uploads and the pinned tier registers.
  static std::size_t pass_bytes(const r1cs::CsrMatrix<Fr>& m) {
    return m.row_ptr.size() * 8 + m.nnz() * (4 + value_bytes(m));
  }
  // Bytes of the value table (0 when not indexed): on the device beside a streamed matrix too.
  static std::size_t table_bytes(const r1cs::CsrMatrix<Fr>& m) { return m.val_table.size() * sizeof(Fr); }
  // VRAM of the resident matrix.
  static std::size_t bytes(const r1cs::CsrMatrix<Fr>& m) { return pass_bytes(m) + table_bytes(m); }
  std::size_t num_rows() const { return rows_; }
  const std::uint64_t* row_ptr() const { return row_ptr_.data(); }
  const std::uint32_t* cols() const { return cols_.data(); }
  const Fr* vals() const { return vals_.data(); }      // null when indexed
  const std::uint16_t* idx() const { return idx_.data(); }  // null when not indexed
  const Fr* table() const { return table_.data(); }

 private:
  DeviceBuffer<std::uint64_t> row_ptr_;
  DeviceBuffer<std::uint32_t> cols_;
  DeviceBuffer<Fr> vals_;
  DeviceBuffer<std::uint16_t> idx_;
  DeviceBuffer<Fr> table_;
  std::size_t rows_ = 0;
};

// out[i] = <row i of m, w> for i < m.num_rows(), out[i] = 0 for num_rows() <= i < n
// (device pointers; w holds at least the matrix's num_cols values; n >= num_rows()).
template <class Fr>
void eval_rows_device(const DeviceCsr<Fr>& m, const Fr* w, Fr* out, std::size_t n);

// One chunk of a streamed matrix (csr_chunks.hpp) on the device, the twin of one chunk of
// eval_chunks_host: buf holds the chunk as c lays it out; out[i] = <row i, w> (mul: out[i] *=
// <row i, w>) for the rows the chunk finishes; carry: two device elements, chunk k of a matrix
// reading the carry from slot (k + 1) % 2 and writing it to slot k % 2. table: null when the
// chunk holds the values, else the device value table and the chunk holds 16-bit positions.
template <class Fr>
void eval_rows_chunk_device(const unsigned char* buf, const CsrChunk& c, const Fr* w, Fr* out, Fr* carry,
                            std::size_t k, bool mul, const Fr* table = nullptr);

// Bellperson H on device-resident a, b, c (plan.size() each, used as scratch): a <- the
// coefficients of (A B - C) / Z, computed on the coset g<omega>; equal to
// poly::compute_h_classic with the same g (the field's multiplicative generator there).
template <class F>
void compute_h_classic_device(const NttPlan<F>& plan, F* a, F* b, F* c, const F& g);

// The same H from a and b alone, for a satisfying witness (c = a.b on the domain; see
// poly::compute_h_classic_ab): six transforms instead of seven, C neither evaluated nor
// transformed. a, b: plan.size() evaluations each; t: plan.size() elements of scratch;
// a <- h's coefficients, b and t overwritten. Equal to poly::compute_h_classic_ab.
template <class F>
void compute_h_classic_ab_device(const NttPlan<F>& plan, F* a, F* b, F* t, const F& g);

// The same H in two arrays (streamed keys, cards with little memory): a, b hold the
// evaluations; after A B is formed in a, ab_into(b) must write a.b's evaluations over the
// domain into b (re-evaluating the matrices); a <- h's coefficients, b overwritten.
template <class F>
void compute_h_classic_ab_lean_device(const NttPlan<F>& plan, F* a, F* b, const std::function<void(F*)>& ab_into,
                                      const F& g);

}  // namespace cuzk::gpu
