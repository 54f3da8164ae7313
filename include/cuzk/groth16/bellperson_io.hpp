// bellperson's BLS12-381 Groth16 formats (layout learned from bellperson src/groth16/
// verifying_key.rs, params.rs, proof.rs; all points zcash-encoded, cuzk/ec/serialize_zcash.hpp):
//   .vk     alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2 (uncompressed), u32 BE
//           IC count, IC points (uncompressed; never infinity).
//   .params the .vk bytes, then h, l, a, b_g1, b_g2, each a u32 BE count and uncompressed
//           points; none may be infinity (bellperson's reader rejects it).
//   proof   192 bytes: A (48, compressed G1), B (96, compressed G2), C (48); no infinity.
//
// .params keys have h_convention kZDivided (h: tau^i Z(tau)/delta, n - 1 points), no
// matrices (c_stored stays true, a/b/c empty: the circuit comes from elsewhere), and, as in
// bellperson, a_query/b_g1_query/b_g2_query hold only the points that are not infinity (the
// prover pairs them with the circuit's A/B densities). num_vars = ic.size() + l.size();
// domain_size = h.size() + 1. write_bellperson_params drops infinity points from a/b the
// same way, and rejects infinity in h/l/ic.
//
// Reads validate fully by default (lengths, flags, canonical coordinates, on the curve, in
// the subgroup); BellpersonCheck::kUnchecked skips the on-curve and subgroup tests of the
// bulk points (h, l, a, b), bellperson's `checked = false`. Subgroup tests dominate the cost
// of reading a full-size .params file (one endomorphism scalar multiplication per point), so
// the points are decoded in parallel (TBB).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "cuzk/ec/serialize_zcash.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/io/binfile.hpp"

namespace cuzk::groth16 {

enum class BellpersonCheck : std::uint8_t { kFull, kUnchecked };

inline constexpr std::size_t kBellpersonProofSize = 192;

namespace bellperson_detail {
using G1C = ec::bls12_381::G1Curve;
using G2C = ec::bls12_381::G2Curve;
inline constexpr std::size_t kG1U = ec::zcash::kUncompressedSize<G1C>;  // 96
inline constexpr std::size_t kG2U = ec::zcash::kUncompressedSize<G2C>;  // 192
inline constexpr std::size_t kG1C = ec::zcash::kCompressedSize<G1C>;    // 48
inline constexpr std::size_t kG2C = ec::zcash::kCompressedSize<G2C>;    // 96

class Cursor {
 public:
  Cursor(std::span<const std::uint8_t> b, const char* file) : b_(b), file_(file) {}
  [[noreturn]] void fail(const std::string& what) const {
    throw DecodeError(std::string(file_) + ", offset " + std::to_string(pos_) + ": " + what);
  }
  std::span<const std::uint8_t> take(std::size_t n, const std::string& what) {
    if (b_.size() - pos_ < n)
      fail("truncated: " + what + " needs " + std::to_string(n) + " bytes, " + std::to_string(b_.size() - pos_) + " left");
    auto s = b_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  std::uint32_t u32_be(const std::string& what) {
    auto s = take(4, what);
    return (std::uint32_t{s[0]} << 24) | (std::uint32_t{s[1]} << 16) | (std::uint32_t{s[2]} << 8) | s[3];
  }
  std::size_t pos() const { return pos_; }
  std::size_t remaining() const { return b_.size() - pos_; }

 private:
  std::span<const std::uint8_t> b_;
  const char* file_;
  std::size_t pos_ = 0;
};

template <class C>
ec::Affine<C> decode_one(std::span<const std::uint8_t> s, BellpersonCheck check, bool allow_infinity) {
  auto p = ec::zcash::decode<C>(s, check == BellpersonCheck::kFull ? ec::zcash::Check::kFull : ec::zcash::Check::kUnchecked);
  if (!allow_infinity && p.is_infinity()) throw DecodeError("point at infinity");
  return p;
}

template <class C>
ec::Affine<C> read_point(Cursor& c, const char* name, bool allow_infinity = true) {
  const std::size_t at = c.pos();
  auto s = c.take(ec::zcash::kUncompressedSize<C>, name);
  try {
    return decode_one<C>(s, BellpersonCheck::kFull, allow_infinity);
  } catch (const DecodeError& e) {
    throw DecodeError(std::string("offset ") + std::to_string(at) + ": " + name + ": " + e.what());
  }
}

// u32 BE count, then count uncompressed points (none infinity).
template <class C>
std::vector<ec::Affine<C>> read_vec(Cursor& c, const char* name, BellpersonCheck check) {
  const std::uint32_t count = c.u32_be(std::string(name) + " count");
  constexpr std::size_t s = ec::zcash::kUncompressedSize<C>;
  const std::size_t start = c.pos();
  if (std::uint64_t{count} * s > c.remaining())
    c.fail(std::string(name) + ": count " + std::to_string(count) + " needs " + std::to_string(std::uint64_t{count} * s) +
           " bytes, " + std::to_string(c.remaining()) + " left");
  auto bytes = c.take(std::size_t{count} * s, name);
  std::vector<ec::Affine<C>> out(count);
  auto one = [&](std::size_t i) {
    try {
      out[i] = decode_one<C>(bytes.subspan(i * s, s), check, false);
    } catch (const DecodeError& e) {
      throw DecodeError(std::string("offset ") + std::to_string(start + i * s) + ": " + name + "[" + std::to_string(i) +
                        "]: " + e.what());
    }
  };
  if (count < 1024) {
    for (std::size_t i = 0; i < count; ++i) one(i);
  } else {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 256), [&](const auto& r) {
      for (std::size_t i = r.begin(); i < r.end(); ++i) one(i);
    });
  }
  return out;
}

template <class C>
void put(std::vector<std::uint8_t>& out, const ec::Affine<C>& p) {
  const std::size_t at = out.size();
  out.resize(at + ec::zcash::kUncompressedSize<C>);
  ec::zcash::encode(p, std::span<std::uint8_t>(out).subspan(at, ec::zcash::kUncompressedSize<C>), false);
}
inline void put_u32_be(std::vector<std::uint8_t>& out, std::size_t v, const char* what) {
  if (v > 0xffffffffu) throw std::invalid_argument(std::string("bellperson write: ") + what + " count does not fit u32");
  for (int sh = 24; sh >= 0; sh -= 8) out.push_back(static_cast<std::uint8_t>(v >> sh));
}
template <class C>
void put_vec(std::vector<std::uint8_t>& out, const std::vector<ec::Affine<C>>& v, const char* what, bool drop_infinity) {
  std::size_t n = 0;
  for (const auto& p : v) n += !p.is_infinity();
  if (!drop_infinity && n != v.size())
    throw std::invalid_argument(std::string("bellperson write: ") + what + " contains the point at infinity");
  put_u32_be(out, n, what);
  for (const auto& p : v)
    if (!p.is_infinity()) put(out, p);
}

inline VerifyingKey<Bls12_381> read_vk(Cursor& c) {
  VerifyingKey<Bls12_381> vk;
  vk.alpha_g1 = read_point<G1C>(c, "alpha_g1");
  vk.beta_g1 = read_point<G1C>(c, "beta_g1");
  vk.beta_g2 = read_point<G2C>(c, "beta_g2");
  vk.gamma_g2 = read_point<G2C>(c, "gamma_g2");
  vk.delta_g1 = read_point<G1C>(c, "delta_g1");
  vk.delta_g2 = read_point<G2C>(c, "delta_g2");
  vk.ic = read_vec<G1C>(c, "ic", BellpersonCheck::kFull);
  if (const std::string why = degenerate_vk_reason(vk); !why.empty()) c.fail(why);
  return vk;
}
inline void put_vk(std::vector<std::uint8_t>& out, const VerifyingKey<Bls12_381>& vk) {
  put(out, vk.alpha_g1);
  put(out, vk.beta_g1);
  put(out, vk.beta_g2);
  put(out, vk.gamma_g2);
  put(out, vk.delta_g1);
  put(out, vk.delta_g2);
  put_vec(out, vk.ic, "ic", false);
}
}  // namespace bellperson_detail

// ---- .vk ----
inline std::vector<std::uint8_t> write_bellperson_vk(const VerifyingKey<Bls12_381>& vk) {
  std::vector<std::uint8_t> out;
  bellperson_detail::put_vk(out, vk);
  return out;
}

inline VerifyingKey<Bls12_381> read_bellperson_vk(std::span<const std::uint8_t> bytes) {
  bellperson_detail::Cursor c(bytes, "bellperson .vk");
  try {
    auto vk = bellperson_detail::read_vk(c);
    if (c.remaining() != 0) c.fail(std::to_string(c.remaining()) + " trailing bytes after the verifying key");
    return vk;
  } catch (const DecodeError& e) {
    const std::string w = e.what();
    if (w.rfind("bellperson", 0) == 0) throw;
    throw DecodeError("bellperson .vk, " + w);
  }
}

// ---- .params ----
inline std::vector<std::uint8_t> write_bellperson_params(const ProvingKey<Bls12_381>& pk) {
  using namespace bellperson_detail;
  if (pk.h_convention != HConvention::kZDivided)
    throw std::invalid_argument("write_bellperson_params: the key uses odd-coset H points (snarkjs); .params needs Z-divided ones");
  std::vector<std::uint8_t> out;
  put_vk(out, pk.vk);
  put_vec(out, pk.h_query, "h", false);
  put_vec(out, pk.l_query, "l", false);
  put_vec(out, pk.a_query, "a", true);
  put_vec(out, pk.b_g1_query, "b_g1", true);
  put_vec(out, pk.b_g2_query, "b_g2", true);
  return out;
}

inline ProvingKey<Bls12_381> read_bellperson_params(std::span<const std::uint8_t> bytes,
                                                    BellpersonCheck check = BellpersonCheck::kFull) {
  using namespace bellperson_detail;
  Cursor c(bytes, "bellperson .params");
  try {
    ProvingKey<Bls12_381> pk;
    pk.h_convention = HConvention::kZDivided;
    pk.c_stored = true;
    pk.vk = read_vk(c);
    pk.h_query = read_vec<G1C>(c, "h", check);
    pk.l_query = read_vec<G1C>(c, "l", check);
    pk.a_query = read_vec<G1C>(c, "a", check);
    pk.b_g1_query = read_vec<G1C>(c, "b_g1", check);
    pk.b_g2_query = read_vec<G2C>(c, "b_g2", check);
    if (c.remaining() != 0) c.fail(std::to_string(c.remaining()) + " trailing bytes after b_g2");
    pk.num_vars = pk.vk.ic.size() + pk.l_query.size();
    pk.domain_size = pk.h_query.size() + 1;
    if (pk.vk.ic.empty()) c.fail("ic is empty (it holds at least the point for the constant one)");
    if ((pk.domain_size & (pk.domain_size - 1)) != 0)
      c.fail("h has " + std::to_string(pk.h_query.size()) + " points; expected 2^k - 1");
    if (pk.a_query.size() > pk.num_vars || pk.b_g1_query.size() > pk.num_vars || pk.b_g2_query.size() > pk.num_vars)
      c.fail("a/b_g1/b_g2 hold more points than ic + l variables");
    return pk;
  } catch (const DecodeError& e) {
    const std::string w = e.what();
    if (w.rfind("bellperson", 0) == 0) throw;
    throw DecodeError("bellperson .params, " + w);
  }
}

// The point counts of a .params file, read from its headers alone (nothing is decoded): what a
// key's shape is, before it is loaded.
struct BellpersonParamsCounts {
  std::uint32_t ic = 0, h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;
};
inline BellpersonParamsCounts read_bellperson_params_counts(std::span<const std::uint8_t> bytes) {
  using namespace bellperson_detail;
  Cursor c(bytes, "bellperson .params");
  (void)c.take(3 * kG1U + 3 * kG2U, "the verifying key's alpha, beta, gamma and delta points");
  BellpersonParamsCounts n;
  auto skip = [&](std::uint32_t& count, std::size_t size, const char* name) {
    count = c.u32_be(std::string(name) + " count");
    if (std::uint64_t{count} * size > c.remaining())
      c.fail(std::string(name) + ": count " + std::to_string(count) + " needs more bytes than the file has");
    (void)c.take(std::size_t{count} * size, name);
  };
  skip(n.ic, kG1U, "ic");
  skip(n.h, kG1U, "h");
  skip(n.l, kG1U, "l");
  skip(n.a, kG1U, "a");
  skip(n.b_g1, kG1U, "b_g1");
  skip(n.b_g2, kG2U, "b_g2");
  if (c.remaining() != 0) c.fail(std::to_string(c.remaining()) + " trailing bytes after b_g2");
  return n;
}

// Maps the file (the points are decoded from the mapping; nothing else is copied).
inline ProvingKey<Bls12_381> read_bellperson_params_file(const std::filesystem::path& path,
                                                         BellpersonCheck check = BellpersonCheck::kFull) {
  const io::MappedFile m = io::MappedFile::open(path);
  try {
    return read_bellperson_params(m.bytes(), check);
  } catch (const DecodeError& e) {
    throw DecodeError(path.string() + ": " + e.what());
  }
}

// ---- proof (192 bytes, compressed) ----
inline std::array<std::uint8_t, kBellpersonProofSize> write_bellperson_proof(const Proof<Bls12_381>& p) {
  using namespace bellperson_detail;
  if (p.a.is_infinity() || p.b.is_infinity() || p.c.is_infinity())
    throw std::invalid_argument("write_bellperson_proof: a proof point is infinity (bellperson cannot read it)");
  std::array<std::uint8_t, kBellpersonProofSize> out{};
  std::span<std::uint8_t> s(out);
  ec::zcash::encode(p.a, s.subspan(0, kG1C), true);
  ec::zcash::encode(p.b, s.subspan(kG1C, kG2C), true);
  ec::zcash::encode(p.c, s.subspan(kG1C + kG2C, kG1C), true);
  return out;
}

inline Proof<Bls12_381> read_bellperson_proof(std::span<const std::uint8_t> b) {
  using namespace bellperson_detail;
  if (b.size() != kBellpersonProofSize)
    throw DecodeError("bellperson proof, offset " + std::to_string(std::min(b.size(), kBellpersonProofSize)) +
                      ": expected 192 bytes, got " + std::to_string(b.size()));
  auto one = [&](const char* name, std::size_t at, auto decode) {
    try {
      return decode();
    } catch (const DecodeError& e) {
      throw DecodeError("bellperson proof, offset " + std::to_string(at) + ": " + name + ": " + e.what());
    }
  };
  Proof<Bls12_381> p;
  p.a = one("A", 0, [&] { return decode_one<G1C>(b.subspan(0, kG1C), BellpersonCheck::kFull, false); });
  p.b = one("B", kG1C, [&] { return decode_one<G2C>(b.subspan(kG1C, kG2C), BellpersonCheck::kFull, false); });
  p.c = one("C", kG1C + kG2C,
            [&] { return decode_one<G1C>(b.subspan(kG1C + kG2C, kG1C), BellpersonCheck::kFull, false); });
  return p;
}

}  // namespace cuzk::groth16
