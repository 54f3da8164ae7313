// x86-64 fast paths for Fp<P>: Montgomery multiplication with MULX/ADCX/ADOX.
//
// Used by Fp<P> at run time (never in constant evaluation): mont_mul when the CPU
// has BMI2 and ADX and the modulus leaves a spare top bit (the "no carry"
// condition; true for BLS12-381 and BN254 Fq/Fr), add/sub (plain ADC/SBB/CMOV)
// always. 4 and 6 limbs; other sizes use the portable code in fp.hpp.
//
// Method (CIOS): for each limb b_i of b, one asm row computes
//   t += a * b_i;  m = t_0 * (-p^-1 mod 2^64);  t = (t + m * p) / 2^64
// with two independent carry chains (ADCX: low halves, ADOX: high halves).
// t has kLimbs+1 words; the division by 2^64 is free: the caller passes the
// words of the next row rotated by one, so no data moves. With the spare top
// bit every intermediate fits in kLimbs+1 words and the result is < 2p; one
// conditional subtraction (branch-free) finishes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/bigint.hpp"

// The kernels are inline asm, so the assembler takes MULX/ADCX/ADOX whatever -m flags
// are given; whether the CPU has them is checked once at run time (CPUID) unless the
// compiler already targets BMI2+ADX (-madx, -march=native on such a CPU).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(CUZK_NO_ASM)
#define CUZK_FF_HAVE_MONT_X86 1
#include <cpuid.h>
#endif

namespace cuzk::ff::x86 {

#ifdef CUZK_FF_HAVE_MONT_X86

// True when the CPU executes BMI2 (MULX) and ADX (ADCX/ADOX): compile-time when the
// compiler targets both, else CPUID read once during static initialisation. (Code
// that runs before that, in other static initialisers, sees false and takes the
// portable path: slower, never wrong.) A constant global rather than a function-local
// static: the latter's guard check in every multiplication cost ~10 ns here.
inline bool detect_mulx_adx() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (b & (1u << 8)) != 0 && (b & (1u << 19)) != 0;  // BMI2, ADX
}
#if defined(__BMI2__) && defined(__ADX__)
inline constexpr bool kHaveMulxAdx = true;
#else
inline const bool kHaveMulxAdx = detect_mulx_adx();
#endif
inline bool have_mulx_adx() { return kHaveMulxAdx; }

// One multiply-accumulate step of a row: t_j += lo(x*y_j) (CF chain), t_{j+1} += hi(x*y_j)
// (OF chain), x in rdx. CUZK_MADD: y_j in memory at ptr; CUZK_MADDR: y_j is operand x.
#define CUZK_MADD(ptr, j, tj, tj1)             \
  "mulxq " #j "*8(%[" ptr "]), %[lo], %[hi]\n\t" \
  "adcxq %[lo], %[" tj "]\n\t"                 \
  "adoxq %[hi], %[" tj1 "]\n\t"

#define CUZK_MADDR(x, tj, tj1)             \
  "mulxq %[" x "], %[lo], %[hi]\n\t" \
  "adcxq %[lo], %[" tj "]\n\t"                 \
  "adoxq %[hi], %[" tj1 "]\n\t"
// t (4+1 words t0..t4, t4 == 0 on entry: the previous row's t0 after reduction)
//   = (t + a*bi + m*p) / 2^64, result in t1..t4,t0 order.
// a in registers (keeps the caller's value out of memory: passing it by address made
// GCC copy results with vector moves that stall store forwarding, 16 -> 25 ns), p as
// memory operands (RIP-relative for the static moduli).
__attribute__((always_inline)) inline void mont_row4(u64& t0, u64& t1, u64& t2, u64& t3, u64& t4, u64 bi,
                                                     const Limbs<4>& a, const Limbs<4>& p, const u64& inv) {
  [[maybe_unused]] u64 lo, hi;  // the asm's scratch registers
  asm("xorl %k[lo], %k[lo]\n\t"  // clears CF and OF
      CUZK_MADDR("a0", "t0", "t1") CUZK_MADDR("a1", "t1", "t2")
      CUZK_MADDR("a2", "t2", "t3") CUZK_MADDR("a3", "t3", "t4")
      "adcq $0, %[t4]\n\t"
      "movq %[t0], %%rdx\n\t"
      "imulq %[inv], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      CUZK_MADDR("p0", "t0", "t1") CUZK_MADDR("p1", "t1", "t2")
      CUZK_MADDR("p2", "t2", "t3") CUZK_MADDR("p3", "t3", "t4")
      "adcq $0, %[t4]\n\t"
      : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4),
        [lo] "=&r"(lo), [hi] "=&r"(hi), "+&d"(bi)
      : [a0] "r"(a[0]), [a1] "r"(a[1]), [a2] "r"(a[2]), [a3] "r"(a[3]), [inv] "m"(inv),
        [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3])
      : "cc");
}
#undef CUZK_MADDR

// The same for 6 limbs; too few registers to hold a, so a is read through a pointer.
__attribute__((always_inline)) inline void mont_row6(u64& t0, u64& t1, u64& t2, u64& t3, u64& t4, u64& t5,
                                                     u64& t6, u64 bi, const u64* a, const u64* p,
                                                     const u64& inv) {
  [[maybe_unused]] u64 lo, hi;  // the asm's scratch registers
  asm("xorl %k[lo], %k[lo]\n\t"
      CUZK_MADD("a", 0, "t0", "t1") CUZK_MADD("a", 1, "t1", "t2")
      CUZK_MADD("a", 2, "t2", "t3") CUZK_MADD("a", 3, "t3", "t4")
      CUZK_MADD("a", 4, "t4", "t5") CUZK_MADD("a", 5, "t5", "t6")
      "adcq $0, %[t6]\n\t"
      "movq %[t0], %%rdx\n\t"
      "imulq %[inv], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      CUZK_MADD("p", 0, "t0", "t1") CUZK_MADD("p", 1, "t1", "t2")
      CUZK_MADD("p", 2, "t2", "t3") CUZK_MADD("p", 3, "t3", "t4")
      CUZK_MADD("p", 4, "t4", "t5") CUZK_MADD("p", 5, "t5", "t6")
      "adcq $0, %[t6]\n\t"
      : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4),
        [t5] "+&r"(t5), [t6] "+&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), "+&d"(bi)
      : [a] "r"(a), [p] "r"(p), [inv] "m"(inv), "m"(*reinterpret_cast<const u64(*)[6]>(a)),
        "m"(*reinterpret_cast<const u64(*)[6]>(p))
      : "cc");
}

#undef CUZK_MADD

// Branch-free finishing steps, N = 4 or 6 (register names t0.., s0..):
//   CUZK_SUBP: s = t - p (borrow in CF);  CUZK_KEEP_IF_BORROW: s = t where that borrowed.
#define CUZK_MOV(j) "movq %[t" #j "], %[s" #j "]\n\t"
#define CUZK_SBB(op, j) #op "q " #j "*8(%[p]), %[s" #j "]\n\t"
#define CUZK_CMOVC(j) "cmovcq %[t" #j "], %[s" #j "]\n\t"
#define CUZK_T4 [t0] "+&r"(t[0]), [t1] "+&r"(t[1]), [t2] "+&r"(t[2]), [t3] "+&r"(t[3])
#define CUZK_S4 [s0] "=&r"(s[0]), [s1] "=&r"(s[1]), [s2] "=&r"(s[2]), [s3] "=&r"(s[3])
#define CUZK_T6 CUZK_T4, [t4] "+&r"(t[4]), [t5] "+&r"(t[5])
#define CUZK_S6 CUZK_S4, [s4] "=&r"(s[4]), [s5] "=&r"(s[5])

// t - p if t >= p else t, for t < 2p.
inline Limbs<4> reduce_once4(Limbs<4> t, const Limbs<4>& p) {
  Limbs<4> s;
  asm(CUZK_MOV(0) CUZK_MOV(1) CUZK_MOV(2) CUZK_MOV(3)
      CUZK_SBB(sub, 0) CUZK_SBB(sbb, 1) CUZK_SBB(sbb, 2) CUZK_SBB(sbb, 3)
      CUZK_CMOVC(0) CUZK_CMOVC(1) CUZK_CMOVC(2) CUZK_CMOVC(3)
      : CUZK_T4, CUZK_S4
      : [p] "r"(p.data()), "m"(p)
      : "cc");
  return s;
}
inline Limbs<6> reduce_once6(Limbs<6> t, const Limbs<6>& p) {
  Limbs<6> s;
  asm(CUZK_MOV(0) CUZK_MOV(1) CUZK_MOV(2) CUZK_MOV(3) CUZK_MOV(4) CUZK_MOV(5)
      CUZK_SBB(sub, 0) CUZK_SBB(sbb, 1) CUZK_SBB(sbb, 2) CUZK_SBB(sbb, 3) CUZK_SBB(sbb, 4) CUZK_SBB(sbb, 5)
      CUZK_CMOVC(0) CUZK_CMOVC(1) CUZK_CMOVC(2) CUZK_CMOVC(3) CUZK_CMOVC(4) CUZK_CMOVC(5)
      : CUZK_T6, CUZK_S6
      : [p] "r"(p.data()), "m"(p)
      : "cc");
  return s;
}

#define CUZK_ADD(op, j) #op "q " #j "*8(%[b]), %[t" #j "]\n\t"
#define CUZK_ADP(op, j) #op "q " #j "*8(%[p]), %[s" #j "]\n\t"
#define CUZK_CMOVZ(j) "cmovzq %[t" #j "], %[s" #j "]\n\t"

// (a + b) mod p and (a - b) mod p for a, b < p; p has a spare top bit, so a + b
// does not carry out of the top limb.
inline Limbs<4> add_mod4(Limbs<4> t, const Limbs<4>& b, const Limbs<4>& p) {
  asm(CUZK_ADD(add, 0) CUZK_ADD(adc, 1) CUZK_ADD(adc, 2) CUZK_ADD(adc, 3)
      : CUZK_T4
      : [b] "r"(b.data()), "m"(b)
      : "cc");
  return reduce_once4(t, p);
}
inline Limbs<6> add_mod6(Limbs<6> t, const Limbs<6>& b, const Limbs<6>& p) {
  asm(CUZK_ADD(add, 0) CUZK_ADD(adc, 1) CUZK_ADD(adc, 2) CUZK_ADD(adc, 3) CUZK_ADD(adc, 4) CUZK_ADD(adc, 5)
      : CUZK_T6
      : [b] "r"(b.data()), "m"(b)
      : "cc");
  return reduce_once6(t, p);
}
inline Limbs<4> sub_mod4(Limbs<4> t, const Limbs<4>& b, const Limbs<4>& p) {
  Limbs<4> s;
  [[maybe_unused]] u64 m;  // the asm's scratch register
  asm(CUZK_ADD(sub, 0) CUZK_ADD(sbb, 1) CUZK_ADD(sbb, 2) CUZK_ADD(sbb, 3)
      "sbbq %[m], %[m]\n\t"  // m = borrow ? ~0 : 0
      CUZK_MOV(0) CUZK_MOV(1) CUZK_MOV(2) CUZK_MOV(3)
      CUZK_ADP(add, 0) CUZK_ADP(adc, 1) CUZK_ADP(adc, 2) CUZK_ADP(adc, 3)
      "testq %[m], %[m]\n\t"
      CUZK_CMOVZ(0) CUZK_CMOVZ(1) CUZK_CMOVZ(2) CUZK_CMOVZ(3)
      : CUZK_T4, CUZK_S4, [m] "=&r"(m)
      : [b] "r"(b.data()), "m"(b), [p] "r"(p.data()), "m"(p)
      : "cc");
  return s;
}
inline Limbs<6> sub_mod6(Limbs<6> t, const Limbs<6>& b, const Limbs<6>& p) {
  // Too few registers for the copy-and-select of sub_mod4: add (p & borrow mask) instead.
  u64 m;
  asm(CUZK_ADD(sub, 0) CUZK_ADD(sbb, 1) CUZK_ADD(sbb, 2) CUZK_ADD(sbb, 3) CUZK_ADD(sbb, 4) CUZK_ADD(sbb, 5)
      "sbbq %[m], %[m]\n\t"
      : CUZK_T6, [m] "=&r"(m)
      : [b] "r"(b.data()), "m"(b)
      : "cc");
  Limbs<6> s;
  for (std::size_t i = 0; i < 6; ++i) s[i] = p[i] & m;
  asm("addq %[s0], %[t0]\n\t"
      "adcq %[s1], %[t1]\n\t"
      "adcq %[s2], %[t2]\n\t"
      "adcq %[s3], %[t3]\n\t"
      "adcq %[s4], %[t4]\n\t"
      "adcq %[s5], %[t5]\n\t"
      : CUZK_T6
      : [s0] "r"(s[0]), [s1] "r"(s[1]), [s2] "r"(s[2]), [s3] "r"(s[3]), [s4] "r"(s[4]), [s5] "r"(s[5])
      : "cc");
  return t;
}

#undef CUZK_ADD
#undef CUZK_ADP
#undef CUZK_CMOVZ
#undef CUZK_MOV
#undef CUZK_SBB
#undef CUZK_CMOVC
#undef CUZK_T4
#undef CUZK_S4
#undef CUZK_T6
#undef CUZK_S6

// a * b * 2^-256 mod p for a, b < p, p < 2^255 - 2^192 (spare top bit).
inline Limbs<4> mont_mul4(const Limbs<4>& a, const Limbs<4>& b, const Limbs<4>& p, const u64& inv) {
  u64 t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
  mont_row4(t0, t1, t2, t3, t4, b[0], a, p, inv);
  mont_row4(t1, t2, t3, t4, t0, b[1], a, p, inv);
  mont_row4(t2, t3, t4, t0, t1, b[2], a, p, inv);
  mont_row4(t3, t4, t0, t1, t2, b[3], a, p, inv);
  return reduce_once4(Limbs<4>{t4, t0, t1, t2}, p);
}

// a * b * 2^-384 mod p for a, b < p with a spare top bit in p.
inline Limbs<6> mont_mul6(const Limbs<6>& a, const Limbs<6>& b, const Limbs<6>& p, const u64& inv) {
  u64 t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0;
  mont_row6(t0, t1, t2, t3, t4, t5, t6, b[0], a.data(), p.data(), inv);
  mont_row6(t1, t2, t3, t4, t5, t6, t0, b[1], a.data(), p.data(), inv);
  mont_row6(t2, t3, t4, t5, t6, t0, t1, b[2], a.data(), p.data(), inv);
  mont_row6(t3, t4, t5, t6, t0, t1, t2, b[3], a.data(), p.data(), inv);
  mont_row6(t4, t5, t6, t0, t1, t2, t3, b[4], a.data(), p.data(), inv);
  mont_row6(t5, t6, t0, t1, t2, t3, t4, b[5], a.data(), p.data(), inv);
  return reduce_once6(Limbs<6>{t6, t0, t1, t2, t3, t4}, p);
}

#endif  // CUZK_FF_HAVE_MONT_X86

}  // namespace cuzk::ff::x86
