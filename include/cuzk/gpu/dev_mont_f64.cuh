// Montgomery product through the FP64 pipe: MontF64<C>::mul, the same function as
// MontPairs<C>::mul (a b / 2^(32N) mod p, result < 2p, words of 32 bits in and out) computed
// with double-precision fused multiply-adds instead of IMAD.WIDE.
//
// Why: every heavy kernel of the prover (MSM accumulation, NTT) is bound by the integer
// multiply pipe, while the H200's FP64 pipe (64 DFMA per SM and clock, the IMAD.WIDE rate's
// double) sits idle. The hypothesis: products split between the two pipes go faster than
// on either alone (measured below: they do not, in this form).
//
// How (the method of Emmart, Zheng and Weems, "Faster modular exponentiation using double
// precision floating point arithmetic on the GPU", ARITH 2018; written here from the paper's
// description): operands are cut into L limbs of 52 bits, each an exact double. The 104-bit
// product of two limbs x, y comes out of two FMAs as two doubles whose bit patterns are
// integers with a fixed bias:
//   h = fma_rz(x, y, 2^104)        = 2^104 + floor(x y / 2^52) 2^52  (bits: B_hi + hi)
//   l = fma_rn(x, y, 2^104 + 2^52 - h) = 2^52 + (x y mod 2^52)        (bits: B_lo + lo)
// (both exact: h's ulp is 2^52 and round-toward-zero truncates; the subtraction and l are
// representable). The bit patterns are summed as 64-bit integers into column accumulators
// that start at minus their biases, so each column ends at its true value (< 2^60).
// The Montgomery reduction runs word by word over the columns: L - 1 rounds of 52 bits and
// a last one of 32N - 52(L - 1) bits, so the division is by 2^(32N), as MontPairs's. In the
// rounds of 52 bits the low half of q p_0 is not computed: it is the two's complement of
// the column's low 52 bits, so the carry is (v >> 52) + (v mod 2^52 != 0). q = v (-p^-1)
// mod 2^52 is one 64-bit integer product.
//
// Measured on the H200 (gpu_mul_bench, 2026-12-04; bench/RESULTS.md): slower than MontPairs
// and no help beside it. Fr 52.7 Gmul/s (MontPairs 57.4), Fq 25.1 (27.5); one MontPairs
// chain and one MontF64 chain per thread 57.2 and 27.1; NTT 2^27 forward with the twiddle
// products on the FP64 pipe 51.2 ms, alternating 48.5, integer 46.1. The Fq product is 1000
// SASS instructions (394 DFMA/DADD, ~300 integer adds of the 64-bit column sums, 87 LOP3)
// against MontPairs's 440 (280 IMAD.WIDE); ncu shows ALU and FP64 pipes each ~59% busy and
// more warps do not speed it up: the instruction count, issued at ~3 per SM clock, is the
// limit, so the column sums would have to leave the integer ALUs for this to win. Not used
// by the prover; kept, tested, as the measured baseline for that work.
//
// On the host the two FMAs are emulated with a 128-bit integer product giving the same bit
// patterns, so the rest of the code (columns, biases, rounds, final carries) is tested on a
// machine without a GPU against the host field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuzk/gpu/dev_ptx.cuh"

namespace cuzk::gpu {

template <class C>
struct MontF64 {
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  static constexpr int N = C::kN;
  static constexpr int kBits = 32 * N;
  static constexpr int L = (kBits + 51) / 52;        // limbs of 52 bits
  static constexpr int kLast = kBits - 52 * (L - 1);  // bits cleared by the last round
  static constexpr int kCols = 2 * L;
  static constexpr u64 kM52 = (u64{1} << 52) - 1;
  static constexpr u64 kHiBias = u64{1023 + 104} << 52;  // the bit pattern of 2^104
  static constexpr u64 kLoBias = u64{1023 + 52} << 52;   // the bit pattern of 2^52
  static_assert(kLast >= 1 && kLast <= 52);

  // Bits [52k, 52k + 52) of the 32N-bit number whose word i is word(i).
  template <class W>
  static CUZK_HD constexpr u64 bits52(const W& word, int k) {
    const int pos = 52 * k, w = pos / 32, o = pos % 32;
    u64 v = 0;
CUZK_UNROLL
    for (int d = 0; d < 3; ++d) {
      const int wi = w + d, sh = 32 * d - o;
      if (wi < N) v |= sh >= 0 ? (sh < 64 ? u64{word(wi)} << sh : 0) : u64{word(wi)} >> -sh;
    }
    return v & kM52;
  }
  struct ModWord {
    CUZK_HD constexpr u32 operator()(int i) const { return C::p(i); }
  };

  // -p^-1 mod 2^52 (Newton's iteration doubles the correct bits from 3).
  static CUZK_HD constexpr u64 neg_inv52() {
    const u64 p0 = u64{C::p(0)} | u64{C::p(1)} << 32;
    u64 x = p0;
    for (int i = 0; i < 6; ++i) x *= 2 - p0 * x;
    return (0 - x) & kM52;
  }
  static constexpr u64 kNegInv = neg_inv52();

  // Minus the biases of every bit pattern summed into column k by mul_limbs.
  static CUZK_HD constexpr u64 bias(int k) {
    u64 b = 0;
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) {
        const bool lo = i + j == k, hi = i + j + 1 == k;
        b += (lo ? kLoBias : 0) + (hi ? kHiBias : 0);                               // a_i b_j
        b += (lo && (j != 0 || i == L - 1) ? kLoBias : 0) + (hi ? kHiBias : 0);  // q_i p_j
      }
    return 0 - b;
  }
  // Compile-time tables read at constant indices (unrolled loops): immediates on the device.
  template <std::size_t... I>
  static CUZK_HD constexpr double p_limb(int k, std::index_sequence<I...>) {
    constexpr double t[] = {static_cast<double>(bits52(ModWord{}, static_cast<int>(I)))...};
    return t[k];
  }
  static CUZK_HD constexpr double p_limb(int k) { return p_limb(k, std::make_index_sequence<L>{}); }
  template <std::size_t... I>
  static CUZK_HD constexpr u64 bias_at(int k, std::index_sequence<I...>) {
    constexpr u64 t[] = {bias(static_cast<int>(I))...};
    return t[k];
  }

  // v < 2^52 as an exact double.
  static CUZK_HD double to_double(u64 v) {
#if defined(__CUDA_ARCH__)
    return __dsub_rn(__longlong_as_double(static_cast<long long>(v | kLoBias)), 0x1p52);
#else
    return static_cast<double>(v);
#endif
  }

  // The bit patterns B_lo + (x y mod 2^52) (lo) and B_hi + floor(x y / 2^52) (hi), x, y < 2^52.
  struct Sample {
    u64 lo, hi;
  };
  static CUZK_HD Sample sample(double x, double y) {
#if defined(__CUDA_ARCH__)
    const double h = __fma_rz(x, y, 0x1p104);
    const double l = __fma_rn(x, y, __dsub_rn(0x1p104 + 0x1p52, h));
    return {static_cast<u64>(__double_as_longlong(l)), static_cast<u64>(__double_as_longlong(h))};
#else
    const unsigned __int128 p = static_cast<unsigned __int128>(static_cast<u64>(x)) * static_cast<u64>(y);
    return {kLoBias + (static_cast<u64>(p) & kM52), kHiBias + static_cast<u64>(p >> 52)};
#endif
  }
  // x's 52-bit limbs as doubles.
  static CUZK_HD void to_limbs(double (&d)[L], const u32 (&x)[N]) {
    const auto word = [&x](int i) { return x[i]; };
CUZK_UNROLL
    for (int k = 0; k < L; ++k) d[k] = to_double(bits52(word, k));
  }

  // r = x y / 2^(32N) mod p, r < 2p, for x, y < 2^(32N) given as limbs with x y < 2^(32N) p
  // (true for x, y < p; the result bound is (x y + 2^(32N) p) / 2^(32N)).
  static CUZK_HD void mul_limbs(u32 (&r)[N], const double (&x)[L], const double (&y)[L]) {
    // Column by column, each sum adding a low half and the previous column's high half at a
    // time (three-input 64-bit additions). The plainer row-by-row order (each sample added to
    // its two columns at once) compiles to fewer instructions but ran slower on the H200:
    // Fr 51.7 and Fq 23.4 Gmul/s against 52.9 and 25.2 (2026-12-04).
    u64 col[kCols];
    u64 carry_hi[L] = {};  // high halves of the previous column's samples, by row i
CUZK_UNROLL
    for (int k = 0; k < kCols; ++k) {
      u64 acc = bias_at(k, std::make_index_sequence<kCols>{});
      u64 next_hi[L] = {};
CUZK_UNROLL
      for (int i = 0; i < L; ++i) {
        const int j = k - i, jp = k - 1 - i;
        const bool has = j >= 0 && j < L, had = jp >= 0 && jp < L;
        if (has) {
          const Sample t = sample(x[i], y[j]);
          next_hi[i] = t.hi;
          acc += had ? t.lo + carry_hi[i] : t.lo;
        } else if (had) {
          acc += carry_hi[i];
        }
      }
CUZK_UNROLL
      for (int i = 0; i < L; ++i) carry_hi[i] = next_hi[i];
      col[k] = acc;
    }
CUZK_UNROLL
    for (int i = 0; i < L - 1; ++i) {
      const u64 v = col[i];  // complete: its last inputs were round i - 1's
      const double q = to_double((v * kNegInv) & kM52);
      u64 prev_hi = sample(q, p_limb(0)).hi;  // the low half is 2^52 - (v mod 2^52), or 0
CUZK_UNROLL
      for (int j = 1; j < L; ++j) {
        const Sample t = sample(q, p_limb(j));
        col[i + j] += j == 1 ? t.lo + prev_hi + (v >> 52) + ((v & kM52) != 0 ? 1 : 0) : t.lo + prev_hi;
        prev_hi = t.hi;
      }
      col[i + L] += prev_hi;
    }
    {
      const double q = to_double((col[L - 1] * kNegInv) & ((u64{1} << kLast) - 1));
      u64 prev_hi = 0;
CUZK_UNROLL
      for (int j = 0; j < L; ++j) {
        const Sample t = sample(q, p_limb(j));
        col[L - 1 + j] += t.lo + prev_hi;
        prev_hi = t.hi;
      }
      col[2 * L - 1] += prev_hi;
    }
    // Columns L - 1 .. 2L - 1 hold the result times 2^kLast; carry them into 52-bit limbs.
    u64 z[L + 1];
    u64 c = 0;
CUZK_UNROLL
    for (int k = 0; k <= L; ++k) {
      const u64 s = col[L - 1 + k] + c;
      z[k] = s & kM52;
      c = s >> 52;
    }
CUZK_UNROLL
    for (int j = 0; j < N; ++j) {
      const int pos = kLast + 32 * j, k = pos / 52, o = pos % 52;
      u64 w = z[k] >> o;
      if (o > 20) w |= z[k + 1] << (52 - o);
      r[j] = static_cast<u32>(w);
    }
  }

  static CUZK_HD void mul(u32 (&r)[N], const u32 (&a)[N], const u32 (&b)[N]) {
    double x[L], y[L];
    to_limbs(x, a);
    to_limbs(y, b);
    mul_limbs(r, x, y);
  }
};

}  // namespace cuzk::gpu
