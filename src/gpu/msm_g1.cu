// GPU MSM pipeline instantiated for G1 (coordinates in Fq) of BLS12-381 and BN254.
#include "cuzk/ff/fields.hpp"
#include "msm_impl.cuh"

namespace cuzk::gpu::detail {
template void msm_window_sums<ff::bls12_381::Fq, 1>(const void*, std::size_t, const ScalarView&, const MsmLayout&,
                                                    void*, void*, MsmWorkspace*, const Tuning&);
template void msm_window_sums<ff::bn254::Fq, 1>(const void*, std::size_t, const ScalarView&, const MsmLayout&, void*,
                                                void*, MsmWorkspace*, const Tuning&);
}  // namespace cuzk::gpu::detail
