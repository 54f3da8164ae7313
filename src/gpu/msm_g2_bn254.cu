// GPU MSM pipeline instantiated for G2 (coordinates in Fq2) of BN254 (one curve per file:
// the Fq2 kernels are the slowest to compile, two files build in parallel).
#include "cuzk/ff/fields.hpp"
#include "msm_impl.cuh"

namespace cuzk::gpu::detail {
template void msm_window_sums<ff::bn254::Fq, 2>(const void*, std::size_t, const ScalarView&, const MsmLayout&, void*,
                                                void*, MsmWorkspace*, const Tuning&);
}  // namespace cuzk::gpu::detail
