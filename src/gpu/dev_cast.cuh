// Views of host field buffers as device field elements: the two types have the same bytes
// (little-endian Montgomery limbs), so a device pointer to F is a pointer to DevField<F>.
#pragma once

#include <cstring>

#include "cuzk/gpu/dev_params.cuh"

namespace cuzk::gpu {
namespace {
template <class F>
using D = DevField<F>;
template <class F>
D<F>* dev(F* p) {
  static_assert(sizeof(D<F>) == sizeof(F));
  return reinterpret_cast<D<F>*>(p);
}
template <class F>
const D<F>* dev(const F* p) {
  return reinterpret_cast<const D<F>*>(p);
}
template <class F>
D<F> to_dev(const F& x) {  // one element by value (a kernel argument)
  D<F> d;
  static_assert(sizeof(d) == sizeof(x));
  std::memcpy(&d, &x, sizeof(x));
  return d;
}
}  // namespace
}  // namespace cuzk::gpu
