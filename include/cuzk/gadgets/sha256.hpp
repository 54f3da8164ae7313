// SHA-256 (FIPS 180-4) as a circuit: the compression function over UInt32 words and the full
// hash with padding. Bits are big-endian (message byte b contributes bits b>>7 .. b&1 in order),
// as in the standard; the digest is 256 bits in the same order.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/gadgets/sha256_constants.hpp"
#include "cuzk/gadgets/uint32.hpp"

namespace cuzk::gadgets {

namespace sha256_detail {
inline constexpr const auto& kK = sha256_constants::kRound;
inline constexpr const auto& kIV = sha256_constants::kIv;

template <class F, class CS>
UInt32<F> xor3(CS& cs, const UInt32<F>& a, const UInt32<F>& b, const UInt32<F>& c) {
  return a.xor_(cs, b).xor_(cs, c);
}
}  // namespace sha256_detail

template <class F>
std::array<UInt32<F>, 8> sha256_iv() {
  std::array<UInt32<F>, 8> s;
  for (int i = 0; i < 8; ++i) s[i] = UInt32<F>::constant(sha256_detail::kIV[i]);
  return s;
}

// One compression: state (8 words) and a 512-bit block (big-endian bits) -> new state.
template <class F, class CS>
std::array<UInt32<F>, 8> sha256_compress(CS& cs, const std::array<UInt32<F>, 8>& state,
                                         std::span<const Boolean<F>> block) {
  using U = UInt32<F>;
  using sha256_detail::xor3;
  if (block.size() != 512) throw std::invalid_argument("sha256_compress: block must have 512 bits");
  std::array<U, 64> w;
  for (int i = 0; i < 16; ++i) w[i] = U::from_bits_be(block.subspan(32 * i, 32));
  {
    cs::Namespace ns(cs, "schedule");
    for (int t = 16; t < 64; ++t) {
      cs::Namespace nt(cs, [t] { return "w " + std::to_string(t); });
      U s0 = xor3<F>(cs, w[t - 15].rotr(7), w[t - 15].rotr(18), w[t - 15].shr(3));
      U s1 = xor3<F>(cs, w[t - 2].rotr(17), w[t - 2].rotr(19), w[t - 2].shr(10));
      const std::array<U, 4> ops{w[t - 16], s0, w[t - 7], s1};
      w[t] = U::addmany(cs, std::span<const U>(ops));
    }
  }
  U a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6],
    h = state[7];
  for (int i = 0; i < 64; ++i) {
    cs::Namespace nr(cs, [i] { return "round " + std::to_string(i); });
    U s1, ch, s0, maj;
    {
      cs::Namespace n(cs, "S1");
      s1 = xor3<F>(cs, e.rotr(6), e.rotr(11), e.rotr(25));
    }
    {
      cs::Namespace n(cs, "ch");
      typename U::Bits bits;
      for (int k = 0; k < 32; ++k) bits[k] = select<F>(cs, e.bits_le()[k], f.bits_le()[k], g.bits_le()[k]);
      ch = U::from_bits_le(bits);
    }
    {
      cs::Namespace n(cs, "S0");
      s0 = xor3<F>(cs, a.rotr(2), a.rotr(13), a.rotr(22));
    }
    {
      cs::Namespace n(cs, "maj");
      typename U::Bits bits;
      for (int k = 0; k < 32; ++k) bits[k] = majority<F>(cs, a.bits_le()[k], b.bits_le()[k], c.bits_le()[k]);
      maj = U::from_bits_le(bits);
    }
    const U k = U::constant(sha256_detail::kK[i]);
    U new_e, new_a;
    {
      cs::Namespace n(cs, "new e");
      const std::array<U, 6> ops{h, s1, ch, k, w[i], d};
      new_e = U::addmany(cs, std::span<const U>(ops));
    }
    {
      cs::Namespace n(cs, "new a");
      const std::array<U, 7> ops{h, s1, ch, k, w[i], s0, maj};
      new_a = U::addmany(cs, std::span<const U>(ops));
    }
    h = g; g = f; f = e; e = new_e; d = c; c = b; b = a; a = new_a;
  }
  const std::array<U, 8> vars{a, b, c, d, e, f, g, h};
  std::array<U, 8> out;
  cs::Namespace nf(cs, "final add");
  for (int i = 0; i < 8; ++i) {
    const std::array<U, 2> ops{state[i], vars[i]};
    out[i] = U::addmany(cs, std::span<const U>(ops));
  }
  return out;
}

// The 256 big-endian digest bits of a state.
template <class F>
std::vector<Boolean<F>> sha256_state_bits(const std::array<UInt32<F>, 8>& s) {
  std::vector<Boolean<F>> r;
  r.reserve(256);
  for (const auto& w : s)
    for (int i = 31; i >= 0; --i) r.push_back(w.bits_le()[i]);
  return r;
}

// SHA-256 of a message of any bit length (big-endian bits); padding bits are constants.
template <class F, class CS>
std::vector<Boolean<F>> sha256(CS& cs, std::span<const Boolean<F>> message) {
  cs::Namespace ns(cs, "sha256");
  std::vector<Boolean<F>> m(message.begin(), message.end());
  const std::uint64_t len = message.size();
  m.push_back(Boolean<F>::constant(true));
  while (m.size() % 512 != 448) m.push_back(Boolean<F>::constant(false));
  for (int i = 63; i >= 0; --i) m.push_back(Boolean<F>::constant(((len >> i) & 1) != 0));
  auto state = sha256_iv<F>();
  for (std::size_t blk = 0; blk < m.size() / 512; ++blk) {
    cs::Namespace nb(cs, [blk] { return "block " + std::to_string(blk); });
    state = sha256_compress<F>(cs, state, std::span<const Boolean<F>>(m).subspan(512 * blk, 512));
  }
  return sha256_state_bits<F>(state);
}

// Big-endian bits of bytes, allocated (8 booleanity constraints per byte).
template <class F, class CS>
std::vector<Boolean<F>> alloc_bytes_be(CS& cs, std::span<const std::uint8_t> bytes) {
  std::vector<Boolean<F>> r;
  r.reserve(bytes.size() * 8);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    for (int k = 7; k >= 0; --k) r.push_back(Boolean<F>::alloc(cs, "msg bit", [&] { return ((bytes[i] >> k) & 1) != 0; }));
  return r;
}

}  // namespace cuzk::gadgets
