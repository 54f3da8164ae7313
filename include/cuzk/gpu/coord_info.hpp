// The coordinate field of a host curve, as the GPU code instantiates it: the prime field
// Fq and the extension degree (1: G1 over Fq, 2: G2 over Fq2). Plain C++.
#pragma once

namespace cuzk::gpu {

template <class B>
struct CoordInfo {
  using Fq = B;
  static constexpr int kDeg = 1;
};
template <class B>
  requires(B::kDegree == 2)
struct CoordInfo<B> {
  using Fq = typename B::Base;
  static constexpr int kDeg = 2;
};

}  // namespace cuzk::gpu
