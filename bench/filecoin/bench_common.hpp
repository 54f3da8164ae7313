// Shared by the Filecoin benchmarks (post_bench, porep_bench): wall-clock timing, and a
// partition's QAP matrices A and B the way the GPU reads them (value-indexed, without their
// values; C left out: the bellperson H takes a and b only).
#pragma once

#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::bench {

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// A Filecoin benchmark's main: CUZK_BENCH_THREADS bounds oneTBB's threads; `body` returns false
// for a mode it does not know (the usage on stderr, exit 2); an exception is printed (exit 1).
template <class Body>
int bench_main(const char* usage, Body&& body) {
  std::optional<tbb::global_control> threads;
  if (const char* t = std::getenv("CUZK_BENCH_THREADS"))
    threads.emplace(tbb::global_control::max_allowed_parallelism, std::atoi(t));
  try {
    if (!body()) {
      std::fprintf(stderr, "usage: %s\n", usage);
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}

// The threads oneTBB may use (CUZK_BENCH_THREADS's bound when set: the arena's own
// max_concurrency does not see a global_control).
inline int bench_threads() {
  return static_cast<int>(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
}

// A sector size written "2KiB", "8MiB", "32GiB" (or a byte count) in bytes. Throws
// std::invalid_argument for another unit.
inline std::uint64_t sector_size_bytes(std::string_view size) {
  std::size_t used = 0;
  const std::string s(size);
  std::uint64_t bytes = std::stoull(s, &used);
  const std::string unit = s.substr(used);
  if (unit == "KiB") bytes <<= 10;
  else if (unit == "MiB") bytes <<= 20;
  else if (unit == "GiB") bytes <<= 30;
  else if (!unit.empty()) throw std::invalid_argument("sector size " + s + ": expected a number and KiB, MiB or GiB");
  return bytes;
}

// A and B with the QAP's binding rows (one ONE term per public wire in A, empty rows in B), each
// term's value a 16-bit position in val_table (6 bytes a term with its column): what DeviceCsr
// uploads. vals is left empty.
struct IndexedQap {
  r1cs::CsrMatrix<filecoin::Fr> a, b;
  std::size_t num_vars = 0, num_public = 0, constraints = 0, domain_size = 0;
};

// The position of ONE in a value table, appended when missing: the binding rows' coefficient.
inline std::uint16_t value_position_of_one(std::vector<filecoin::Fr>& table) {
  auto it = std::find(table.begin(), table.end(), filecoin::Fr::one());
  if (it == table.end()) {
    if (table.size() >= 65536) throw std::runtime_error("no room for ONE in a full value table");
    table.push_back(filecoin::Fr::one());
    it = table.end() - 1;
  }
  return static_cast<std::uint16_t>(it - table.begin());
}

}  // namespace cuzk::bench
