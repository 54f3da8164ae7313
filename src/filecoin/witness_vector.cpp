#include "witness_vector.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace cuzk::filecoin::detail {

std::vector<Fr> zeroed_witness_vector(std::size_t n) {
  std::vector<Fr> w;
  w.reserve(n);
#ifdef __linux__
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20, kChunk = std::uintptr_t{64} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(w.data());
  const std::uintptr_t lo = (begin + kHuge - 1) & ~(kHuge - 1), hi = (begin + n * sizeof(Fr)) & ~(kHuge - 1);
  if (hi > lo && hi - lo >= kChunk) {
    madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
    std::atomic<bool> supported{true};
    tbb::parallel_for(std::uintptr_t{0}, (hi - lo + kChunk - 1) / kChunk, [&](std::uintptr_t c) {
      const std::uintptr_t a = lo + c * kChunk, b = std::min(hi, a + kChunk);
      if (supported.load(std::memory_order_relaxed) &&
          madvise(reinterpret_cast<void*>(a), b - a, MADV_POPULATE_WRITE) != 0)
        supported = false;
    });
#endif
  }
#endif
  w.resize(n);
  return w;
}

}  // namespace cuzk::filecoin::detail
