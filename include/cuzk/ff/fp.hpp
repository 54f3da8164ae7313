// Prime field Fp<P> in Montgomery form on 64-bit limbs.
//
// P supplies `kLimbs`, `kModulus` (little-endian limbs) and `kNonResidue` (a small
// quadratic non-residue, also the generator snarkjs/ffjavascript uses for roots
// of unity). Every other constant (Montgomery R, R^2, -p^-1 mod 2^64, 2-adicity,
// roots of unity) is derived here at compile time from the modulus.
//
// Memory layout: exactly kLimbs little-endian u64 words holding x*R mod p,
// R = 2^(64*kLimbs). The CUDA side reads the same bytes as 2*kLimbs u32 words.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/mont_x86.hpp"

namespace cuzk::ff {

template <class P>
class Fp {
 public:
  static constexpr std::size_t kLimbs = P::kLimbs;
  static constexpr std::size_t kBytes = 8 * kLimbs;
  using Repr = Limbs<kLimbs>;
  static constexpr Repr kModulus = P::kModulus;
  static constexpr std::size_t kBits = big::num_bits(kModulus);

 private:
  static constexpr u64 compute_inv() {
    // Newton iteration for p^-1 mod 2^64, then negate.
    u64 x = 1;
    for (int i = 0; i < 6; ++i) x *= 2 - kModulus[0] * x;
    return ~x + 1;
  }
  // 2^k mod p by repeated doubling of 1.
  static constexpr Repr pow2_mod(std::size_t k) {
    Repr r{};
    r[0] = 1;
    for (std::size_t i = 0; i < k; ++i) r = big::add_mod(r, r, kModulus);
    return r;
  }

 public:
  static constexpr u64 kInv = compute_inv();
  static constexpr Repr kR = pow2_mod(64 * kLimbs);
  static constexpr Repr kR2 = pow2_mod(128 * kLimbs);
  // The "no carry" CIOS variant is valid when the top limb leaves a spare bit.
  static constexpr bool kNoCarry = kModulus[kLimbs - 1] < (~u64{0} >> 1) - 1;

  constexpr Fp() : l_{} {}

  // --- construction -------------------------------------------------------
  static constexpr Fp zero() { return Fp(); }
  static constexpr Fp one() { return from_mont(kR); }
  // Wraps raw Montgomery limbs (memory images, snarkjs "LEM" data). No checks.
  static constexpr Fp from_mont(const Repr& m) {
    Fp r;
    r.l_ = m;
    return r;
  }
  static constexpr Fp from_u64(u64 v) {
    Repr c{};
    c[0] = v;
    return from_canonical_unchecked(c);
  }
  // Canonical integer -> field element; throws DecodeError if it is >= p.
  static constexpr Fp from_canonical(const Repr& c) {
    if (big::cmp(c, kModulus) >= 0) throw DecodeError("field element is not canonical (>= modulus)");
    return from_canonical_unchecked(c);
  }
  // Parses hex ("0x..") or decimal; must be < p.
  static constexpr Fp from_string(std::string_view s) {
    return from_canonical(big::parse<kLimbs>(s));
  }
  // Reduces an arbitrary integer of kLimbs words mod p (used for hashing/random).
  static constexpr Fp from_canonical_reduce(Repr c) {
    while (big::cmp(c, kModulus) >= 0) big::sub(c, c, kModulus);
    return from_canonical_unchecked(c);
  }

  // Little-endian / big-endian canonical byte encodings of exactly kBytes bytes.
  static Fp from_bytes_le(std::span<const std::uint8_t> b) {
    if (b.size() != kBytes) throw DecodeError("field element: expected " + std::to_string(kBytes) + " bytes, got " + std::to_string(b.size()));
    Repr c{};
    for (std::size_t i = 0; i < kBytes; ++i) c[i / 8] |= u64{b[i]} << (8 * (i % 8));
    return from_canonical(c);
  }
  static Fp from_bytes_be(std::span<const std::uint8_t> b) {
    if (b.size() != kBytes) throw DecodeError("field element: expected " + std::to_string(kBytes) + " bytes, got " + std::to_string(b.size()));
    Repr c{};
    for (std::size_t i = 0; i < kBytes; ++i) c[i / 8] |= u64{b[kBytes - 1 - i]} << (8 * (i % 8));
    return from_canonical(c);
  }
  void to_bytes_le(std::span<std::uint8_t> out) const {
    Repr c = to_canonical();
    for (std::size_t i = 0; i < kBytes; ++i) out[i] = static_cast<std::uint8_t>(c[i / 8] >> (8 * (i % 8)));
  }
  void to_bytes_be(std::span<std::uint8_t> out) const {
    Repr c = to_canonical();
    for (std::size_t i = 0; i < kBytes; ++i) out[kBytes - 1 - i] = static_cast<std::uint8_t>(c[i / 8] >> (8 * (i % 8)));
  }
  std::array<std::uint8_t, kBytes> to_bytes_le() const {
    std::array<std::uint8_t, kBytes> a{};
    to_bytes_le(a);
    return a;
  }
  std::array<std::uint8_t, kBytes> to_bytes_be() const {
    std::array<std::uint8_t, kBytes> a{};
    to_bytes_be(a);
    return a;
  }

  // Uniform random element by rejection sampling. Rng: UniformRandomBitGenerator of u64.
  template <class Rng>
  static Fp random(Rng& rng) {
    constexpr std::size_t top_bits = kBits - 64 * (kLimbs - 1);
    constexpr u64 mask = top_bits == 64 ? ~u64{0} : ((u64{1} << top_bits) - 1);
    for (;;) {
      Repr c{};
      for (auto& w : c) w = static_cast<u64>(rng());
      c[kLimbs - 1] &= mask;
      if (big::cmp(c, kModulus) < 0) return from_canonical_unchecked(c);
    }
  }

  // --- access ---------------------------------------------------------------
  constexpr const Repr& mont() const { return l_; }
  constexpr Repr to_canonical() const {
    Repr one{};
    one[0] = 1;
    return mont_mul(l_, one);
  }
  std::string to_hex() const;
  std::string to_decimal() const;

  constexpr bool is_zero() const { return big::is_zero(l_); }
  constexpr bool is_one() const { return l_ == kR; }
  constexpr bool operator==(const Fp& o) const { return l_ == o.l_; }
  // Lexicographic order of the canonical values ("lexicographically largest" for zcash flags).
  constexpr bool is_lexicographically_largest() const {
    // x > (p-1)/2  <=>  x > p - 1 - x
    Repr c = to_canonical();
    Repr neg{};
    big::sub(neg, kModulus, c);
    return !is_zero() && big::cmp(c, neg) > 0;
  }

  // --- arithmetic ------------------------------------------------------------
  constexpr Fp operator+(const Fp& o) const {
#ifdef CUZK_FF_HAVE_MONT_X86
    if (!std::is_constant_evaluated()) {
      if constexpr (kNoCarry && kLimbs == 4) return from_mont(x86::add_mod4(l_, o.l_, kModulus));
      if constexpr (kNoCarry && kLimbs == 6) return from_mont(x86::add_mod6(l_, o.l_, kModulus));
    }
#endif
    return from_mont(big::add_mod(l_, o.l_, kModulus));
  }
  constexpr Fp operator-(const Fp& o) const {
#ifdef CUZK_FF_HAVE_MONT_X86
    if (!std::is_constant_evaluated()) {
      if constexpr (kLimbs == 4) return from_mont(x86::sub_mod4(l_, o.l_, kModulus));
      if constexpr (kLimbs == 6) return from_mont(x86::sub_mod6(l_, o.l_, kModulus));
    }
#endif
    Repr r{};
    if (big::sub(r, l_, o.l_)) big::add(r, r, kModulus);
    return from_mont(r);
  }
  constexpr Fp operator-() const { return is_zero() ? *this : zero() - *this; }
  constexpr Fp operator*(const Fp& o) const { return from_mont(mont_mul(l_, o.l_)); }
  constexpr Fp& operator+=(const Fp& o) { return *this = *this + o; }
  constexpr Fp& operator-=(const Fp& o) { return *this = *this - o; }
  constexpr Fp& operator*=(const Fp& o) { return *this = *this * o; }
  constexpr Fp dbl() const { return *this + *this; }
  // A dedicated squaring (4 limbs, MULX) measured slower than mul here: see bench/RESULTS.md.
  constexpr Fp square() const { return *this * *this; }

  // x^e for a little-endian exponent of any width.
  // Fixed 4-bit windows: one multiplication per 4 exponent bits instead of one per set bit.
  template <std::size_t M>
  constexpr Fp pow(const Limbs<M>& e) const {
    const std::size_t bits = big::num_bits(e);
    Fp r = one();
    if (bits <= 32) {
      for (std::size_t i = bits; i-- > 0;) {
        r = r.square();
        if (big::bit(e, i)) r *= *this;
      }
      return r;
    }
    std::array<Fp, 16> tab{};  // tab[k] = x^k
    tab[0] = one();
    for (std::size_t k = 1; k < 16; ++k) tab[k] = tab[k - 1] * *this;
    for (std::size_t w = (bits + 3) / 4; w-- > 0;) {
      if (w + 1 < (bits + 3) / 4) r = r.square().square().square().square();
      const unsigned d = static_cast<unsigned>((e[4 * w / 64] >> (4 * w % 64)) & 0xf);
      if (d != 0) r = (w + 1 == (bits + 3) / 4) ? tab[d] : r * tab[d];
    }
    return r;
  }
  constexpr Fp pow(u64 e) const { return pow(Limbs<1>{e}); }

  // Multiplicative inverse (Fermat); inverse of zero is zero.
  constexpr Fp inverse() const {
    Repr e = kModulus;
    e[0] -= 2;  // p is odd and > 2
    return pow(e);
  }

  // Legendre symbol: 0, 1 or -1.
  constexpr int legendre() const {
    if (is_zero()) return 0;
    Fp t = pow(big::shr1(kModulus));  // (p-1)/2 since p is odd
    return t.is_one() ? 1 : -1;
  }

  // A square root if one exists (Tonelli-Shanks; the p = 3 mod 4 shortcut).
  constexpr std::optional<Fp> sqrt() const;

  // --- 2-adic structure (for NTT domains) ------------------------------------
  // p - 1 = 2^kTwoAdicity * kTrace, kTrace odd.
  static constexpr std::size_t kTwoAdicity = [] {
    Repr pm1 = kModulus;
    pm1[0] -= 1;
    std::size_t s = 0;
    while (!big::bit(pm1, s)) ++s;
    return s;
  }();
  static constexpr Repr kTrace = [] {
    Repr t = kModulus;
    t[0] -= 1;
    for (std::size_t i = 0; i < kTwoAdicity; ++i) t = big::shr1(t);
    return t;
  }();
  static constexpr Fp nonresidue() { return from_u64(P::kNonResidue); }
  // Primitive 2^k-th root of unity, defined as ffjavascript does:
  // w[s] = nqr^((p-1)/2^s), w[k] = w[k+1]^2.
  static constexpr Fp root_of_unity(std::size_t k) {
    if (k > kTwoAdicity) throw std::out_of_range("root_of_unity: order exceeds the field's 2-adicity");
    Fp w = nonresidue().pow(kTrace);
    for (std::size_t i = kTwoAdicity; i > k; --i) w = w.square();
    return w;
  }

 private:
  static constexpr Fp from_canonical_unchecked(const Repr& c) { return from_mont(mont_mul(c, kR2)); }

  static constexpr Repr mont_mul(const Repr& a, const Repr& b) {
    constexpr std::size_t N = kLimbs;
#ifdef CUZK_FF_HAVE_MONT_X86
    if constexpr (kNoCarry && (N == 4 || N == 6)) {
      if (!std::is_constant_evaluated()) {
        if (!x86::have_mulx_adx()) [[unlikely]]
          return mont_mul_portable(a, b);
        if constexpr (N == 4) return x86::mont_mul4(a, b, kModulus, kInv);
        else return x86::mont_mul6(a, b, kModulus, kInv);
      }
    }
#endif
    return mont_mul_portable(a, b);
  }

  static constexpr Repr mont_mul_portable(const Repr& a, const Repr& b) {
    constexpr std::size_t N = kLimbs;
    Repr t{};
    if constexpr (kNoCarry) {
      for (std::size_t i = 0; i < N; ++i) {
        u64 A = 0;
        t[0] = big::mac(t[0], a[0], b[i], A);
        u64 m = t[0] * kInv;
        u64 C = 0;
        big::mac(t[0], m, kModulus[0], C);
        for (std::size_t j = 1; j < N; ++j) {
          t[j] = big::mac(t[j], a[j], b[i], A);
          t[j - 1] = big::mac(t[j], m, kModulus[j], C);
        }
        t[N - 1] = C + A;
      }
      Repr s{};
      if (!big::sub(s, t, kModulus)) return s;
      return t;
    } else {
      u64 hi = 0, hi2 = 0;
      for (std::size_t i = 0; i < N; ++i) {
        u64 C = 0;
        for (std::size_t j = 0; j < N; ++j) t[j] = big::mac(t[j], a[j], b[i], C);
        u64 c2 = 0;
        hi = big::adc(hi, C, c2);
        hi2 = c2;
        u64 m = t[0] * kInv;
        C = 0;
        big::mac(t[0], m, kModulus[0], C);
        for (std::size_t j = 1; j < N; ++j) t[j - 1] = big::mac(t[j], m, kModulus[j], C);
        c2 = 0;
        t[N - 1] = big::adc(hi, C, c2);
        hi = hi2 + c2;
      }
      Repr s{};
      u64 br = big::sub(s, t, kModulus);
      if (hi || !br) return s;
      return t;
    }
  }

  Repr l_;
};

template <class P>
constexpr std::optional<Fp<P>> Fp<P>::sqrt() const {
  if (is_zero()) return *this;
  if (legendre() != 1) return std::nullopt;
  if ((kModulus[0] & 3) == 3) {
    // (p+1)/4
    Repr e = kModulus;
    u64 c = 1;
    for (auto& w : e) w = big::adc(w, 0, c);
    e = big::shr1(big::shr1(e));
    return pow(e);
  }
  // Tonelli-Shanks with z = a non-residue, c = z^t.
  Fp c = nonresidue().pow(kTrace);
  Repr t1 = kTrace;  // (t+1)/2
  u64 carry = 1;
  for (auto& w : t1) w = big::adc(w, 0, carry);
  t1 = big::shr1(t1);
  Fp x = pow(t1);
  Fp b = pow(kTrace);
  std::size_t m = kTwoAdicity;
  while (!b.is_one()) {
    std::size_t i = 0;
    Fp b2 = b;
    while (!b2.is_one()) {
      b2 = b2.square();
      ++i;
    }
    Fp g = c;
    for (std::size_t j = 0; j + i + 1 < m; ++j) g = g.square();
    x *= g;
    c = g.square();
    b *= c;
    m = i;
  }
  return x;
}

template <class P>
std::string Fp<P>::to_hex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  Repr c = to_canonical();
  std::string s;
  for (std::size_t i = kLimbs; i-- > 0;)
    for (int k = 60; k >= 0; k -= 4) s.push_back(kDigits[(c[i] >> k) & 0xf]);
  std::size_t nz = s.find_first_not_of('0');
  return "0x" + (nz == std::string::npos ? std::string("0") : s.substr(nz));
}

template <class P>
std::string Fp<P>::to_decimal() const {
  Repr c = to_canonical();
  std::string s;
  while (!big::is_zero(c)) {
    // divide by 10^19, collect the remainder
    constexpr u64 kChunk = 10000000000000000000ull;
    u128 rem = 0;
    for (std::size_t i = kLimbs; i-- > 0;) {
      u128 cur = (rem << 64) | c[i];
      c[i] = static_cast<u64>(cur / kChunk);
      rem = cur % kChunk;
    }
    u64 r = static_cast<u64>(rem);
    for (int k = 0; k < 19; ++k) {
      s.push_back(static_cast<char>('0' + r % 10));
      r /= 10;
    }
  }
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (s.empty()) s = "0";
  return std::string(s.rbegin(), s.rend());
}

template <class P>
std::ostream& operator<<(std::ostream& os, const Fp<P>& x) {
  return os << x.to_hex();
}

// Montgomery's trick: inverts every non-zero element in place; zeros stay zero.
template <class F>
void batch_inverse(std::span<F> xs) {
  std::vector<F> prefix(xs.size());
  F acc = F::one();
  for (std::size_t i = 0; i < xs.size(); ++i) {
    prefix[i] = acc;
    if (!xs[i].is_zero()) acc *= xs[i];
  }
  F inv = acc.inverse();
  for (std::size_t i = xs.size(); i-- > 0;) {
    if (xs[i].is_zero()) continue;
    F xi = xs[i];
    xs[i] = inv * prefix[i];
    inv *= xi;
  }
}

}  // namespace cuzk::ff
