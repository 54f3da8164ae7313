// Device prime-field arithmetic on 32-bit limbs: DevFp<C>.
//
// Same bytes as the host Fp<P>: 2*kLimbs little-endian u32 words holding x*R mod p,
// R = 2^(64*kLimbs) = 2^(32*N), always fully reduced (< p), so buffers of host field
// elements are copied to the device as they are.
//
// C supplies: static constexpr int kN (32-bit limbs), and __host__ __device__ constexpr
// functions p(i) (modulus limbs), one(i) (R mod p) and inv() (-p^-1 mod 2^32). It must
// leave a spare top bit (2p < 2^(32N)); every BLS12-381 / BN254 field does.
//
// Every operation is __host__ __device__: on the device (__CUDA_ARCH__) the multiply
// and the add/sub chains use PTX carry chains (mad.lo.cc / madc.hi.cc / addc / subc);
// on the host a portable 64-bit path computes the same function, so the logic can be
// tested on a machine without a GPU against the host Fp<P>.
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
#if defined(__CUDA_ARCH__) || defined(CUZK_GPU_EMULATE_PTX)
#define CUZK_GPU_PTX_PATH 1
#endif

template <class C>
struct DevFp {
  static constexpr int N = C::kN;
  std::uint32_t l[N];

  static CUZK_HD DevFp zero() {
    DevFp r;
CUZK_UNROLL
    for (int i = 0; i < N; ++i) r.l[i] = 0;
    return r;
  }
  static CUZK_HD DevFp one() {
    DevFp r;
CUZK_UNROLL
    for (int i = 0; i < N; ++i) r.l[i] = C::one(i);
    return r;
  }
  CUZK_HD bool is_zero() const {
    std::uint32_t acc = 0;
CUZK_UNROLL
    for (int i = 0; i < N; ++i) acc |= l[i];
    return acc == 0;
  }
  CUZK_HD bool operator==(const DevFp& o) const {
    std::uint32_t acc = 0;
CUZK_UNROLL
    for (int i = 0; i < N; ++i) acc |= l[i] ^ o.l[i];
    return acc == 0;
  }

  // r = (r >= p) ? r - p : r, for r < 2p (no carry out of the top limb).
  static CUZK_HD void reduce_once(std::uint32_t (&r)[N]) {
    std::uint32_t s[N];
#if defined(CUZK_GPU_PTX_PATH)
    s[0] = ptx::sub_cc(r[0], C::p(0));
CUZK_UNROLL
    for (int i = 1; i < N; ++i) s[i] = ptx::subc_cc(r[i], C::p(i));
    const std::uint32_t borrow = ptx::subc(0, 0);  // 0 or 0xffffffff
#else
    std::uint64_t br = 0;
    for (int i = 0; i < N; ++i) {
      const std::uint64_t d = std::uint64_t{r[i]} - C::p(i) - br;
      s[i] = static_cast<std::uint32_t>(d);
      br = (d >> 32) & 1;
    }
    const std::uint32_t borrow = br ? 0xffffffffu : 0u;
#endif
CUZK_UNROLL
    for (int i = 0; i < N; ++i) r[i] = (s[i] & ~borrow) | (r[i] & borrow);
  }

  CUZK_HD DevFp operator+(const DevFp& o) const {
    DevFp r;
#if defined(CUZK_GPU_PTX_PATH)
    r.l[0] = ptx::add_cc(l[0], o.l[0]);
CUZK_UNROLL
    for (int i = 1; i < N - 1; ++i) r.l[i] = ptx::addc_cc(l[i], o.l[i]);
    r.l[N - 1] = ptx::addc(l[N - 1], o.l[N - 1]);
#else
    std::uint64_t c = 0;
    for (int i = 0; i < N; ++i) {
      const std::uint64_t s = std::uint64_t{l[i]} + o.l[i] + c;
      r.l[i] = static_cast<std::uint32_t>(s);
      c = s >> 32;
    }
#endif
    reduce_once(r.l);
    return r;
  }

  CUZK_HD DevFp operator-(const DevFp& o) const {
    DevFp r;
#if defined(CUZK_GPU_PTX_PATH)
    r.l[0] = ptx::sub_cc(l[0], o.l[0]);
CUZK_UNROLL
    for (int i = 1; i < N; ++i) r.l[i] = ptx::subc_cc(l[i], o.l[i]);
    const std::uint32_t mask = ptx::subc(0, 0);
    r.l[0] = ptx::add_cc(r.l[0], C::p(0) & mask);
CUZK_UNROLL
    for (int i = 1; i < N - 1; ++i) r.l[i] = ptx::addc_cc(r.l[i], C::p(i) & mask);
    r.l[N - 1] = ptx::addc(r.l[N - 1], C::p(N - 1) & mask);
#else
    std::uint64_t br = 0;
    for (int i = 0; i < N; ++i) {
      const std::uint64_t d = std::uint64_t{l[i]} - o.l[i] - br;
      r.l[i] = static_cast<std::uint32_t>(d);
      br = (d >> 32) & 1;
    }
    const std::uint32_t mask = br ? 0xffffffffu : 0u;
    std::uint64_t c = 0;
    for (int i = 0; i < N; ++i) {
      const std::uint64_t s = std::uint64_t{r.l[i]} + (C::p(i) & mask) + c;
      r.l[i] = static_cast<std::uint32_t>(s);
      c = s >> 32;
    }
#endif
    return r;
  }

  CUZK_HD DevFp operator-() const { return zero() - *this; }
  CUZK_HD DevFp dbl() const { return *this + *this; }

  // Montgomery product a*b/R mod p (CIOS, one row per limb of b).
  CUZK_HD DevFp operator*(const DevFp& o) const {
    DevFp r;
    mont_mul(r.l, l, o.l);
    return r;
  }
  CUZK_HD DevFp square() const { return *this * *this; }
  CUZK_HD DevFp& operator+=(const DevFp& o) { return *this = *this + o; }
  CUZK_HD DevFp& operator-=(const DevFp& o) { return *this = *this - o; }
  CUZK_HD DevFp& operator*=(const DevFp& o) { return *this = *this * o; }

  static CUZK_HD void mont_mul(std::uint32_t (&r)[N], const std::uint32_t (&a)[N], const std::uint32_t (&b)[N]) {
    // Invariant: t < 2p at each row start. Within a row t < 2p + p(2^32-1) + p(2^32-1)
    // < p 2^33 <= 2^(32(N+1)) because p < 2^(32N-1) (the spare bit): N+1 words suffice
    // and the last carry of each chain is never set.
    std::uint32_t t[N + 1];
CUZK_UNROLL
    for (int j = 0; j < N + 1; ++j) t[j] = 0;
CUZK_UNROLL
    for (int i = 0; i < N; ++i) {
      const std::uint32_t bi = b[i];
#if defined(CUZK_GPU_PTX_PATH)
      // t += a * b_i: low halves into t[j], high halves into t[j+1].
      t[0] = ptx::mad_lo_cc(a[0], bi, t[0]);
CUZK_UNROLL
      for (int j = 1; j < N; ++j) t[j] = ptx::madc_lo_cc(a[j], bi, t[j]);
      t[N] = ptx::addc(t[N], 0);
      t[1] = ptx::mad_hi_cc(a[0], bi, t[1]);
CUZK_UNROLL
      for (int j = 1; j < N - 1; ++j) t[j + 1] = ptx::madc_hi_cc(a[j], bi, t[j + 1]);
      t[N] = ptx::madc_hi(a[N - 1], bi, t[N]);
      // t += m * p with m = t_0 * (-p^-1) mod 2^32, which zeroes t[0].
      const std::uint32_t m = t[0] * C::inv();
      t[0] = ptx::mad_lo_cc(m, C::p(0), t[0]);
CUZK_UNROLL
      for (int j = 1; j < N; ++j) t[j] = ptx::madc_lo_cc(m, C::p(j), t[j]);
      t[N] = ptx::addc(t[N], 0);
      t[1] = ptx::mad_hi_cc(m, C::p(0), t[1]);
CUZK_UNROLL
      for (int j = 1; j < N - 1; ++j) t[j + 1] = ptx::madc_hi_cc(m, C::p(j), t[j + 1]);
      t[N] = ptx::madc_hi(m, C::p(N - 1), t[N]);
#else
      std::uint64_t c = 0;
      for (int j = 0; j < N; ++j) {
        const std::uint64_t s = std::uint64_t{a[j]} * bi + t[j] + c;
        t[j] = static_cast<std::uint32_t>(s);
        c = s >> 32;
      }
      t[N] = static_cast<std::uint32_t>(t[N] + c);
      const std::uint32_t m = t[0] * C::inv();
      c = 0;
      for (int j = 0; j < N; ++j) {
        const std::uint64_t u = std::uint64_t{m} * C::p(j) + t[j] + c;
        t[j] = static_cast<std::uint32_t>(u);
        c = u >> 32;
      }
      t[N] = static_cast<std::uint32_t>(t[N] + c);
#endif
      // divide by 2^32 (t[0] == 0): a renaming once unrolled.
CUZK_UNROLL
      for (int j = 0; j < N; ++j) t[j] = t[j + 1];
      t[N] = 0;
    }
    // t < 2p < 2^(32N): t[N] == 0.
CUZK_UNROLL
    for (int j = 0; j < N; ++j) r[j] = t[j];
    reduce_once(r);
  }
};

}  // namespace cuzk::gpu
