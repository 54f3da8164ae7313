// Montgomery product on aligned register pairs (PTX carry chains; device, and CPU emulation
// in tests): MontPairs<C>::mul, the product DevFp uses on the PTX path.
//
// Why: ptxas turns each mad.lo.cc / madc.hi.cc pair on the same operands into one
// IMAD.WIDE.U32(.X), whose 64-bit addend and result are an even-aligned register pair. The
// earlier split CIOS (two accumulators indexed by absolute word; bench/gpu/NOTES.md) had a row's
// pairs at (2k, 2k+1) on even rows and (2k+1, 2k+2) on odd ones, and the disassembly of its
// Fq product on the H200 held 249 register moves (128 IMAD.MOV on the multiply pipe) beside
// 288 IMAD.WIDE. Here every multiply-add reads and writes a pair (2k, 2k+1) of one of two
// arrays:
//   X[k] holds word k, Y[k] word k + 1 (relative to the current row);
//   a_j b_i with j even goes to X at pair j, with j odd to Y at pair j - 1 (same for m p_j);
//   then m = X[0] (-p^-1) clears word 0, and the division by 2^32 is a change of roles:
//   the new X is Y, the new Y is X shifted down two words (read as the addend of the next
//   row's odd products: Y[2k..2k+1] = a_(2k+1) b_i + X_old[2k+2..2k+3]), and X_old[1], the
//   new word 0, is added to the new X[0] first, its carry entering that shifted chain.
// The CIOS bound (row start < 2p, row total < 2^33 p < 2^(32(N+1))) keeps every chain inside
// X's N words and Y's N words (words 1..N), so no chain carries out of its array.
// The same idea is used by other GPU field libraries (e.g. sppark's even/odd accumulators).
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_ptx.cuh"

namespace cuzk::gpu {

#if defined(CUZK_GPU_PTX_PATH)
template <class C>
struct MontPairs {
  static constexpr int N = C::kN;
  using u32 = std::uint32_t;
  static_assert(N % 2 == 0 && N >= 4);
  // A modulus whose low 64 bits are 0xffffffff00000001 (BLS12-381 Fr) needs no multiply for
  // words 0 and 1 of m p: m p_0 = m and m p_1 = 2^32 m - m (H200: Fr 51.3 -> 55.2 Gmul/s).
  static constexpr bool kP0IsOne = C::p(0) == 1;
  static constexpr bool kP1IsOnes = C::p(1) == 0xffffffffu;

  // acc[2k..2k+1] += v_(2k) * s over k < N/2, one chain from a clear carry flag; the carry
  // out of acc[N-1] is left in the flag.
  static CUZK_HD void cmad_even(u32 (&acc)[N], const u32 (&v)[N], u32 s) {
    acc[0] = ptx::mad_lo_cc(v[0], s, acc[0]);
    acc[1] = ptx::madc_hi_cc(v[0], s, acc[1]);
CUZK_UNROLL
    for (int k = 2; k < N; k += 2) {
      acc[k] = ptx::madc_lo_cc(v[k], s, acc[k]);
      acc[k + 1] = ptx::madc_hi_cc(v[k], s, acc[k + 1]);
    }
  }

  // One row: T = (X + 2^32 Y + a bi + m p) / 2^32 with the roles swapped on return
  // (X <- the new word-0 array, Y <- the new word-1 array). The modulus limbs are immediates
  // (the same speed as with them in registers, gpu_mul_bench).
  static CUZK_HD void row(u32 (&X)[N], u32 (&Y)[N], const u32 (&a)[N], u32 bi) {
    u32 nx[N], ny[N];
    start_row(nx, ny, X, Y, a, bi);
    cmad_even(nx, a, bi);
    ny[N - 1] = ptx::addc(ny[N - 1], 0);
    add_mp(X, Y, nx, ny);
  }

  // The start of a row: the division by 2^32 of the previous one (new X = Y, new Y = X >> 64
  // bits, + X[1] at word 0) and the odd products a_(2k+1) bi onto the shifted words (the carry
  // of word 0 enters at word 1 = ny[0]).
  static CUZK_HD void start_row(u32 (&nx)[N], u32 (&ny)[N], const u32 (&X)[N], const u32 (&Y)[N], const u32 (&a)[N],
                                u32 bi) {
CUZK_UNROLL
    for (int k = 0; k < N; ++k) nx[k] = Y[k];
    nx[0] = ptx::add_cc(nx[0], X[1]);
CUZK_UNROLL
    for (int k = 0; k < N - 2; k += 2) {
      ny[k] = ptx::madc_lo_cc(a[k + 1], bi, X[k + 2]);
      ny[k + 1] = ptx::madc_hi_cc(a[k + 1], bi, X[k + 3]);
    }
    ny[N - 2] = ptx::madc_lo_cc(a[N - 1], bi, 0);
    ny[N - 1] = ptx::madc_hi(a[N - 1], bi, 0);
  }

  // The end of a row: m = nx[0] (-p^-1) clears word 0; m p's odd limbs go into ny, its even
  // ones into nx (add_even_mp); then X, Y <- nx, ny.
  static CUZK_HD void add_mp(u32 (&X)[N], u32 (&Y)[N], u32 (&nx)[N], u32 (&ny)[N]) {
    const u32 m = nx[0] * C::inv();
    if constexpr (kP1IsOnes) {  // m (2^32 - 1) = 2^32 (m - (m != 0)) + (-m mod 2^32)
      const u32 lo = ptx::sub_cc(0, m);
      const u32 hi = ptx::subc(m, 0);
      ny[0] = ptx::add_cc(ny[0], lo);
      ny[1] = ptx::addc_cc(ny[1], hi);
    } else {
      ny[0] = ptx::mad_lo_cc(m, C::p(1), ny[0]);
      ny[1] = ptx::madc_hi_cc(m, C::p(1), ny[1]);
    }
CUZK_UNROLL
    for (int k = 2; k < N - 2; k += 2) {
      ny[k] = ptx::madc_lo_cc(m, C::p(k + 1), ny[k]);
      ny[k + 1] = ptx::madc_hi_cc(m, C::p(k + 1), ny[k + 1]);
    }
    ny[N - 2] = ptx::madc_lo_cc(m, C::p(N - 1), ny[N - 2]);
    ny[N - 1] = ptx::madc_hi(m, C::p(N - 1), ny[N - 1]);
    add_even_mp(X, Y, nx, ny, m);
  }

  // The end of a row: nx += the even limbs of m p (clears word 0), their carry into ny[N-1]
  // (word N); then X, Y <- nx, ny.
  static CUZK_HD void add_even_mp(u32 (&X)[N], u32 (&Y)[N], u32 (&nx)[N], u32 (&ny)[N], u32 m) {
    if constexpr (kP0IsOne) {
      nx[0] = ptx::add_cc(nx[0], m);
      nx[1] = ptx::addc_cc(nx[1], 0);
    } else {
      nx[0] = ptx::mad_lo_cc(m, C::p(0), nx[0]);
      nx[1] = ptx::madc_hi_cc(m, C::p(0), nx[1]);
    }
CUZK_UNROLL
    for (int k = 2; k < N; k += 2) {
      nx[k] = ptx::madc_lo_cc(m, C::p(k), nx[k]);
      nx[k + 1] = ptx::madc_hi_cc(m, C::p(k), nx[k + 1]);
    }
    ny[N - 1] = ptx::addc(ny[N - 1], 0);
CUZK_UNROLL
    for (int k = 0; k < N; ++k) X[k] = nx[k], Y[k] = ny[k];
  }

  // r = a b / R mod p, before the final conditional subtraction (r < 2p).
  static CUZK_HD void mul(u32 (&r)[N], const u32 (&a)[N], const u32 (&b)[N]) {
    u32 X[N], Y[N];
CUZK_UNROLL
    for (int k = 0; k < N; ++k) X[k] = 0, Y[k] = 0;
CUZK_UNROLL
    for (int i = 0; i < N; ++i) row(X, Y, a, b[i]);
    last_division(r, X, Y);
  }

  // r = (x y + z w) / R mod p, below 3p, for x, z <= p and y, w < p (one Montgomery
  // reduction for two products: 3 N^2 + N multiply-adds). Rows as row() with a second product
  // chain in each array; with t < 3p at a row start the row's total is below 3p 2^32, so t
  // stays below 3p and the row total inside X's and Y's words (3p < 2^(32N)). The MSM's
  // level 0 takes Y3 = R (Q - X3) + (-Y) PPP of its mixed additions this way.
  static constexpr bool kMul2Fits = C::p(N - 1) < 0x55555554u;  // 3p < 2^(32N): not BLS12-381 Fr
  static CUZK_HD void mul2(u32 (&r)[N], const u32 (&x)[N], const u32 (&y)[N], const u32 (&z)[N],
                           const u32 (&w)[N]) {
    static_assert(kMul2Fits, "mul2 needs 3p < 2^(32N)");
    u32 X[N], Y[N];
CUZK_UNROLL
    for (int k = 0; k < N; ++k) X[k] = 0, Y[k] = 0;
CUZK_UNROLL
    for (int i = 0; i < N; ++i) {
      u32 nx[N], ny[N];
      start_row(nx, ny, X, Y, x, y[i]);
      ny[0] = ptx::mad_lo_cc(z[1], w[i], ny[0]);  // z's odd limbs
      ny[1] = ptx::madc_hi_cc(z[1], w[i], ny[1]);
CUZK_UNROLL
      for (int k = 2; k < N; k += 2) {
        ny[k] = ptx::madc_lo_cc(z[k + 1], w[i], ny[k]);
        ny[k + 1] = ptx::madc_hi_cc(z[k + 1], w[i], ny[k + 1]);
      }
      cmad_even(nx, x, y[i]);
      ny[N - 1] = ptx::addc(ny[N - 1], 0);
      cmad_even(nx, z, w[i]);
      ny[N - 1] = ptx::addc(ny[N - 1], 0);
      add_mp(X, Y, nx, ny);
    }
    last_division(r, X, Y);
  }

  // s = a + b over N words (a, b < p: no carry out, p < 2^(32N - 1)).
  static CUZK_HD void sum(u32 (&s)[N], const u32 (&a)[N], const u32 (&b)[N]) {
    s[0] = ptx::add_cc(a[0], b[0]);
CUZK_UNROLL
    for (int k = 1; k < N - 1; ++k) s[k] = ptx::addc_cc(a[k], b[k]);
    s[N - 1] = ptx::addc(a[N - 1], b[N - 1]);
  }

  // The last division by 2^32 of a row's result: word k = Y[k] + X[k + 1] (X[0] is 0).
  static CUZK_HD void last_division(u32 (&r)[N], const u32 (&X)[N], const u32 (&Y)[N]) {
    r[0] = ptx::add_cc(Y[0], X[1]);
CUZK_UNROLL
    for (int k = 1; k < N - 1; ++k) r[k] = ptx::addc_cc(Y[k], X[k + 1]);
    r[N - 1] = ptx::addc(Y[N - 1], 0);
  }

  // r = a^2 / R mod p, before the final conditional subtraction (r < 2p), for a < p: the
  // N(N-1)/2 cross products once (doubled), the N squares, then a Montgomery reduction of the
  // 2N-word square: N^2 + N(N+1)/2 multiply-adds against the product's 2 N^2 (BLS12-381 Fq:
  // 222 against 288). Every multiply-add again reads and writes an aligned pair:
  //   cross products a_i a_j (i < j) at word i + j go to E (E[w] = word w) when i + j is even
  //   and to O (O[w] = word w + 1) when it is odd; row i's chain in each array ends one word
  //   above the rows before it, so its carry lands in a word holding at most an earlier carry;
  //   the reduction rows are MontPairs rows without the a b_i products: the low half of the
  //   square starts in X, the high half is added after the last row (REDC(T) = (T_lo + M p) / R
  //   + T_hi, which stays below 2p for T < p R).
  static CUZK_HD void sqr(u32 (&r)[N], const u32 (&a)[N]) {
    u32 E[2 * N], O[2 * N];
CUZK_UNROLL
    for (int w = 0; w < 2 * N; ++w) E[w] = 0, O[w] = 0;
CUZK_UNROLL
    for (int i = 0; i < N - 1; ++i) {
      // j = i + 1, i + 3, ...: odd words i + j, pairs O[i + j - 1 ..].
      O[2 * i] = ptx::mad_lo_cc(a[i + 1], a[i], O[2 * i]);
      O[2 * i + 1] = ptx::madc_hi_cc(a[i + 1], a[i], O[2 * i + 1]);
CUZK_UNROLL
      for (int j = i + 3; j < N; j += 2) {
        O[i + j - 1] = ptx::madc_lo_cc(a[j], a[i], O[i + j - 1]);
        O[i + j] = ptx::madc_hi_cc(a[j], a[i], O[i + j]);
      }
      const int jo = i + 1 + 2 * ((N - 2 - i) / 2);  // the last j of the chain
      O[i + jo + 1] = ptx::addc(O[i + jo + 1], 0);
      // j = i + 2, i + 4, ...: even words i + j, pairs E[i + j ..].
      if (i + 2 < N) {
        E[2 * i + 2] = ptx::mad_lo_cc(a[i + 2], a[i], E[2 * i + 2]);
        E[2 * i + 3] = ptx::madc_hi_cc(a[i + 2], a[i], E[2 * i + 3]);
CUZK_UNROLL
        for (int j = i + 4; j < N; j += 2) {
          E[i + j] = ptx::madc_lo_cc(a[j], a[i], E[i + j]);
          E[i + j + 1] = ptx::madc_hi_cc(a[j], a[i], E[i + j + 1]);
        }
        const int je = i + 2 + 2 * ((N - 3 - i) / 2);
        E[i + je + 2] = ptx::addc(E[i + je + 2], 0);
      }
    }
    // T = 2 (E + 2^32 O) + sum a_i^2 2^(64 i); T < p^2 < 2^(64N - 2).
    u32 T[2 * N];
    T[0] = E[0];
    T[1] = ptx::add_cc(E[1], O[0]);
CUZK_UNROLL
    for (int w = 2; w < 2 * N - 1; ++w) T[w] = ptx::addc_cc(E[w], O[w - 1]);
    T[2 * N - 1] = ptx::addc(E[2 * N - 1], O[2 * N - 2]);
CUZK_UNROLL
    for (int w = 2 * N - 1; w > 0; --w) T[w] = (T[w] << 1) | (T[w - 1] >> 31);
    T[0] <<= 1;
    T[0] = ptx::mad_lo_cc(a[0], a[0], T[0]);
    T[1] = ptx::madc_hi_cc(a[0], a[0], T[1]);
CUZK_UNROLL
    for (int i = 1; i < N - 1; ++i) {
      T[2 * i] = ptx::madc_lo_cc(a[i], a[i], T[2 * i]);
      T[2 * i + 1] = ptx::madc_hi_cc(a[i], a[i], T[2 * i + 1]);
    }
    T[2 * N - 2] = ptx::madc_lo_cc(a[N - 1], a[N - 1], T[2 * N - 2]);
    T[2 * N - 1] = ptx::madc_hi(a[N - 1], a[N - 1], T[2 * N - 1]);
    redc(r, T);
  }

  // T = a b, all 2N words, for any a, b < 2^(32N) (N^2 multiply-adds): mul_wide_n on N words.
  static CUZK_HD void mul_wide(u32 (&T)[2 * N], const u32 (&a)[N], const u32 (&b)[N]) { mul_wide_n<N>(T, a, b); }

  // T = a b, all 2M words, for any M-word a, b (M^2 multiply-adds). Every multiply-add
  // reads and writes an aligned pair: a_j b_i with i + j even goes to E at pair i + j
  // (E[w] = word w), with i + j odd to O at pair i + j - 1 (O[w] = word w + 1). Row i's two
  // chains end one word above those of row i - 1 (or at the same word, which then holds at most
  // that row's carry), so no carry word exceeds 2; E and 2^32 O are each at most T, so no
  // chain carries out of the top word.
  template <int M>
  static CUZK_HD void mul_wide_n(u32 (&T)[2 * M], const u32 (&a)[M], const u32 (&b)[M]) {
    static_assert(M % 2 == 0 && M >= 2);
    u32 E[2 * M], O[2 * M];
CUZK_UNROLL
    for (int w = 0; w < 2 * M; ++w) E[w] = 0, O[w] = 0;
CUZK_UNROLL
    for (int i = 0; i < M; ++i) {
      const int je = i & 1, jo = 1 - je;  // first j of the E chain and of the O chain
      E[i + je] = ptx::mad_lo_cc(a[je], b[i], E[i + je]);
      E[i + je + 1] = ptx::madc_hi_cc(a[je], b[i], E[i + je + 1]);
CUZK_UNROLL
      for (int j = je + 2; j < M; j += 2) {
        E[i + j] = ptx::madc_lo_cc(a[j], b[i], E[i + j]);
        E[i + j + 1] = ptx::madc_hi_cc(a[j], b[i], E[i + j + 1]);
      }
      const int ce = i + je + 2 * ((M - 1 - je) / 2) + 2;  // the word above the E chain
      if (ce < 2 * M) E[ce] = ptx::addc(E[ce], 0);
      O[i + jo - 1] = ptx::mad_lo_cc(a[jo], b[i], O[i + jo - 1]);
      O[i + jo] = ptx::madc_hi_cc(a[jo], b[i], O[i + jo]);
CUZK_UNROLL
      for (int j = jo + 2; j < M; j += 2) {
        O[i + j - 1] = ptx::madc_lo_cc(a[j], b[i], O[i + j - 1]);
        O[i + j] = ptx::madc_hi_cc(a[j], b[i], O[i + j]);
      }
      const int co = i + jo + 2 * ((M - 1 - jo) / 2) + 1;  // (O index) the word above the O chain
      if (co < 2 * M - 1) O[co] = ptx::addc(O[co], 0);
    }
    T[0] = E[0];
    T[1] = ptx::add_cc(E[1], O[0]);
CUZK_UNROLL
    for (int w = 2; w < 2 * M - 1; ++w) T[w] = ptx::addc_cc(E[w], O[w - 1]);
    T[2 * M - 1] = ptx::addc(E[2 * M - 1], O[2 * M - 2]);
  }

  // r = T / R mod p, below 2p, for a 2N-word T < p R (Montgomery reduction): MontPairs rows
  // without the a b_i products reduce T_lo (X holds words 0..N-1, Y words 1..N, as in row());
  // REDC(T) = (T_lo + M p) / R + T_hi <= p + (p - 1).
  static CUZK_HD void redc(u32 (&r)[N], const u32 (&T)[2 * N]) {
    u32 X[N], Y[N], nx[N], ny[N];
CUZK_UNROLL
    for (int k = 0; k < N; ++k) nx[k] = T[k], ny[k] = 0;
    add_mp(X, Y, nx, ny);  // the first row: no previous row to divide by 2^32
CUZK_UNROLL
    for (int i = 1; i < N; ++i) reduce_row(X, Y);
    last_division(r, X, Y);
    r[0] = ptx::add_cc(r[0], T[N]);
CUZK_UNROLL
    for (int k = 1; k < N - 1; ++k) r[k] = ptx::addc_cc(r[k], T[N + k]);
    r[N - 1] = ptx::addc(r[N - 1], T[2 * N - 1]);
  }

  // (c0 + c1 u) = (a0 + a1 u)(b0 + b1 u) / R in Fp[u]/(u^2 + 1), each below 2p, for inputs
  // below p: Karatsuba with the reductions deferred, 3 double-width products and 2 reductions
  // (3 N^2 + 2 (N^2 + N) multiply-adds; BLS12-381 Fq: 744 against 900 for three products).
  //   c0 = REDC(a0 b0 - a1 b1 [+ p R when negative]): in (p R - p^2, p R) or [0, p^2);
  //   c1 = REDC((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) = REDC(a0 b1 + a1 b0) < REDC(2 p^2);
  // both below p R because 2p < R; a0 + a1 < 2p needs no reduction (p < 2^(32N - 1)).
  static CUZK_HD void fp2_mul(u32 (&c0)[N], u32 (&c1)[N], const u32 (&a0)[N], const u32 (&a1)[N],
                              const u32 (&b0)[N], const u32 (&b1)[N]) {
    u32 T0[2 * N], T1[2 * N], S[2 * N];
    mul_wide(T0, a0, b0);
    mul_wide(T1, a1, b1);
    S[0] = ptx::add_cc(T0[0], T1[0]);
CUZK_UNROLL
    for (int w = 1; w < 2 * N - 1; ++w) S[w] = ptx::addc_cc(T0[w], T1[w]);
    S[2 * N - 1] = ptx::addc(T0[2 * N - 1], T1[2 * N - 1]);
    T0[0] = ptx::sub_cc(T0[0], T1[0]);
CUZK_UNROLL
    for (int w = 1; w < 2 * N; ++w) T0[w] = ptx::subc_cc(T0[w], T1[w]);
    const u32 neg = ptx::subc(0, 0);  // all ones when a0 b0 < a1 b1: add p R
    T0[N] = ptx::add_cc(T0[N], C::p(0) & neg);
CUZK_UNROLL
    for (int k = 1; k < N - 1; ++k) T0[N + k] = ptx::addc_cc(T0[N + k], C::p(k) & neg);
    T0[2 * N - 1] = ptx::addc(T0[2 * N - 1], C::p(N - 1) & neg);
    redc(c0, T0);
    u32 sa[N], sb[N];
    sum(sa, a0, a1), sum(sb, b0, b1);
    mul_wide(T1, sa, sb);
    T1[0] = ptx::sub_cc(T1[0], S[0]);
CUZK_UNROLL
    for (int w = 1; w < 2 * N - 1; ++w) T1[w] = ptx::subc_cc(T1[w], S[w]);
    T1[2 * N - 1] = ptx::subc(T1[2 * N - 1], S[2 * N - 1]);
    redc(c1, T1);
  }

 private:
  // One reduction row after the first: the division by 2^32 of the previous row (new X = Y,
  // new Y = X >> 64 bits, + X[1] at word 0), then + m p with m clearing word 0 (the odd limbs
  // of m p onto the shifted words, taking the division's carry).
  static CUZK_HD void reduce_row(u32 (&X)[N], u32 (&Y)[N]) {
    u32 nx[N], ny[N];
CUZK_UNROLL
    for (int k = 0; k < N; ++k) nx[k] = Y[k];
    nx[0] = ptx::add_cc(nx[0], X[1]);
    const u32 m = nx[0] * C::inv();
CUZK_UNROLL
    for (int k = 0; k < N - 2; k += 2) {
      ny[k] = ptx::madc_lo_cc(m, C::p(k + 1), X[k + 2]);
      ny[k + 1] = ptx::madc_hi_cc(m, C::p(k + 1), X[k + 3]);
    }
    ny[N - 2] = ptx::madc_lo_cc(m, C::p(N - 1), 0);
    ny[N - 1] = ptx::madc_hi(m, C::p(N - 1), 0);
    add_even_mp(X, Y, nx, ny, m);
  }
};
#endif

}  // namespace cuzk::gpu
