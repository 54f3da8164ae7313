// The distinct values of a sequence and each entry's position among them: constraint
// matrices repeat a few coefficients (a 2^27 PoRep matrix: 36 to ~2800 distinct values over
// ~10^8 terms), so 32-byte values become 2- or 4-byte positions in a small table. Used by the
// CSR cache file (u32 positions, cs/r1cs_cache.hpp) and by the matrices' value index that the
// GPU backend reads instead of the values (u16 positions, index_values in csr.hpp's terms).
//
// Deterministic: the table lists the values in order of first occurrence whatever the
// threading (blocks are scanned in parallel, their first occurrences merged in block order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "cuzk/r1cs/csr.hpp"

namespace cuzk::r1cs {

template <class F, class Pos>
struct ValueDictionary {
  std::vector<F> values;  // distinct, in order of first occurrence
  std::vector<Pos> pos;   // entry k is values[pos[k]]
};

namespace dict_detail {
template <class F>
struct ReprHash {
  std::size_t operator()(const typename F::Repr& r) const {
    std::uint64_t h = 0;
    for (auto x : r) h = (h ^ x) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(h ^ (h >> 32));
  }
};
template <class F>
using PosMap = std::unordered_map<typename F::Repr, std::uint32_t, ReprHash<F>>;

// The first occurrences in vals[b, e) in order; false once more than `limit` are found.
template <class F>
bool first_occurrences(std::span<const F> vals, std::size_t b, std::size_t e, std::size_t limit, std::vector<F>& out) {
  PosMap<F> seen;
  const typename F::Repr* prev = nullptr;
  for (std::size_t k = b; k < e; ++k) {
    const auto& r = vals[k].mont();
    if (prev != nullptr && r == *prev) continue;  // runs of one value are common
    prev = &r;
    if (seen.try_emplace(r, 0).second) {
      if (out.size() == limit) return false;
      out.push_back(vals[k]);
    }
  }
  return true;
}
}  // namespace dict_detail

// The dictionary of vals with positions of type Pos, or nothing when vals holds more than
// max_values distinct values (at most Pos's range).
template <class Pos, class F>
std::optional<ValueDictionary<F, Pos>> dictionary_of(std::span<const F> vals,
                                                     std::size_t max_values = std::size_t{std::numeric_limits<Pos>::max()} + 1) {
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  const std::size_t blocks = (vals.size() + kBlock - 1) / kBlock;
  std::vector<std::vector<F>> firsts(blocks);
  std::vector<char> ok(blocks, 1);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i)
      ok[i] = dict_detail::first_occurrences(vals, i * kBlock, std::min(vals.size(), (i + 1) * kBlock), max_values,
                                             firsts[i]);
  });
  ValueDictionary<F, Pos> d;
  dict_detail::PosMap<F> at;
  for (std::size_t i = 0; i < blocks; ++i) {
    if (!ok[i]) return std::nullopt;
    for (const F& v : firsts[i])
      if (at.try_emplace(v.mont(), static_cast<std::uint32_t>(d.values.size())).second) {
        if (d.values.size() == max_values) return std::nullopt;
        d.values.push_back(v);
      }
  }
  d.pos.resize(vals.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, vals.size(), kBlock), [&](const auto& r) {
    const typename F::Repr* prev = nullptr;
    Pos prev_pos{};
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      const auto& v = vals[k].mont();
      if (prev == nullptr || v != *prev) prev = &v, prev_pos = static_cast<Pos>(at.find(v)->second);
      d.pos[k] = prev_pos;
    }
  });
  return d;
}

// Gives m its value index (CsrMatrix::val_table / val_idx): the values as 16-bit positions in
// the table of its distinct ones. Leaves m without one, and returns false, when m holds more
// than 65536 distinct values or no terms.
template <class F>
bool index_values(CsrMatrix<F>& m) {
  m.val_table.clear();
  m.val_idx.clear();
  if (m.nnz() == 0) return false;
  auto d = dictionary_of<std::uint16_t>(std::span<const F>(m.vals));
  if (!d) return false;
  m.val_table = std::move(d->values);
  m.val_idx = std::move(d->pos);
  return true;
}

}  // namespace cuzk::r1cs
