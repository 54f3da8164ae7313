// PTX carry-chain instructions for the device field arithmetic (DevFp), one helper per
// instruction, and their CPU emulation for tests (CUZK_GPU_EMULATE_PTX). Defines
// CUZK_GPU_PTX_PATH when either is in use, and the CUZK_HD / CUZK_UNROLL macros.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__ __forceinline__
#else
#define CUZK_HD inline
#endif
#if defined(__CUDA_ARCH__)
#define CUZK_UNROLL _Pragma("unroll")
#else
#define CUZK_UNROLL
#endif

namespace cuzk::gpu {

#if defined(__CUDA_ARCH__)
namespace ptx {
// Each helper is one PTX instruction. The carry flag lives between consecutive asm
// statements of one chain; the chains below contain no other code between them.
__device__ __forceinline__ std::uint32_t add_cc(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r;
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ std::uint32_t addc_cc(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r;
  asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ std::uint32_t addc(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r;
  asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ std::uint32_t sub_cc(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r;
  asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ std::uint32_t subc_cc(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r;
  asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ std::uint32_t subc(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r;
  asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ std::uint32_t mad_lo_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t r;
  asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
__device__ __forceinline__ std::uint32_t madc_lo_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t r;
  asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
__device__ __forceinline__ std::uint32_t mad_hi_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t r;
  asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
__device__ __forceinline__ std::uint32_t madc_hi_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t r;
  asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
__device__ __forceinline__ std::uint32_t madc_hi(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t r;
  asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
}  // namespace ptx
#elif defined(CUZK_GPU_EMULATE_PTX)
// Host emulation of the PTX carry-chain instructions (tests only): runs the device
// path's exact instruction sequence on the CPU. CC.CF is a thread-local flag.
namespace ptx {
inline std::uint32_t& cf() {
  thread_local std::uint32_t f = 0;
  return f;
}
inline std::uint32_t put(std::uint64_t s) {
  cf() = static_cast<std::uint32_t>(s >> 32) & 1;
  return static_cast<std::uint32_t>(s);
}
inline std::uint32_t add_cc(std::uint32_t a, std::uint32_t b) { return put(std::uint64_t{a} + b); }
inline std::uint32_t addc_cc(std::uint32_t a, std::uint32_t b) { return put(std::uint64_t{a} + b + cf()); }
inline std::uint32_t addc(std::uint32_t a, std::uint32_t b) { return static_cast<std::uint32_t>(std::uint64_t{a} + b + cf()); }
inline std::uint32_t sub_cc(std::uint32_t a, std::uint32_t b) { return put(std::uint64_t{a} - b); }
inline std::uint32_t subc_cc(std::uint32_t a, std::uint32_t b) { return put(std::uint64_t{a} - b - cf()); }
inline std::uint32_t subc(std::uint32_t a, std::uint32_t b) { return static_cast<std::uint32_t>(std::uint64_t{a} - b - cf()); }
inline std::uint32_t lo(std::uint32_t a, std::uint32_t b) { return static_cast<std::uint32_t>(std::uint64_t{a} * b); }
inline std::uint32_t hi(std::uint32_t a, std::uint32_t b) { return static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32); }
inline std::uint32_t mad_lo_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return put(std::uint64_t{lo(a, b)} + c); }
inline std::uint32_t madc_lo_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return put(std::uint64_t{lo(a, b)} + c + cf()); }
inline std::uint32_t mad_hi_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return put(std::uint64_t{hi(a, b)} + c); }
inline std::uint32_t madc_hi_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return put(std::uint64_t{hi(a, b)} + c + cf()); }
inline std::uint32_t madc_hi(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  return static_cast<std::uint32_t>(std::uint64_t{hi(a, b)} + c + cf());
}
}  // namespace ptx
#endif

}  // namespace cuzk::gpu

#if defined(__CUDA_ARCH__) || defined(CUZK_GPU_EMULATE_PTX)
#define CUZK_GPU_PTX_PATH 1
#endif
