// One level of Karatsuba for the Montgomery product on aligned register pairs (device, and
// CPU emulation in tests): MontKara<C>, built from MontPairs' half-size wide products and
// its reduction. An experiment, kept out of the library: measured and not used by DevFp (bench/RESULTS.md): on
// the H200 it beats MontPairs::mul alone for BLS12-381 Fq (28.7 against 27.5 Gmul/s; 242
// IMAD.WIDE instead of 281, 176 IADD3 instead of 62) and loses for Fr (53.5 against 57.5);
// inside the MSM (products, the two-product Y3, the Fp2 product) and the NTT it lost
// everywhere (G1 2^26 363.1 against 358.8 ms, G2 2^20 31.6 against 28.0, partition H 281.4
// against 258.3). It stays as a tested variant of gpu_mul_bench.
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_mont_pairs.cuh"

namespace cuzk::gpu {

#if defined(CUZK_GPU_PTX_PATH)
template <class C>
struct MontKara {
  static constexpr int N = C::kN;
  using u32 = std::uint32_t;
  using P = MontPairs<C>;

  // T = a b, all 2N words, for any a, b < 2^(32N), by one level of Karatsuba over halves of
  // H = N/2 words: a = a0 + 2^(32H) a1 (b alike), z0 = a0 b0, z2 = a1 b1,
  // z1 = (a0 + a1)(b0 + b1) - z0 - z2 = a0 b1 + a1 b0 < 2^(64H + 1). The half sums carry one
  // bit each (ca, cb): (s_a + ca 2^(32H))(s_b + cb 2^(32H)) = s_a s_b + 2^(32H)(ca s_b + cb s_a)
  // + ca cb 2^(64H), added with masks. 3 H^2 multiply-adds instead of 4 H^2 (BLS12-381 Fq:
  // 108 against 144), for ~11 H additions more.
  static CUZK_HD void mul_wide_kara(u32 (&T)[2 * N], const u32 (&a)[N], const u32 (&b)[N]) {
    constexpr int H = N / 2;
    static_assert(H % 2 == 0);
    u32 a0[H], a1[H], b0[H], b1[H], lo[2 * H], hi[2 * H], sa[H], sb[H], m[2 * H];
CUZK_UNROLL
    for (int k = 0; k < H; ++k) a0[k] = a[k], a1[k] = a[H + k], b0[k] = b[k], b1[k] = b[H + k];
    P::template mul_wide_n<H>(lo, a0, b0);
    P::template mul_wide_n<H>(hi, a1, b1);
    sa[0] = ptx::add_cc(a0[0], a1[0]);
CUZK_UNROLL
    for (int k = 1; k < H; ++k) sa[k] = ptx::addc_cc(a0[k], a1[k]);
    const u32 ca = ptx::addc(0, 0);
    sb[0] = ptx::add_cc(b0[0], b1[0]);
CUZK_UNROLL
    for (int k = 1; k < H; ++k) sb[k] = ptx::addc_cc(b0[k], b1[k]);
    const u32 cb = ptx::addc(0, 0);
    P::template mul_wide_n<H>(m, sa, sb);
    // m (2H + 1 words, top word mt) += 2^(32H) (ca s_b + cb s_a) + 2^(64H) ca cb.
    const u32 ma = 0u - ca, mb = 0u - cb;
    m[H] = ptx::add_cc(m[H], sb[0] & ma);
CUZK_UNROLL
    for (int k = 1; k < H; ++k) m[H + k] = ptx::addc_cc(m[H + k], sb[k] & ma);
    u32 mt = ptx::addc(ca & cb, 0);
    m[H] = ptx::add_cc(m[H], sa[0] & mb);
CUZK_UNROLL
    for (int k = 1; k < H; ++k) m[H + k] = ptx::addc_cc(m[H + k], sa[k] & mb);
    mt = ptx::addc(mt, 0);
    // m -= z0 + z2: z1, still 2H + 1 words.
    m[0] = ptx::sub_cc(m[0], lo[0]);
CUZK_UNROLL
    for (int k = 1; k < 2 * H; ++k) m[k] = ptx::subc_cc(m[k], lo[k]);
    mt = ptx::subc(mt, 0);
    m[0] = ptx::sub_cc(m[0], hi[0]);
CUZK_UNROLL
    for (int k = 1; k < 2 * H; ++k) m[k] = ptx::subc_cc(m[k], hi[k]);
    mt = ptx::subc(mt, 0);
    // T = z0 + 2^(32H) z1 + 2^(64H) z2.
CUZK_UNROLL
    for (int k = 0; k < H; ++k) T[k] = lo[k];
    T[H] = ptx::add_cc(lo[H], m[0]);
CUZK_UNROLL
    for (int k = 1; k < H; ++k) T[H + k] = ptx::addc_cc(lo[H + k], m[k]);
CUZK_UNROLL
    for (int k = 0; k < H; ++k) T[2 * H + k] = ptx::addc_cc(hi[k], m[H + k]);
    T[3 * H] = ptx::addc_cc(hi[H], mt);
CUZK_UNROLL
    for (int k = 1; k < H - 1; ++k) T[3 * H + k] = ptx::addc_cc(hi[H + k], 0);
    T[4 * H - 1] = ptx::addc(hi[2 * H - 1], 0);
  }

  // r = a b / R mod p below 2p through mul_wide_kara and redc: the same value as
  // MontPairs::mul (both add the one M < R with a b + M p = 0 mod R, then divide by R).
  static CUZK_HD void mul_kara(u32 (&r)[N], const u32 (&a)[N], const u32 (&b)[N]) {
    u32 T[2 * N];
    mul_wide_kara(T, a, b);
    P::redc(r, T);
  }

  // r = (x y + z w) / R mod p, below 2p, for x, z <= p and y, w < p: two Karatsuba wide
  // products summed (below 2 p^2 < p R) and one redc.
  static CUZK_HD void mul2_kara(u32 (&r)[N], const u32 (&x)[N], const u32 (&y)[N], const u32 (&z)[N],
                                const u32 (&w)[N]) {
    u32 T[2 * N], U[2 * N];
    mul_wide_kara(T, x, y);
    mul_wide_kara(U, z, w);
    T[0] = ptx::add_cc(T[0], U[0]);
CUZK_UNROLL
    for (int k = 1; k < 2 * N - 1; ++k) T[k] = ptx::addc_cc(T[k], U[k]);
    T[2 * N - 1] = ptx::addc(T[2 * N - 1], U[2 * N - 1]);
    P::redc(r, T);
  }
};
#endif

}  // namespace cuzk::gpu
