// DeviceScalars (cuzk/gpu/msm.hpp): Montgomery -> canonical on the device, and the
// index lists of the scalars equal to 1 and greater than 1 (zeros are dropped).
#include <cub/device/device_scan.cuh>
#include <stdexcept>
#include <string>

#include "check.cuh"
#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/staged_upload.hpp"
#include "dev_cast.cuh"
#include "kernels.cuh"

namespace cuzk::gpu {

namespace {
using u32 = std::uint32_t;

// Word k of x_i / R (one Montgomery product by the plain integer 1) to canon[k n + i] (word
// planes, ScalarView::canonical); flags for 1 and > 1.
template <class Dv>
__global__ void canonical_kernel(const Dv* in, std::uint64_t n, u32* canon, u32* f_one, u32* f_big) {
  static_assert(Dv::N == kScalarWords);
  const std::uint64_t i = kern::global_id();
  if (i == 0) f_one[n] = f_big[n] = 0;
  if (i >= n) return;
  Dv raw_one = Dv::zero();
  raw_one.l[0] = 1;
  const Dv c = kern::ld(in + i) * raw_one;
  u32 rest = 0;
#pragma unroll
  for (int k = 0; k < Dv::N; ++k) {
    canon[k * n + i] = c.l[k];
    if (k) rest |= c.l[k];
  }
  const bool one = rest == 0 && c.l[0] == 1, zero = rest == 0 && c.l[0] == 0;
  f_one[i] = one;
  f_big[i] = !one && !zero;
}

__global__ void scatter_kernel(const u32* flag, const u32* pos, std::uint64_t n, u32* out) {
  const std::uint64_t i = kern::global_id();
  if (i < n && flag[i]) out[pos[i]] = static_cast<u32>(i);
}

template <class Fr>
unsigned modulus_bits() {
  unsigned top = Fr::kLimbs - 1;
  while (top > 0 && Fr::kModulus[top] == 0) --top;
  return 64 * top + static_cast<unsigned>(64 - __builtin_clzll(Fr::kModulus[top]));
}
}  // namespace

template <class Fr>
DeviceScalars<Fr> DeviceScalars<Fr>::from_host(std::span<const Fr> s) {
  DeviceBuffer<Fr> tmp(s.size(), DeviceAlloc::kStreamOrdered);
  // Large pageable uploads go through pinned staging on a copy stream (~3.5x the driver's
  // pageable copy on the H200); page-locked ones are one asynchronous copy. Below the
  // threshold the staging allocation (~10 ms for 32 MiB) eats the gain (measured: 2^22
  // scalars, 128 MiB, were 6 ms slower staged).
  constexpr std::size_t kStageFrom = std::size_t{256} << 20;  // 2^23 scalars
  if (!s.empty() && (s.size_bytes() >= kStageFrom || is_pinned_range(s.data(), s.size_bytes()))) {
    stream_synchronize();  // the copy stream writes tmp: its allocation comes first
    StagedUploader up;
    up.upload(tmp.data(), s.data(), s.size_bytes());
    up.synchronize();
  } else {
    tmp.upload(s);
  }
  return from_device(tmp.data(), s.size());
}

template <class Fr>
DeviceScalars<Fr> DeviceScalars<Fr>::from_device(const Fr* d, std::size_t n) {
  if (n >= (std::size_t{1} << 31))
    throw std::invalid_argument("gpu msm: " + std::to_string(n) + " scalars exceed 2^31 - 1");
  DeviceScalars out;
  out.view_.n = n;
  out.view_.nbits = modulus_bits<Fr>();
  if (n == 0) return out;
  out.canonical_ = DeviceBuffer<u32>(n * kScalarWords, DeviceAlloc::kStreamOrdered);
  DeviceBuffer<u32> flags(2 * (n + 1), DeviceAlloc::kStreamOrdered), pos(2 * (n + 1), DeviceAlloc::kStreamOrdered);
  u32* f_one = flags.data();
  u32* f_big = flags.data() + n + 1;
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  canonical_kernel<<<blocks, 256>>>(dev(d), n, out.canonical_.data(), f_one, f_big);
  CUZK_CUDA_LAUNCH_CHECK("canonical_kernel");
  std::size_t tb = 0;
  CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tb, f_one, pos.data(), static_cast<int>(n + 1)));
  DeviceBuffer<std::byte> temp(tb, DeviceAlloc::kStreamOrdered);
  u32 counts[2];
  for (int k = 0; k < 2; ++k) {
    std::size_t b = tb;
    CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), b, flags.data() + k * (n + 1),
                                                  pos.data() + k * (n + 1), static_cast<int>(n + 1)));
    copy_to_host(&counts[k], pos.data() + k * (n + 1) + n, 4);
  }
  out.ones_ = DeviceBuffer<u32>(counts[0], DeviceAlloc::kStreamOrdered);
  out.others_ = DeviceBuffer<u32>(counts[1], DeviceAlloc::kStreamOrdered);
  if (counts[0]) scatter_kernel<<<blocks, 256>>>(f_one, pos.data(), n, out.ones_.data());
  if (counts[1]) scatter_kernel<<<blocks, 256>>>(f_big, pos.data() + n + 1, n, out.others_.data());
  CUZK_CUDA_LAUNCH_CHECK("scatter_kernel");
  stream_synchronize();  // other streams may read the lists from here on (runtime.hpp, DeviceAlloc)
  out.view_.canonical = out.canonical_.data();
  out.view_.ones = out.ones_.data();
  out.view_.others = out.others_.data();
  out.view_.num_ones = counts[0];
  out.view_.num_others = counts[1];
  return out;
}

template class DeviceScalars<ff::bls12_381::Fr>;
template class DeviceScalars<ff::bn254::Fr>;

}  // namespace cuzk::gpu
