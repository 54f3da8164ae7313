// Field arithmetic on values kept below 2p instead of below p (device, and CPU emulation in
// tests): Lazy2p<C>, used by the NTT's butterflies.
//
// Why: the ALU pipe, not the multiplier, is the NTT's busiest (ncu; bench/gpu/NOTES.md), and
// a third of a butterfly's corrections is the final conditional subtraction of its product
// (H200, forward 2^27 with radix-2 passes: 46.1 -> 44.8 ms). Kept below 2p:
//   mul(w, y) = w y / R mod p, below 2p for w < p and any y < 2^(32N): the CIOS rows hold
//     t < w + p < 2p at each start and w y / R + p < 2p at the end, so the product's final
//     subtraction is left out (MontPairs::mul as it is, with w as the multiplicand);
//   add(a, b), sub(a, b) for a, b < 2p give a result below 2p with one correction by 2p each,
//     as the reduced operations do with p (the sum may carry out of the top word when
//     4p >= 2^(32N), BLS12-381 Fr; the carry takes part in the comparison);
//   reduce(x) maps [0, 2p) to [0, p): the one subtraction a value needs on leaving the NTT.
// Every value stays congruent to what the reduced operations give; only its representative
// differs, so the transform's output after reduce() is the same bits.
// Off the device (and without CUZK_GPU_EMULATE_PTX) a portable path computes the same
// functions: its product is reduced, which is also below 2p.
#pragma once

#include <cstdint>

#include "cuzk/gpu/dev_fp.cuh"

namespace cuzk::gpu {

template <class C>
struct Lazy2p {
  static constexpr int N = C::kN;
  using u32 = std::uint32_t;
  using F = DevFp<C>;

  // Word i of 2p (p < 2^(32N - 1): no carry out of the top word).
  static CUZK_HD constexpr u32 p2(int i) { return (C::p(i) << 1) | (i == 0 ? 0u : C::p(i - 1) >> 31); }

  // w y / R mod p, below 2p; w < p (the multiplicand of every row), y any N-word value.
  static CUZK_HD F mul(const F& w, const F& y) {
    F r;
#if defined(CUZK_GPU_PTX_PATH)
    MontPairs<C>::mul(r.l, w.l, y.l);
#else
    F::mont_mul_portable(r.l, w.l, y.l);
#endif
    return r;
  }

  // a + b, below 2p, for a, b < 2p: s = a + b (N words and a carry), s - 2p kept unless it
  // borrows from the carry word.
  static CUZK_HD F add(const F& a, const F& b) {
    u32 s[N], d[N];
#if defined(CUZK_GPU_PTX_PATH)
    s[0] = ptx::add_cc(a.l[0], b.l[0]);
CUZK_UNROLL
    for (int i = 1; i < N; ++i) s[i] = ptx::addc_cc(a.l[i], b.l[i]);
    const u32 top = ptx::addc(0, 0);
    d[0] = ptx::sub_cc(s[0], p2(0));
CUZK_UNROLL
    for (int i = 1; i < N; ++i) d[i] = ptx::subc_cc(s[i], p2(i));
    (void)ptx::subc_cc(top, 0);
    const u32 keep = ptx::subc(0, 0);  // all ones when s < 2p
#else
    std::uint64_t c = 0, br = 0;
    for (int i = 0; i < N; ++i) {
      const std::uint64_t v = std::uint64_t{a.l[i]} + b.l[i] + c;
      s[i] = static_cast<u32>(v);
      c = v >> 32;
    }
    for (int i = 0; i < N; ++i) {
      const std::uint64_t v = std::uint64_t{s[i]} - p2(i) - br;
      d[i] = static_cast<u32>(v);
      br = (v >> 32) & 1;
    }
    const u32 keep = (c == 0 && br != 0) ? 0xffffffffu : 0u;
#endif
    F r;
CUZK_UNROLL
    for (int i = 0; i < N; ++i) r.l[i] = (d[i] & ~keep) | (s[i] & keep);
    return r;
  }

  // a - b, below 2p, for a, b < 2p: + 2p when it borrows.
  struct TwoP {
    static CUZK_HD constexpr u32 word(int i) { return p2(i); }
  };
  static CUZK_HD F sub(const F& a, const F& b) {
    F r;
    F::template sub_wrap<TwoP>(r.l, a.l, b.l);
    return r;
  }

  // [0, 2p) -> [0, p).
  static CUZK_HD F reduce(F x) {
    F::reduce_once(x.l);
    return x;
  }
};

}  // namespace cuzk::gpu
