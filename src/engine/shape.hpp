// The shape of a proving key (what its memory needs follow from) and the engine's memory
// estimates. The formulas, in bytes, with P1/P2 the in-memory size of a G1/G2 affine point
// and S the size of a scalar (Fr):
//
//   key_host   = P1 * (ic + a + b_g1 + l + h) + P2 * b_g2 + nnz * (4 + S) + 3 * 8 * (rows + 1)
//                (the ProvingKey's point vectors and its CSR matrices: u32 column + Fr value
//                 per coefficient, u64 row pointers; ic = num_public + 1, a = b_g1 = b_g2 =
//                 num_vars, l = num_vars - num_public - 1, h = n or n - 1)
//   index      = 2 * nnz + S * min(nnz, 3 * 65536)
//                (the matrices' value index, which the cuda backend adds to every loaded key,
//                 Devices::host_key_extra_bytes: a u16 position per coefficient and a
//                 table of at most 65536 distinct values per matrix; an upper bound)
//   key_device = key_host (a device copy holds the same points and matrices; the CUDA
//                backend may report its own figure)
//   witness    = 2 * S * num_vars   (the assignment and its flattened copy, or the .wtns
//                bytes and the parsed vector), held from synthesis until the proof is done
//   scratch    = 4 * S * n + 8 MiB  (a, b, c over the domain and the H-polynomial domain
//                twiddles, plus Pippenger buckets and per-thread partial sums), per proof
//                while it runs on a device
#pragma once

#include <algorithm>
#include <cstdint>

#include "cuzk/r1cs/curve_id.hpp"

namespace cuzk::engine {

struct KeyShape {
  r1cs::Curve curve = r1cs::Curve::bls12_381;  // the key's curve
  std::uint64_t num_vars = 0;    // wires including wire 0
  std::uint64_t num_public = 0;
  std::uint64_t domain_size = 0;
  std::uint64_t h_len = 0;
  std::uint64_t rows = 0;        // QAP rows (constraints + binding rows)
  std::uint64_t nnz = 0;         // coefficients over the stored matrices
  std::uint32_t g1_bytes = 0, g2_bytes = 0, fr_bytes = 0;
};

inline constexpr std::uint64_t kMsmScratchBytes = 8ull << 20;

// The point arrays of a key (A, B1, L, H in G1; B2 in G2): what the pinned tier page-locks.
inline std::uint64_t key_point_bytes(const KeyShape& s) {
  const std::uint64_t g1 = (s.num_public + 1) + 2 * s.num_vars + (s.num_vars - s.num_public - 1) + s.h_len;
  return s.g1_bytes * g1 + s.g2_bytes * s.num_vars;
}
// The value tables: at most 65536 distinct values in each of the three matrices.
inline std::uint64_t key_index_table_bytes(const KeyShape& s) {
  return s.fr_bytes * std::min<std::uint64_t>(s.nnz, 3 * 65536);
}
inline std::uint64_t key_index_bytes(const KeyShape& s) { return 2 * s.nnz + key_index_table_bytes(s); }
inline std::uint64_t key_host_bytes(const KeyShape& s) {
  return key_point_bytes(s) + s.nnz * (4 + s.fr_bytes) + 3 * 8 * (s.rows + 1);
}
inline std::uint64_t witness_bytes(const KeyShape& s) { return 2ull * s.fr_bytes * s.num_vars; }
// The assignment alone (num_vars values): what a pinned witness page-locks.
inline std::uint64_t witness_value_bytes(const KeyShape& s) { return std::uint64_t{s.fr_bytes} * s.num_vars; }
// witness_value_bytes when at least min_bytes, else 0 (not pinned).
inline std::uint64_t witness_pin_bytes(const KeyShape& s, std::uint64_t min_bytes) {
  const std::uint64_t b = witness_value_bytes(s);
  return b >= min_bytes ? b : 0;
}
inline std::uint64_t scratch_bytes(const KeyShape& s) { return 4ull * s.fr_bytes * s.domain_size + kMsmScratchBytes; }

}  // namespace cuzk::engine
