// Fixed-width little-endian multi-precision integers: constexpr helpers used to
// derive field constants at compile time and to move canonical values around.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

namespace cuzk::ff {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

template <std::size_t N>
using Limbs = std::array<u64, N>;

namespace big {

// a + b + carry -> (sum, carry out)
constexpr u64 adc(u64 a, u64 b, u64& carry) {
  u128 t = static_cast<u128>(a) + b + carry;
  carry = static_cast<u64>(t >> 64);
  return static_cast<u64>(t);
}

// a - b - borrow -> (diff, borrow out in {0,1})
constexpr u64 sbb(u64 a, u64 b, u64& borrow) {
  u128 t = static_cast<u128>(a) - b - borrow;
  borrow = static_cast<u64>(t >> 64) & 1;
  return static_cast<u64>(t);
}

// acc + a*b + carry -> (low, carry = high)
constexpr u64 mac(u64 acc, u64 a, u64 b, u64& carry) {
  u128 t = static_cast<u128>(a) * b + acc + carry;
  carry = static_cast<u64>(t >> 64);
  return static_cast<u64>(t);
}

template <std::size_t N>
constexpr bool is_zero(const Limbs<N>& a) {
  u64 acc = 0;
  for (std::size_t i = 0; i < N; ++i) acc |= a[i];
  return acc == 0;
}

// -1, 0, 1
template <std::size_t N>
constexpr int cmp(const Limbs<N>& a, const Limbs<N>& b) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

template <std::size_t N>
constexpr u64 add(Limbs<N>& r, const Limbs<N>& a, const Limbs<N>& b) {
  u64 c = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = adc(a[i], b[i], c);
  return c;
}

template <std::size_t N>
constexpr u64 sub(Limbs<N>& r, const Limbs<N>& a, const Limbs<N>& b) {
  u64 br = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = sbb(a[i], b[i], br);
  return br;
}

template <std::size_t N>
constexpr Limbs<N> shr1(const Limbs<N>& a) {
  Limbs<N> r{};
  for (std::size_t i = 0; i < N; ++i) {
    r[i] = a[i] >> 1;
    if (i + 1 < N) r[i] |= a[i + 1] << 63;
  }
  return r;
}

template <std::size_t N>
constexpr bool bit(const Limbs<N>& a, std::size_t i) {
  return (a[i / 64] >> (i % 64)) & 1;
}

template <std::size_t N>
constexpr std::size_t num_bits(const Limbs<N>& a) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] != 0) return i * 64 + 64 - static_cast<std::size_t>(__builtin_clzll(a[i]));
  }
  return 0;
}

// (a + b) mod m for a, b < m
template <std::size_t N>
constexpr Limbs<N> add_mod(const Limbs<N>& a, const Limbs<N>& b, const Limbs<N>& m) {
  Limbs<N> r{};
  u64 c = add(r, a, b);
  Limbs<N> t{};
  u64 br = sub(t, r, m);
  if (c || !br) return t;
  return r;
}

// Parses "0x..." hex or decimal into N limbs; throws on overflow or bad digits.
template <std::size_t N>
constexpr Limbs<N> parse(std::string_view s) {
  Limbs<N> r{};
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) throw std::invalid_argument("empty integer literal");
  for (char ch : s) {
    unsigned d;
    if (ch >= '0' && ch <= '9') d = static_cast<unsigned>(ch - '0');
    else if (base == 16 && ch >= 'a' && ch <= 'f') d = static_cast<unsigned>(ch - 'a' + 10);
    else if (base == 16 && ch >= 'A' && ch <= 'F') d = static_cast<unsigned>(ch - 'A' + 10);
    else throw std::invalid_argument("bad digit in integer literal");
    u64 carry = d;
    for (std::size_t i = 0; i < N; ++i) {
      u128 t = static_cast<u128>(r[i]) * base + carry;
      r[i] = static_cast<u64>(t);
      carry = static_cast<u64>(t >> 64);
    }
    if (carry) throw std::out_of_range("integer literal too large");
  }
  return r;
}

}  // namespace big
}  // namespace cuzk::ff
