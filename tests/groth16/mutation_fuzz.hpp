// Mutation fuzzing of file readers under a memory cap (the file-format fuzz of format_fuzz_test.cpp).
//
// A Format is a valid file plus the reader to run on it. From the valid bytes, run_mutations()
// derives every truncation, one changed byte at every offset (four kinds of change in the first
// 256 bytes, where the headers and counts are), every known integer count field set to huge or
// off-by-one values, and linked count/index pairs set together. Each mutant is parsed while the
// process's data segment is capped (DataLimit: RLIMIT_DATA, which counts every private writable
// mapping, so a malloc or std::vector sized by an unchecked count fails with std::bad_alloc
// instead of swapping).
// A mutant must either parse (a flip inside a value can leave a valid file) or throw
// cuzk::DecodeError whose message names the file and says where (a section and/or a byte
// offset, or the JSON field); std::bad_alloc, std::length_error, any other exception or a crash
// fails the test, and so does a parse slower than the time limit.
#pragma once

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <new>
#include <regex>
#include <span>
#include <string>
#include <typeinfo>
#include <vector>

#include "cuzk/error.hpp"

namespace cuzk::test {

// A field of the file that holds a count (or a size or an index): mutated to huge values.
struct CountField {
  std::string name;
  std::size_t offset;       // byte offset of the field in the file
  int width;                // 4 or 8 bytes
  bool big_endian = false;  // bellperson's counts are u32 BE
};

// A count and a field that indexes below it (domainSize and a coefficient's row, nWires and a
// term's wire): set together to v and v - 1, so that the index check passes and only the count
// itself can stop a huge allocation.
struct LinkedCounts {
  CountField count, index;
};

struct Format {
  std::string name;                  // for failure messages
  std::vector<std::uint8_t> good;    // a valid file
  // Parses a whole file (it writes the bytes to disk first when the reader takes a path).
  std::function<void(std::span<const std::uint8_t>)> parse;
  std::regex error_shape;            // every DecodeError's message must match it (std::regex_search)
  std::vector<CountField> counts;
  std::vector<LinkedCounts> linked;
};

// A value of the process's /proc/self/status ("VmData", "VmHWM", ...) in KiB, or -1.
inline long proc_status_kib(const std::string& key) {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(key + ":", 0) == 0) return std::stol(line.substr(key.size() + 1));
  return -1;
}

// Resets VmHWM to the current RSS (Linux: "5" to /proc/self/clear_refs); false if not allowed.
inline bool reset_peak_rss() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  f.flush();
  return static_cast<bool>(f);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CUZK_FUZZ_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define CUZK_FUZZ_SANITIZED 1
#endif
#endif

// Caps the data segment at its current size plus `headroom` bytes for the guard's lifetime (the
// soft limit only; restored on destruction). Not under sanitizers, whose shadow memory counts.
class DataLimit {
 public:
  explicit DataLimit(std::uint64_t headroom) {
#ifndef CUZK_FUZZ_SANITIZED
    const long data_kib = proc_status_kib("VmData");
    if (data_kib < 0 || ::getrlimit(RLIMIT_DATA, &saved_) != 0) return;
    rlimit capped = saved_;
    capped.rlim_cur = static_cast<rlim_t>(data_kib) * 1024 + headroom;
    if (saved_.rlim_max != RLIM_INFINITY) capped.rlim_cur = std::min<rlim_t>(capped.rlim_cur, saved_.rlim_max);
    active_ = ::setrlimit(RLIMIT_DATA, &capped) == 0;
#else
    (void)headroom;
#endif
  }
  ~DataLimit() {
    if (active_) (void)::setrlimit(RLIMIT_DATA, &saved_);
  }
  DataLimit(const DataLimit&) = delete;
  DataLimit& operator=(const DataLimit&) = delete;
  bool active() const { return active_; }

 private:
  rlimit saved_{};
  bool active_ = false;
};

struct FuzzStats {
  std::size_t cases = 0, parsed = 0, rejected = 0, failures = 0;
  double max_ms = 0;
  std::string slowest;
};

inline constexpr std::size_t kMaxReportedFailures = 8;

// Runs one mutant; records the outcome, reports a bad one (up to kMaxReportedFailures per format).
inline void run_case(const Format& f, std::span<const std::uint8_t> bytes, const std::string& what,
                     bool must_reject, FuzzStats& st) {
  ++st.cases;
  std::string bad;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    f.parse(bytes);
    ++st.parsed;
    if (must_reject) bad = "parsed, but it must be rejected";
  } catch (const DecodeError& e) {
    ++st.rejected;
    if (!std::regex_search(e.what(), f.error_shape))
      bad = std::string("DecodeError without file and place: ") + e.what();
  } catch (const std::bad_alloc&) {
    bad = "std::bad_alloc: an allocation sized by an unchecked count hit the memory cap";
  } catch (const std::exception& e) {
    bad = std::string("unexpected ") + typeid(e).name() + ": " + e.what();
  } catch (...) {
    bad = "unexpected non-std exception";
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (ms > st.max_ms) st.max_ms = ms, st.slowest = what;
  if (!bad.empty() && st.failures++ < kMaxReportedFailures) ADD_FAILURE() << f.name << ", " << what << ": " << bad;
}

inline void put_uint(std::vector<std::uint8_t>& b, const CountField& c, std::uint64_t v) {
  for (int i = 0; i < c.width; ++i) {
    const int byte = c.big_endian ? c.width - 1 - i : i;
    b[c.offset + static_cast<std::size_t>(byte)] = static_cast<std::uint8_t>(v >> (8 * i));
  }
}
inline std::uint64_t get_uint(const std::vector<std::uint8_t>& b, const CountField& c) {
  std::uint64_t v = 0;
  for (int i = 0; i < c.width; ++i) {
    const int byte = c.big_endian ? c.width - 1 - i : i;
    v |= std::uint64_t{b[c.offset + static_cast<std::size_t>(byte)]} << (8 * i);
  }
  return v;
}

// Every mutation of f.good (see the header comment); returns the statistics.
inline FuzzStats run_mutations(const Format& f) {
  FuzzStats st;
  const auto& good = f.good;
  // Truncations: a prefix is never a valid file in these formats.
  for (std::size_t len = 0; len < good.size(); ++len)
    run_case(f, std::span(good).first(len), "truncated to " + std::to_string(len) + " bytes", true, st);
  // One byte changed at every offset.
  std::vector<std::uint8_t> b = good;
  auto changed = [](std::uint8_t x, std::size_t kind) -> std::uint8_t {
    switch (kind % 4) {
      case 0: return static_cast<std::uint8_t>(x ^ 0x01);
      case 1: return static_cast<std::uint8_t>(x ^ 0x80);
      case 2: return x == 0xff ? 0x00 : 0xff;
      default: return static_cast<std::uint8_t>(x + 1);
    }
  };
  for (std::size_t at = 0; at < good.size(); ++at) {
    const std::size_t kinds = at < 256 ? 4 : 1;
    for (std::size_t k = 0; k < kinds; ++k) {
      const std::size_t kind = kinds == 4 ? k : at;
      b[at] = changed(good[at], kind);
      run_case(f, b, "byte " + std::to_string(at) + " changed to " + std::to_string(b[at]), false, st);
      b[at] = good[at];
    }
  }
  // Counts: huge, zero, off by one.
  auto values_for = [&](const CountField& c) {
    const std::uint64_t orig = get_uint(good, c);
    std::vector<std::uint64_t> v = {0, 1, orig + 1, orig - 1, std::uint64_t{1} << 24, std::uint64_t{1} << 27,
                                    std::uint64_t{1} << 31, 0xffffffffull, 0xfffffffeull};
    if (c.width == 8)
      v.insert(v.end(), {std::uint64_t{1} << 32, std::uint64_t{1} << 40, std::uint64_t{1} << 63, ~0ull});
    std::erase(v, orig);
    return v;
  };
  auto where = [](const CountField& c, const std::vector<std::uint8_t>& bytes) {
    return c.name + " (offset " + std::to_string(c.offset) + ") set to " + std::to_string(get_uint(bytes, c));
  };
  for (const auto& c : f.counts)
    for (const std::uint64_t v : values_for(c)) {
      b = good;
      put_uint(b, c, v);
      run_case(f, b, where(c, b), false, st);
    }
  for (const auto& [count, index] : f.linked)
    for (const std::uint64_t v : values_for(count)) {
      if (v == 0) continue;
      b = good;
      put_uint(b, count, v);
      put_uint(b, index, v - 1);
      run_case(f, b, where(count, b) + ", " + where(index, b), false, st);
    }
  return st;
}

}  // namespace cuzk::test
