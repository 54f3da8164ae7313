// zcash / IETF encodings of BLS12-381 points (also used by bellperson, blst, noble):
//   G1: compressed 48 bytes, uncompressed 96;  G2: compressed 96, uncompressed 192.
// Coordinates are big-endian canonical integers; an Fq2 element c0 + c1*u is written c1 then
// c0. The three top bits of byte 0 are flags:
//   0x80 compression   0x40 infinity   0x20 sort (compressed only: y is the lexicographically
//   largest of the two roots; for Fq2 compare c1 first, c0 if c1 == 0).
// Infinity is 0xc0 00.. (compressed) or 0x40 00.. (uncompressed).
//
// decode() validates everything and throws cuzk::DecodeError with a specific message:
//   wrong length; invalid flag combination; infinity with non-zero bits; non-canonical
//   coordinate (>= p); compressed x with no y on the curve; uncompressed point not on the
//   curve; point not in the order-r subgroup.
// decode_unchecked() is for trusted data (our own files, parameters already verified once):
// it still checks lengths, flags and canonicity (cheap) and still needs a square root for
// compressed points, but skips the subgroup test and the on-curve test of uncompressed points.
// A corrupted input can then yield a point off the curve or outside the subgroup.
//
// The code is generic over the curve traits but the format is defined for BLS12-381 only
// (cuzk::ec::bls12_381::G1Curve, G2Curve).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ec/serialize_common.hpp"

namespace cuzk::ec::zcash {

template <class C>
inline constexpr std::size_t kCompressedSize = detail::kCoordBytes<C>;
template <class C>
inline constexpr std::size_t kUncompressedSize = 2 * detail::kCoordBytes<C>;

inline constexpr std::uint8_t kFlagCompressed = 0x80;
inline constexpr std::uint8_t kFlagInfinity = 0x40;
inline constexpr std::uint8_t kFlagSort = 0x20;

namespace detail {
using ec::detail::fail;
using ec::detail::PrimeOfT;
using ec::detail::QuadraticExt;

template <class F>
void write_coord(const F& v, std::span<std::uint8_t> out) {
  if constexpr (QuadraticExt<F>) {
    constexpr std::size_t n = F::Base::kBytes;
    v.c1.to_bytes_be(out.subspan(0, n));
    v.c0.to_bytes_be(out.subspan(n, n));
  } else {
    v.to_bytes_be(out);
  }
}

template <class Fq>
Fq read_prime_be(std::span<const std::uint8_t> b, const char* curve, const char* what) {
  auto c = ec::detail::limbs_from_be<Fq::kLimbs>(b);
  if (!ec::detail::less_than_modulus<Fq>(c)) fail(curve, std::string("non-canonical ") + what + " coordinate (>= p)");
  return Fq::from_canonical(c);
}

// b holds the coordinate with the flag bits already cleared.
template <class F>
F read_coord(std::span<const std::uint8_t> b, const char* curve, const char* what) {
  if constexpr (QuadraticExt<F>) {
    using Fq = typename F::Base;
    constexpr std::size_t n = Fq::kBytes;
    const std::string w1 = std::string(what) + ".c1", w0 = std::string(what) + ".c0";
    Fq c1 = read_prime_be<Fq>(b.subspan(0, n), curve, w1.c_str());
    Fq c0 = read_prime_be<Fq>(b.subspan(n, n), curve, w0.c_str());
    return F(c0, c1);
  } else {
    return read_prime_be<F>(b, curve, what);
  }
}
}  // namespace detail

// Writes the encoding of p into out, which must hold exactly the encoding's size.
template <class C>
void encode(const Affine<C>& p, std::span<std::uint8_t> out, bool compressed = true) {
  constexpr std::size_t n = ec::detail::kCoordBytes<C>;
  const std::size_t want = compressed ? n : 2 * n;
  if (out.size() != want)
    throw std::invalid_argument(std::string(C::kName) + " zcash encode: output buffer must be " + std::to_string(want) +
                                " bytes, got " + std::to_string(out.size()));
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  if (p.is_infinity()) {
    out[0] = compressed ? (kFlagCompressed | kFlagInfinity) : kFlagInfinity;
    return;
  }
  detail::write_coord(p.x, out.subspan(0, n));
  if (compressed) {
    out[0] |= kFlagCompressed;
    if (p.y.is_lexicographically_largest()) out[0] |= kFlagSort;
  } else {
    detail::write_coord(p.y, out.subspan(n, n));
  }
}

template <class C>
std::vector<std::uint8_t> encode(const Affine<C>& p, bool compressed = true) {
  std::vector<std::uint8_t> out(compressed ? kCompressedSize<C> : kUncompressedSize<C>);
  encode(p, std::span<std::uint8_t>(out), compressed);
  return out;
}

enum class Check { kFull, kUnchecked };

// Decodes either form; the compression flag must agree with the length.
template <class C>
Affine<C> decode(std::span<const std::uint8_t> in, Check check = Check::kFull) {
  using Base = typename C::Base;
  constexpr std::size_t n = ec::detail::kCoordBytes<C>;
  const char* curve = C::kName;
  if (in.size() != n && in.size() != 2 * n)
    detail::fail(curve, "wrong length for a zcash point encoding: expected " + std::to_string(n) + " (compressed) or " +
                            std::to_string(2 * n) + " (uncompressed) bytes, got " + std::to_string(in.size()));
  const std::uint8_t flags = in[0] & 0xe0;
  const bool c_flag = flags & kFlagCompressed, i_flag = flags & kFlagInfinity, s_flag = flags & kFlagSort;
  if (c_flag && in.size() != n)
    detail::fail(curve, "wrong length: compression flag set, so expected " + std::to_string(n) + " bytes, got " +
                            std::to_string(in.size()));
  if (!c_flag && in.size() != 2 * n)
    detail::fail(curve, "wrong length: compression flag not set, so expected " + std::to_string(2 * n) +
                            " bytes (uncompressed), got " + std::to_string(in.size()));
  if (s_flag && (!c_flag || i_flag))
    detail::fail(curve, i_flag ? "invalid flags: sort flag set on the point at infinity"
                               : "invalid flags: sort flag set on an uncompressed encoding");

  std::vector<std::uint8_t> buf(in.begin(), in.end());
  buf[0] &= 0x1f;
  if (i_flag) {
    for (std::uint8_t b : buf)
      if (b != 0) detail::fail(curve, "infinity flag set but the remaining bits are not all zero");
    return Affine<C>::infinity();
  }
  const std::span<const std::uint8_t> bytes(buf);
  Affine<C> p;
  p.x = detail::read_coord<Base>(bytes.subspan(0, n), curve, "x");
  if (c_flag) {
    auto y = (p.x.square() * p.x + C::b()).sqrt();
    if (!y) detail::fail(curve, "compressed x is not the x-coordinate of a curve point (x^3 + b has no square root)");
    p.y = (y->is_lexicographically_largest() == s_flag) ? *y : -*y;
  } else {
    p.y = detail::read_coord<Base>(bytes.subspan(n, n), curve, "y");
    if (check == Check::kFull && !p.is_on_curve()) detail::fail(curve, "uncompressed point is not on the curve");
    if (p.is_infinity())  // (0, 0) must use the infinity flag (unchecked mode reaches here)
      detail::fail(curve, "uncompressed point is not on the curve (all-zero coordinates without the infinity flag)");
  }
  if (check == Check::kFull && !p.is_in_subgroup()) detail::fail(curve, "point is not in the prime-order subgroup");
  return p;
}

// Trusted-input variant, see the header comment.
template <class C>
Affine<C> decode_unchecked(std::span<const std::uint8_t> in) {
  return decode<C>(in, Check::kUnchecked);
}

}  // namespace cuzk::ec::zcash
