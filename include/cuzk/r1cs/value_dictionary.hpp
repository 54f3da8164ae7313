// The distinct values of a sequence and each entry's position among them: constraint
// matrices repeat a few coefficients (a 2^27 PoRep matrix: 36 to ~2800 distinct values over
// ~10^8 terms), so 32-byte values become 2- or 4-byte positions in a small table. Used by the
// CSR cache file (u32 positions, cs/r1cs_cache.hpp) and by the matrices' value index that the
// GPU backend reads instead of the values (u16 positions, index_values in csr.hpp's terms).
//
// Deterministic: the table lists the values in order of first occurrence whatever the
// threading (blocks are scanned in parallel; each value keeps the first entry holding it).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
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
template <class F, class V>
using ReprMap = std::unordered_map<typename F::Repr, V, ReprHash<F>>;
}  // namespace dict_detail

// The dictionary of vals with positions of type Pos, or nothing when vals holds more than
// max_values distinct values (at most Pos's range). Host memory beyond the result: a map of
// at most max_values + 1 entries per thread and a shared one of at most twice that, whatever
// the size of vals (a matrix with many distinct values is given up early, not collected).
template <class Pos, class F>
std::optional<ValueDictionary<F, Pos>> dictionary_of(std::span<const F> vals,
                                                     std::size_t max_values = std::size_t{std::numeric_limits<Pos>::max()} + 1) {
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  const std::size_t blocks = (vals.size() + kBlock - 1) / kBlock;
  // Pass 1: every distinct value and the first entry holding it, blocks in parallel, each
  // block's first occurrences merged into `first` under the lock; stops past max_values.
  dict_detail::ReprMap<F, std::uint64_t> first;
  std::mutex mu;
  std::atomic<bool> over{false};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks), [&](const auto& r) {
    dict_detail::ReprMap<F, std::uint64_t> local;
    for (std::size_t i = r.begin(); i != r.end() && !over.load(std::memory_order_relaxed); ++i) {
      local.clear();
      const typename F::Repr* prev = nullptr;
      for (std::size_t k = i * kBlock, e = std::min(vals.size(), k + kBlock); k < e; ++k) {
        const auto& v = vals[k].mont();
        if (prev != nullptr && v == *prev) continue;  // runs of one value are common
        prev = &v;
        if (local.try_emplace(v, k).second && local.size() > max_values) {
          over = true;
          return;
        }
      }
      const std::lock_guard<std::mutex> lock(mu);
      for (const auto& [v, k] : local) {
        auto [it, fresh] = first.try_emplace(v, k);
        if (!fresh && k < it->second) it->second = k;
      }
      if (first.size() > max_values) over = true;
    }
  });
  if (over) return std::nullopt;
  // The table in order of first occurrence, whatever order the blocks were merged in.
  std::vector<std::uint64_t> firsts;  // the entries where a value occurs first
  firsts.reserve(first.size());
  for (const auto& kv : first) firsts.push_back(kv.second);
  std::sort(firsts.begin(), firsts.end());
  ValueDictionary<F, Pos> d;
  dict_detail::ReprMap<F, std::uint32_t> at;
  d.values.reserve(firsts.size());
  for (const std::uint64_t k : firsts) {
    at.emplace(vals[k].mont(), static_cast<std::uint32_t>(d.values.size()));
    d.values.push_back(vals[k]);
  }
  // Pass 2: each entry's position, in parallel (the map is only read).
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
