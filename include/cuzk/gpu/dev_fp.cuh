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
  // 57.4 Gmul/s for BLS12-381 Fr and 27.5 for Fq, the split CIOS below 55.1 and 25.4 (its
  // register pairs change alignment every row: 249 moves per Fq product in the disassembly),
  // the portable one 39 and 17. A one-level Karatsuba product with a separate Montgomery
  // reduction did 44 and 16.6; a separated-operand squaring and a*b - c*d with one reduction
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

#if defined(CUZK_GPU_PTX_PATH)
  // The earlier device product, kept as gpu_mul_bench's reference and tested against the host.
  // CIOS over two accumulators E and O (word k of each weighs 2^(32k)): the products
  // a_j b_i and m p_j of even j go to E (lo half at word i+j, hi half at i+j+1, one carry
  // chain of N instructions), those of odd j to O. The E and O chains of a row are
  // independent, so the critical path per row is about 2N instead of 4N. Row i:
  //   - carry in: E[i-1] + O[i-1] is 0 mod 2^32 after row i-1, so it is 0 or 2^32; its
  //     carry enters row i's E chain;
  //   - E[i..i+N] += even part of a b_i; O[i+1..i+N] += odd part;
  //   - m = (E[i] + O[i]) (-p^-1) mod 2^32, then the same two chains for m p.
  // Bounds: E, O <= T = E + O < 2^(32(N+1)) relative to word i (the CIOS invariant), so the
  // E chain's carry stops in E[i+N] and the O chain never carries out of O[i+N].
  // A modulus whose low 64 bits are 0xffffffff00000001 (BLS12-381 Fr) needs no multiply
  // for words 0 and 1 of m p: m p_0 = m and m p_1 = 2^32 m - m. That drops 2 of the 2N + 1
  // IMAD.WIDE of a row (-p^-1 = -1 mod 2^32 there too, so m is a negation).
  static constexpr bool kP0IsOne = C::p(0) == 1;
  static constexpr bool kP1IsOnes = C::p(1) == 0xffffffffu;
  static CUZK_HD void mont_mul_split(std::uint32_t (&r)[N], const std::uint32_t (&a)[N],
                                     const std::uint32_t (&b)[N]) {
    static_assert(N % 2 == 0 && N >= 4);
    std::uint32_t E[2 * N], O[2 * N];
CUZK_UNROLL
    for (int k = 0; k < 2 * N; ++k) E[k] = 0, O[k] = 0;
CUZK_UNROLL
    for (int i = 0; i < N; ++i) {
      const std::uint32_t bi = b[i];
      if (i == 0) {
        E[0] = ptx::mad_lo_cc(a[0], bi, E[0]);
      } else {
        (void)ptx::add_cc(E[i - 1], O[i - 1]);
        E[i] = ptx::madc_lo_cc(a[0], bi, E[i]);
      }
      E[i + 1] = ptx::madc_hi_cc(a[0], bi, E[i + 1]);
CUZK_UNROLL
      for (int j = 2; j < N; j += 2) {
        E[i + j] = ptx::madc_lo_cc(a[j], bi, E[i + j]);
        E[i + j + 1] = ptx::madc_hi_cc(a[j], bi, E[i + j + 1]);
      }
      E[i + N] = ptx::addc(E[i + N], 0);
      O[i + 1] = ptx::mad_lo_cc(a[1], bi, O[i + 1]);
CUZK_UNROLL
      for (int j = 1; j < N - 2; j += 2) {
        O[i + j + 1] = ptx::madc_hi_cc(a[j], bi, O[i + j + 1]);
        O[i + j + 2] = ptx::madc_lo_cc(a[j + 2], bi, O[i + j + 2]);
      }
      O[i + N] = ptx::madc_hi(a[N - 1], bi, O[i + N]);

      const std::uint32_t m = (E[i] + O[i]) * C::inv();
      if constexpr (kP0IsOne) {  // m p_0 = m: an add, no multiply
        E[i] = ptx::add_cc(E[i], m);
        E[i + 1] = ptx::addc_cc(E[i + 1], 0);
      } else {
        E[i] = ptx::mad_lo_cc(m, C::p(0), E[i]);
        E[i + 1] = ptx::madc_hi_cc(m, C::p(0), E[i + 1]);
      }
CUZK_UNROLL
      for (int j = 2; j < N; j += 2) {
        E[i + j] = ptx::madc_lo_cc(m, C::p(j), E[i + j]);
        E[i + j + 1] = ptx::madc_hi_cc(m, C::p(j), E[i + j + 1]);
      }
      E[i + N] = ptx::addc(E[i + N], 0);
      if constexpr (kP1IsOnes) {
        // m (2^32 - 1) = 2^32 m - m: low word -m mod 2^32, high word m - (m != 0). Both
        // are computed before the O chain starts (they use the carry flag themselves).
        const std::uint32_t lo = ptx::sub_cc(0, m);
        const std::uint32_t hi = ptx::subc(m, 0);
        O[i + 1] = ptx::add_cc(O[i + 1], lo);
        O[i + 2] = ptx::addc_cc(O[i + 2], hi);
      } else {
        O[i + 1] = ptx::mad_lo_cc(m, C::p(1), O[i + 1]);
        O[i + 2] = ptx::madc_hi_cc(m, C::p(1), O[i + 2]);
      }
CUZK_UNROLL
      for (int j = 3; j < N - 1; j += 2) {
        O[i + j] = ptx::madc_lo_cc(m, C::p(j), O[i + j]);
        O[i + j + 1] = ptx::madc_hi_cc(m, C::p(j), O[i + j + 1]);
      }
      O[i + N - 1] = ptx::madc_lo_cc(m, C::p(N - 1), O[i + N - 1]);
      O[i + N] = ptx::madc_hi(m, C::p(N - 1), O[i + N]);
    }
    // T / 2^(32N) = words N..2N-1 of E + O, plus the carry of word N-1; < 2p < 2^(32N).
    (void)ptx::add_cc(E[N - 1], O[N - 1]);
CUZK_UNROLL
    for (int k = 0; k < N - 1; ++k) r[k] = ptx::addc_cc(E[N + k], O[N + k]);
    r[N - 1] = ptx::addc(E[2 * N - 1], O[2 * N - 1]);
    reduce_once(r);
  }
#endif
};

}  // namespace cuzk::gpu
