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

#include "cuzk/gpu/dev_mont_f64.cuh"
#include "cuzk/gpu/dev_mont_pairs.cuh"
#include "cuzk/gpu/dev_ptx.cuh"

namespace cuzk::gpu {


// kOutline: on the device, operator* calls one out-of-line copy of the product instead of
// inlining it at every use; the MSM kernels use it. Inlined, a G1 mixed addition is ~7000
// instructions (10 products) and the accumulation kernel waited for instructions 4.4 of
// every 10.3 cycles (ncu, chunk_sum_kernel, G1 2^20); out of line its FMA pipe is the limit.
// Measured on the H200: G2 MSM 2^20 60.8 -> 41.8 ms (the G2 kernels also stopped spilling
// most of their registers), G1 2^26 accumulation 502 -> 457 ms (with 168 registers, where the
// inlined version did best with 128).
template <class C, bool kOutline = false>
struct DevFp {
  using Params = C;
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
    sub_wrap<ModulusWords>(r.l, l, o.l);
    return r;
  }

  // r = a - b, plus the modulus M (M::word(i), e.g. p, or 2p for Lazy2p) when it borrows;
  // the carry out of that addition is dropped (a - b + M < 2^(32N) for a, b < M).
  struct ModulusWords {
    static CUZK_HD constexpr std::uint32_t word(int i) { return C::p(i); }
  };
  template <class M>
  static CUZK_HD void sub_wrap(std::uint32_t (&r)[N], const std::uint32_t (&a)[N], const std::uint32_t (&b)[N]) {
#if defined(CUZK_GPU_PTX_PATH)
    r[0] = ptx::sub_cc(a[0], b[0]);
CUZK_UNROLL
    for (int i = 1; i < N; ++i) r[i] = ptx::subc_cc(a[i], b[i]);
    const std::uint32_t mask = ptx::subc(0, 0);
    r[0] = ptx::add_cc(r[0], M::word(0) & mask);
CUZK_UNROLL
    for (int i = 1; i < N - 1; ++i) r[i] = ptx::addc_cc(r[i], M::word(i) & mask);
    r[N - 1] = ptx::addc(r[N - 1], M::word(N - 1) & mask);
#else
    std::uint64_t br = 0;
    for (int i = 0; i < N; ++i) {
      const std::uint64_t d = std::uint64_t{a[i]} - b[i] - br;
      r[i] = static_cast<std::uint32_t>(d);
      br = (d >> 32) & 1;
    }
    const std::uint32_t mask = br ? 0xffffffffu : 0u;
    std::uint64_t c = 0;
    for (int i = 0; i < N; ++i) {
      const std::uint64_t s = std::uint64_t{r[i]} + (M::word(i) & mask) + c;
      r[i] = static_cast<std::uint32_t>(s);
      c = s >> 32;
    }
#endif
  }

  CUZK_HD DevFp operator-() const { return zero() - *this; }
  CUZK_HD DevFp dbl() const { return *this + *this; }

  // Montgomery product a*b/R mod p (mont_mul).
  CUZK_HD DevFp operator*(const DevFp& o) const {
#if defined(__CUDA_ARCH__)
    if constexpr (kOutline) return mul_outlined(*this, o);
#endif
    DevFp r;
    mont_mul(r.l, l, o.l);
    return r;
  }
#if defined(__CUDA_ARCH__)
  static __device__ __noinline__ DevFp mul_outlined(DevFp a, DevFp b) {
    DevFp r;
    mont_mul(r.l, a.l, b.l);
    return r;
  }
#endif
  CUZK_HD DevFp square() const { return *this * *this; }
  CUZK_HD DevFp& operator+=(const DevFp& o) { return *this = *this + o; }
  CUZK_HD DevFp& operator-=(const DevFp& o) { return *this = *this - o; }
  CUZK_HD DevFp& operator*=(const DevFp& o) { return *this = *this * o; }

  // r = a*b/R mod p: the aligned-pair CIOS (MontPairs) on the device (and in PTX emulation),
  // the portable 64-bit CIOS elsewhere. On the H200 (gpu_mul_bench, 2026-12-03) MontPairs does
  // 57.4 Gmul/s for BLS12-381 Fr and 27.5 for Fq, the earlier split CIOS (two accumulators
  // indexed by absolute word, removed; git history) 55.1 and 25.4 (its register pairs changed
  // alignment every row: 249 moves per Fq product in the disassembly), the portable one 39
  // and 17. A one-level Karatsuba product with a separate Montgomery reduction did 44 and
  // 16.6; a separated-operand squaring and a*b - c*d with one reduction
  // (fewer IMAD.WIDE, but absolute-word accumulators again) 26.0 and 27.0 for Fq, no better
  // than MontPairs (bench/gpu/NOTES.md).
  static CUZK_HD void mont_mul(std::uint32_t (&r)[N], const std::uint32_t (&a)[N], const std::uint32_t (&b)[N]) {
#if defined(CUZK_GPU_PTX_PATH)
    MontPairs<C>::mul(r, a, b);
    reduce_once(r);
#else
    mont_mul_portable(r, a, b);
#endif
  }

  // r = a^2/R mod p: MontPairs::sqr on the device (222 multiply-adds instead of 288 for
  // BLS12-381 Fq; the MSM's level 0 uses it for the squares of its additions), the portable
  // product elsewhere.
  static CUZK_HD void mont_sqr(std::uint32_t (&r)[N], const std::uint32_t (&a)[N]) {
#if defined(CUZK_GPU_PTX_PATH)
    MontPairs<C>::sqr(r, a);
    reduce_once(r);
#else
    mont_mul_portable(r, a, a);
#endif
  }

  // r = (x y + z w)/R mod p for x, z <= p and y, w < p: MontPairs::mul2 (two products, one
  // reduction; needs 3p < 2^(32N), so not BLS12-381 Fr) on the device, two products elsewhere.
  static CUZK_HD void mont_mul2(std::uint32_t (&r)[N], const std::uint32_t (&x)[N], const std::uint32_t (&y)[N],
                                const std::uint32_t (&z)[N], const std::uint32_t (&w)[N]) {
#if defined(CUZK_GPU_PTX_PATH)
    MontPairs<C>::mul2(r, x, y, z, w);
    reduce_once(r);  // < 3p -> < 2p
    reduce_once(r);
#else
    DevFp a, b;
    mont_mul_portable(a.l, x, y);
    mont_mul_portable(b.l, z, w);
    a += b;
CUZK_UNROLL
    for (int k = 0; k < N; ++k) r[k] = a.l[k];
#endif
  }

  // The same product through the FP64 pipe (MontF64: 52-bit limbs in doubles, FMA samples,
  // integer column sums); bit for bit mont_mul's result on every input, on the host too.
  // Slower than mont_mul on the H200 (Fr 52.7 vs 57.4, Fq 25.1 vs 27.5 Gmul/s); only the
  // benchmarks and the tests use it (dev_mont_f64.cuh says why).
  static CUZK_HD void mont_mul_f64(std::uint32_t (&r)[N], const std::uint32_t (&a)[N], const std::uint32_t (&b)[N]) {
    MontF64<C>::mul(r, a, b);
    reduce_once(r);
  }
  CUZK_HD DevFp mul_f64(const DevFp& o) const {
    DevFp r;
    mont_mul_f64(r.l, l, o.l);
    return r;
  }

  // Portable CIOS on 64-bit products (any compiler; on the device it is one of the
  // variants timed by gpu_mul_bench).
  static CUZK_HD void mont_mul_portable(std::uint32_t (&r)[N], const std::uint32_t (&a)[N],
                                        const std::uint32_t (&b)[N]) {
    // Invariant: t < 2p at each row start; t + a b_i + m p < 2^33 p < 2^(32(N+1)) because
    // p < 2^(32N-1) (the spare bit), so N+1 words hold every row.
    std::uint32_t t[N + 1];
CUZK_UNROLL
    for (int j = 0; j < N + 1; ++j) t[j] = 0;
CUZK_UNROLL
    for (int i = 0; i < N; ++i) {
      const std::uint32_t bi = b[i];
      std::uint64_t c = 0;
CUZK_UNROLL
      for (int j = 0; j < N; ++j) {
        const std::uint64_t s = std::uint64_t{a[j]} * bi + t[j] + c;
        t[j] = static_cast<std::uint32_t>(s);
        c = s >> 32;
      }
      t[N] = static_cast<std::uint32_t>(t[N] + c);
      const std::uint32_t m = t[0] * C::inv();
      c = 0;
CUZK_UNROLL
      for (int j = 0; j < N; ++j) {
        const std::uint64_t u = std::uint64_t{m} * C::p(j) + t[j] + c;
        t[j] = static_cast<std::uint32_t>(u);
        c = u >> 32;
      }
      t[N] = static_cast<std::uint32_t>(t[N] + c);
CUZK_UNROLL
      for (int j = 0; j < N; ++j) t[j] = t[j + 1];  // t[0] == 0: divide by 2^32
      t[N] = 0;
    }
CUZK_UNROLL
    for (int j = 0; j < N; ++j) r[j] = t[j];
    reduce_once(r);
  }
};

}  // namespace cuzk::gpu
