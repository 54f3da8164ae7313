// The device NTT's pass kernel (private to src/gpu/ntt.cu): ntt_pass_block (ntt_pass_body.cuh)
// for each block of the launch, its tile in dynamic shared memory.
#pragma once

#include <cstdint>

#include "ntt_pass_body.cuh"

namespace cuzk::gpu::kern {

// See ntt_pass_block. Radix 4 is bounded to 80 registers (3 blocks of 256 per SM).
template <class D, bool kGs, int kLogTile, bool kR4, bool kSplit>
__global__ void __launch_bounds__(256, kR4 ? 3 : 1)
    ntt_pass_kernel(D* x, int log_n, int s, int t, int log_c, Twiddles<D, kSplit> tw, int scale_map,
                    PowTab<D> scale, bool reduce_out) {
  extern __shared__ std::uint32_t sm[];
  ntt_pass_block<D, kGs, kLogTile, kR4, kSplit>(blockIdx.x, threadIdx.x, blockDim.x, sm, x, log_n, s, t, log_c, tw,
                                                scale_map, scale, reduce_out);
}

}  // namespace cuzk::gpu::kern
