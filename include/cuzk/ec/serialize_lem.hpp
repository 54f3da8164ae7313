// snarkjs / circom "LEM" point layout (.zkey, .ptau; INTEROP.md 7.4), both curves:
//   affine x then y, each coordinate as little-endian Montgomery limbs of n8q bytes
//   (x * 2^(8*n8q) mod q); a G2 coordinate is c0 then c1, so a G2 point is
//   x.c0, x.c1, y.c0, y.c1. The point at infinity is all-zero bytes, i.e. (0, 0), which is
//   also cuzk's in-memory infinity. These bytes equal the in-memory image of Affine<C>.
//
// read() rejects limbs that are not canonical Montgomery residues (>= q) always, points off
// the curve unless Check::kNone, and points outside the prime-order subgroup with
// Check::kSubgroup. Check::kNone is for trusted data (files this program wrote itself).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ec/serialize_common.hpp"

namespace cuzk::ec::lem {

template <class C>
inline constexpr std::size_t kPointSize = 2 * detail::kCoordBytes<C>;

enum class Check { kNone, kOnCurve, kSubgroup };

namespace detail {
using ec::detail::fail;
using ec::detail::QuadraticExt;

template <class Fq>
void write_prime(const Fq& v, std::span<std::uint8_t> out) {
  ec::detail::limbs_to_le(v.mont(), out);
}
template <class F>
void write_coord(const F& v, std::span<std::uint8_t> out) {
  if constexpr (QuadraticExt<F>) {
    constexpr std::size_t n = F::Base::kBytes;
    write_prime(v.c0, out.subspan(0, n));
    write_prime(v.c1, out.subspan(n, n));
  } else {
    write_prime(v, out);
  }
}
template <class Fq>
Fq read_prime(std::span<const std::uint8_t> b, const char* curve, const char* what) {
  auto m = ec::detail::limbs_from_le<Fq::kLimbs>(b);
  if (!ec::detail::less_than_modulus<Fq>(m))
    fail(curve, std::string("LEM ") + what + ": Montgomery limbs are not a canonical residue (>= q)");
  return Fq::from_mont(m);
}
template <class F>
F read_coord(std::span<const std::uint8_t> b, const char* curve, const char* what) {
  if constexpr (QuadraticExt<F>) {
    using Fq = typename F::Base;
    constexpr std::size_t n = Fq::kBytes;
    const std::string w0 = std::string(what) + ".c0", w1 = std::string(what) + ".c1";
    Fq c0 = read_prime<Fq>(b.subspan(0, n), curve, w0.c_str());
    Fq c1 = read_prime<Fq>(b.subspan(n, n), curve, w1.c_str());
    return F(c0, c1);
  } else {
    return read_prime<F>(b, curve, what);
  }
}
}  // namespace detail

template <class C>
void write(const Affine<C>& p, std::span<std::uint8_t> out) {
  constexpr std::size_t n = ec::detail::kCoordBytes<C>;
  if (out.size() != 2 * n)
    throw std::invalid_argument(std::string(C::kName) + " LEM write: output must be " + std::to_string(2 * n) +
                                " bytes, got " + std::to_string(out.size()));
  detail::write_coord(p.x, out.subspan(0, n));
  detail::write_coord(p.y, out.subspan(n, n));
}

template <class C>
std::vector<std::uint8_t> write(const Affine<C>& p) {
  std::vector<std::uint8_t> out(kPointSize<C>);
  write(p, std::span<std::uint8_t>(out));
  return out;
}

template <class C>
Affine<C> read(std::span<const std::uint8_t> in, Check check = Check::kOnCurve) {
  constexpr std::size_t n = ec::detail::kCoordBytes<C>;
  if (in.size() != 2 * n)
    detail::fail(C::kName, "wrong length for a LEM point: expected " + std::to_string(2 * n) + " bytes, got " +
                               std::to_string(in.size()));
  Affine<C> p;
  p.x = detail::read_coord<typename C::Base>(in.subspan(0, n), C::kName, "x");
  p.y = detail::read_coord<typename C::Base>(in.subspan(n, n), C::kName, "y");
  if (check != Check::kNone && !p.is_on_curve()) detail::fail(C::kName, "LEM point is not on the curve");
  if (check == Check::kSubgroup && !p.is_in_subgroup())
    detail::fail(C::kName, "LEM point is not in the prime-order subgroup");
  return p;
}

// Arrays of points (zkey sections): in.size() must be out.size() * kPointSize.
template <class C>
void read_many(std::span<const std::uint8_t> in, std::span<Affine<C>> out, Check check = Check::kOnCurve) {
  constexpr std::size_t s = kPointSize<C>;
  if (in.size() != out.size() * s)
    detail::fail(C::kName, "LEM point array: " + std::to_string(in.size()) + " bytes is not " +
                               std::to_string(out.size()) + " points of " + std::to_string(s) + " bytes");
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = read<C>(in.subspan(i * s, s), check);
}
template <class C>
void write_many(std::span<const Affine<C>> in, std::span<std::uint8_t> out) {
  constexpr std::size_t s = kPointSize<C>;
  if (out.size() != in.size() * s)
    throw std::invalid_argument(std::string(C::kName) + " LEM write_many: output size does not match the point count");
  for (std::size_t i = 0; i < in.size(); ++i) write(in[i], out.subspan(i * s, s));
}

}  // namespace cuzk::ec::lem
