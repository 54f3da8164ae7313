// A PowerTable (cuzk/gpu/ntt.hpp) as the kernels' view of it (kern::PowTab).
#pragma once

#include "cuzk/gpu/ntt.hpp"
#include "dev_cast.cuh"
#include "kernels.cuh"

namespace cuzk::gpu {
namespace {
template <class F>
kern::PowTab<D<F>> tab_of(const PowerTable<F>& t) {
  return {dev(t.lo()), dev(t.hi()), t.bits()};
}
}  // namespace
}  // namespace cuzk::gpu
