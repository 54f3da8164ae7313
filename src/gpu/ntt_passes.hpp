// The device NTT's pass plan (private to src/gpu and its tests; plain C++): which levels each
// shared-memory pass runs, and which passes need the compact twiddle table's second part.
#pragma once

#include <algorithm>
#include <vector>

#include "cuzk/gpu/ntt.hpp"

namespace cuzk::gpu {

// Levels s .. s+t-1 on tiles of 2^t rows x 2^log_c columns (ntt_pass_block).
struct NttPass {
  int s, t, log_c;
};

// The passes of a 2^L transform in Cooley-Tukey order: the earlier ones up to shape.inner
// levels each (spread evenly), the final one shape.last levels on contiguous tiles.
inline std::vector<NttPass> plan_ntt_passes(int L, const NttPassShape& shape) {
  std::vector<NttPass> v;
  if (L == 0) return v;
  const int last = std::min(L, shape.last);
  const int rest = L - last;
  const int npass = (rest + shape.inner - 1) / shape.inner;
  int s = 0;
  for (int i = 0; i < npass; ++i) {
    const int t = (rest - s + (npass - i) - 1) / (npass - i);  // spread evenly
    v.push_back({s, t, shape.log_cols});
    s += t;
  }
  v.push_back({s, last, 0});
  return v;
}

// Level u's groups are k < 2^u, so a pass reads twiddles past the first table's 2^lo_bits
// (twiddle_lo_bits), and composes them from both parts, only when its top level exceeds it.
inline bool pass_composes_twiddles(const NttPass& p, int lo_bits) { return p.s + p.t - 1 > lo_bits; }

}  // namespace cuzk::gpu
