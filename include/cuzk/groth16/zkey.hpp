// snarkjs Groth16 .zkey (binfile "zkey" version 1, shared/INTEROP.md 7.4): read into and write
// from ProvingKey<E> (h_convention kOddCoset, c_stored false, A and B rebuilt as CSR rows from
// section 4).
//
// Section 4 stores each coefficient c as the integer c*R^2 mod r (R = 2^256), little-endian.
// Fr::from_mont(stored) is the element of value c*R; taking its canonical integer c*R (the
// Montgomery form of c) and applying from_mont again gives c. The writer does the inverse.
//
// Validation on read: container shape, protocol == 1, the q and r primes of E (a key for the
// other curve is named in the error), counts and exact section sizes (every section's size is
// checked against the header's nVars, nPublic and domainSize, and section 4's against its
// coefficient count, before anything is allocated from those counts), every field element
// canonical, every coefficient's matrix/row/signal in range, and points:
//  - the verifying-key points (section 2, IC) are always checked on the curve and in the
//    prime-order subgroup (a handful of points);
//  - the bulk sections 5..9 follow ZkeyReadOptions::points:
//      kOnCurve (default): y^2 = x^3 + b per point, a few field multiplications, lost in the
//        cost of converting the bytes;
//      kSubgroup: adds a prime-order-subgroup test per point (free for BN254 G1, whose cofactor
//        is 1; otherwise an endomorphism-based scalar multiplication);
//      kNone: trusted keys (files we wrote); canonicity (< q) is still checked, it is free.
//    Measured (Release, 2 shared cores, TBB; tests/groth16 ZkeyFormat.ReadCostByCheckLevel) on a
//    key of 2048 vars + 2048 H points (~10k points): BN254 kNone 9 ms, kOnCurve 8 ms,
//    kSubgroup 500 ms; BLS12-381 3 / 6 / 1260 ms. So kSubgroup costs roughly 50-120 us per
//    point per core: about 5-10 core-minutes for a 2^22-constraint key, which is why it is
//    not the default (the verifying-key points, which decide soundness for verifiers, are
//    always subgroup-checked).
// Keys with log2(domainSize) equal to the field's 2-adicity (BN254: 2^28) use a different H
// layout in snarkjs (zkey_new.js) and are rejected.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "cuzk/ec/serialize_lem.hpp"
#include "cuzk/error.hpp"
#include "cuzk/ff/fields.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/r1cs/curve_id.hpp"

namespace cuzk::groth16 {

enum class PointCheck : std::uint8_t { kNone, kOnCurve, kSubgroup };

struct ZkeyReadOptions {
  PointCheck points = PointCheck::kOnCurve;  // sections 5..9 (see the header comment)
};

// What a .zkey holds beyond ProvingKey: section 10 (circuit hash and MPC contributions), raw.
struct ZkeyExtra {
  std::array<std::uint8_t, 64> circuit_hash{};
  std::uint32_t num_contributions = 0;
  std::vector<std::uint8_t> section10;  // the whole section as stored (empty if absent)
};

struct ZkeyWriteOptions {
  // Section 10 starts with this 64-byte blake2b circuit hash, then u32 0 contributions (what
  // `snarkjs zkey new` writes). snarkjs prove / export never check the hash; `zkey verify`
  // recomputes it from the r1cs and ptau, which a key made elsewhere cannot match anyway.
  std::array<std::uint8_t, 64> circuit_hash{};
  // When set, this section-10 body is written verbatim instead (e.g. ZkeyExtra::section10 of
  // a key read earlier, to keep its contribution history).
  std::optional<std::vector<std::uint8_t>> section10;
};

namespace zkey_detail {

inline constexpr io::BinFileOptions kZkeyFile{"zkey", 1, 1, false};

template <class F>
bool limbs_equal_le(std::span<const std::uint8_t> b) {
  return r1cs::prime_matches<F>(b);
}

// "bn128" / "bls12381" for a base-field prime q, or a hex description.
inline std::string describe_q(std::span<const std::uint8_t> q) {
  if (limbs_equal_le<ff::bn254::Fq>(q)) return "bn128";
  if (limbs_equal_le<ff::bls12_381::Fq>(q)) return "bls12381";
  std::string s = "an unknown prime 0x";
  static constexpr char kHex[] = "0123456789abcdef";
  bool lead = true;
  for (std::size_t i = q.size(); i-- > 0;) {
    if (lead && q[i] == 0 && i > 0) continue;
    lead = false;
    s += kHex[q[i] >> 4];
    s += kHex[q[i] & 15];
  }
  return s;
}

// "2^27" for a power of two, else the decimal value.
inline std::string count_text(std::uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0 ? "2^" + std::to_string(std::countr_zero(v)) : std::to_string(v);
}

// Throws unless section `id` holds exactly `count` points of C. `origin` names where the count comes
// from ("domainSize 2^27", "nVars 1000"): the check runs before anything is allocated from it, so
// a few header bytes cannot make the reader reserve gigabytes. Error, e.g.
// "zkey file, section 9, offset 1234: section 9 (H points) has 65536 bytes, but domainSize 2^27
//  needs 134217728 points of 64 bytes (8589934592 bytes)".
template <class C>
void check_point_section(const io::BinFile& f, std::uint32_t id, const char* name, std::uint64_t count,
                         const std::string& origin) {
  const auto& sec = f.section(id);
  constexpr std::uint64_t s = ec::lem::kPointSize<C>;
  if (sec.size == count * s) return;  // count < 2^33 and s <= 192: no overflow
  throw DecodeError(io::decode_context("zkey", id, sec.offset) + ": section " + std::to_string(id) + " (" + name +
                    " points) has " + std::to_string(sec.size) + " bytes, but " + origin + " needs " +
                    std::to_string(count) + " points of " + std::to_string(s) + " bytes (" +
                    std::to_string(count * s) + " bytes)");
}

template <class C>
void read_points(const io::BinFile& f, std::uint32_t id, const char* name, std::size_t count,
                 std::vector<ec::Affine<C>>& out, PointCheck check) {
  const auto& sec = f.section(id);
  constexpr std::size_t s = ec::lem::kPointSize<C>;
  check_point_section<C>(f, id, name, count, "a count of " + std::to_string(count));
  const auto bytes = f.section_bytes(id);
  out.resize(count);
  const ec::lem::Check c = check == PointCheck::kNone      ? ec::lem::Check::kNone
                           : check == PointCheck::kOnCurve ? ec::lem::Check::kOnCurve
                                                           : ec::lem::Check::kSubgroup;
  auto one = [&](std::size_t i) {
    try {
      out[i] = ec::lem::read<C>(bytes.subspan(i * s, s), c);
    } catch (const DecodeError& e) {
      throw DecodeError(io::decode_context("zkey", id, sec.offset + i * s) + ": " + name + " point " +
                        std::to_string(i) + ": " + e.what());
    }
  };
  if (count < 4096) {
    for (std::size_t i = 0; i < count; ++i) one(i);
  } else {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 1024), [&](const auto& r) {
      for (std::size_t i = r.begin(); i < r.end(); ++i) one(i);
    });
  }
}

template <class C>
ec::Affine<C> read_vk_point(io::ByteReader& r, const char* name) {
  const std::uint64_t at = r.offset();
  try {
    return ec::lem::read<C>(r.bytes(ec::lem::kPointSize<C>), ec::lem::Check::kSubgroup);
  } catch (const DecodeError& e) {
    r.fail_at(at, std::string(name) + ": " + e.what());
  }
}

// c*R^2 mod r (stored) <-> c.
template <class Fr>
Fr coeff_from_stored(const typename Fr::Repr& s) {
  return Fr::from_mont(Fr::from_mont(s).to_canonical());
}
template <class Fr>
typename Fr::Repr coeff_to_stored(const Fr& c) {
  return Fr::from_canonical(c.mont()).mont();
}

template <class Fr>
struct Coef {
  std::uint32_t matrix, row, signal;
  Fr value;
};

template <class Fr>
r1cs::CsrMatrix<Fr> build_csr(const std::vector<Coef<Fr>>& coefs, std::uint32_t matrix, std::size_t rows,
                              std::uint32_t cols) {
  r1cs::CsrMatrix<Fr> m;
  m.num_cols = cols;
  m.row_ptr.assign(rows + 1, 0);
  for (const auto& c : coefs)
    if (c.matrix == matrix) ++m.row_ptr[c.row + 1];
  for (std::size_t i = 0; i < rows; ++i) m.row_ptr[i + 1] += m.row_ptr[i];
  m.cols.resize(m.row_ptr[rows]);
  m.vals.resize(m.row_ptr[rows]);
  std::vector<std::uint64_t> next(m.row_ptr.begin(), m.row_ptr.end() - 1);
  for (const auto& c : coefs)  // stable: keeps the file's order within a row
    if (c.matrix == matrix) {
      const auto k = next[c.row]++;
      m.cols[k] = c.signal;
      m.vals[k] = c.value;
    }
  return m;
}

}  // namespace zkey_detail

// Which curve a .zkey is for (from q in section 2); throws DecodeError for a malformed header,
// a non-Groth16 protocol or an unknown prime (naming f's path when it was opened from one).
inline r1cs::Curve zkey_curve(const io::BinFile& f) {
  return io::with_file_context(f, [&] {
    auto h = f.reader(1);
    const std::uint32_t protocol = h.u32();
    if (protocol != 1)
      h.fail_at(0, "protocol " + std::to_string(protocol) + " is not Groth16 (1)" +
                       (protocol == 2 ? "; this is a PLONK key" : protocol == 10 ? "; this is an FFLONK key" : ""));
    auto r = f.reader(2);
    const std::uint32_t n8q = r.u32();
    const auto q = r.bytes(n8q);
    if (zkey_detail::limbs_equal_le<ff::bn254::Fq>(q)) return r1cs::Curve::bn254;
    if (zkey_detail::limbs_equal_le<ff::bls12_381::Fq>(q)) return r1cs::Curve::bls12_381;
    r.fail_at(4, "base field prime q is " + zkey_detail::describe_q(q) + ", not bn128 or bls12381");
  });
}
inline r1cs::Curve zkey_curve(std::span<const std::uint8_t> bytes) {
  return zkey_curve(io::BinFile::parse(bytes, zkey_detail::kZkeyFile));
}

// The counts of a .zkey: section 2's nVars, nPublic and domainSize, section 4's coefficients.
struct ZkeyCounts {
  std::uint32_t num_vars = 0, num_public = 0, domain_size = 0, num_coefficients = 0;
};

namespace zkey_detail {

// Section 2 up to domainSize: E's primes, then the counts, validated (nVars >= 1, nPublic + 1 <=
// nVars, domainSize a power of two >= nPublic + 1 below the field's 2-adicity). Leaves r at the
// first verifying-key point.
template <class E>
ZkeyCounts read_header_counts(io::ByteReader& r) {
  using Fr = typename E::Fr;
  using Fq = typename E::Fq;
  const std::string want(E::kSnarkjsName);
  const std::uint32_t n8q = r.u32();
  const auto q = r.bytes(n8q);
  if (n8q != Fq::kBytes || !r1cs::prime_matches<Fq>(q))
    r.fail_at(4, "key is for " + describe_q(q) + ", expected " + want);
  const std::uint64_t at_r = r.offset();
  const std::uint32_t n8r = r.u32();
  const auto rp = r.bytes(n8r);
  if (n8r != Fr::kBytes || !r1cs::prime_matches<Fr>(rp))
    r.fail_at(at_r, "scalar field prime is " + r1cs::describe_prime_le(rp) + ", expected " + want);
  ZkeyCounts c;
  const std::uint32_t n_vars = r.u32(), n_public = r.u32(), domain = r.u32();
  if (n_vars == 0) r.fail("nVars is 0 (wire 0, the constant one, must exist)");
  if (std::uint64_t{n_public} + 1 > n_vars)
    r.fail("nPublic + 1 = " + std::to_string(std::uint64_t{n_public} + 1) + " exceeds nVars = " +
           std::to_string(n_vars));
  if (domain == 0 || (domain & (domain - 1)) != 0)
    r.fail("domainSize " + std::to_string(domain) + " is not a power of two");
  if (domain < std::uint64_t{n_public} + 1) r.fail("domainSize " + std::to_string(domain) + " < nPublic + 1");
  if (std::countr_zero(domain) > static_cast<int>(Fr::kTwoAdicity) - 1)
    r.fail("domainSize 2^" + std::to_string(std::countr_zero(domain)) + " exceeds the field's 2-adicity - 1");
  c.num_vars = n_vars;
  c.num_public = n_public;
  c.domain_size = domain;
  return c;
}

// Every section's size against the counts, before any of them sizes an allocation (section 4's
// rows go up to domainSize, and the point sections are read after it): sections 3 and 5..9
// exactly, section 4 against its own coefficient count (which it sets in c).
template <class E>
void check_section_sizes(const io::BinFile& f, ZkeyCounts& c) {
  using G1C = typename E::G1Curve;
  using G2C = typename E::G2Curve;
  const std::uint64_t nv = c.num_vars, np = c.num_public, n = c.domain_size;
  check_point_section<G1C>(f, 3, "IC", np + 1, "nPublic + 1 = " + std::to_string(np + 1));
  const std::string vars = "nVars " + std::to_string(nv);
  check_point_section<G1C>(f, 5, "A", nv, vars);
  check_point_section<G1C>(f, 6, "B1", nv, vars);
  check_point_section<G2C>(f, 7, "B2", nv, vars);
  check_point_section<G1C>(f, 8, "C", nv - np - 1, "nVars - nPublic - 1 = " + std::to_string(nv - np - 1));
  check_point_section<G1C>(f, 9, "H", n, "domainSize " + count_text(n));
  auto r = f.reader(4);
  c.num_coefficients = r.u32();
  constexpr std::uint64_t rec = 12 + E::Fr::kBytes;
  if (r.remaining() != c.num_coefficients * rec)
    r.fail_at(0, "section 4 announces " + std::to_string(c.num_coefficients) + " coefficients (" +
                     std::to_string(c.num_coefficients * rec) + " bytes) but holds " + std::to_string(r.remaining()) +
                     " bytes");
}

template <class E>
ProvingKey<E> read_zkey(const io::BinFile& f, const ZkeyReadOptions& opt, ZkeyExtra* extra) {
  using Fr = typename E::Fr;
  using G1C = typename E::G1Curve;
  using G2C = typename E::G2Curve;

  (void)zkey_curve(f);  // protocol check (and a clear error for an unknown q)
  ProvingKey<E> pk;
  pk.h_convention = HConvention::kOddCoset;
  pk.c_stored = false;
  ZkeyCounts counts;

  {  // section 2
    auto r = f.reader(2);
    counts = read_header_counts<E>(r);
    pk.num_vars = counts.num_vars;
    pk.domain_size = counts.domain_size;
    pk.vk.alpha_g1 = zkey_detail::read_vk_point<G1C>(r, "alpha1");
    pk.vk.beta_g1 = zkey_detail::read_vk_point<G1C>(r, "beta1");
    pk.vk.beta_g2 = zkey_detail::read_vk_point<G2C>(r, "beta2");
    pk.vk.gamma_g2 = zkey_detail::read_vk_point<G2C>(r, "gamma2");
    pk.vk.delta_g1 = zkey_detail::read_vk_point<G1C>(r, "delta1");
    pk.vk.delta_g2 = zkey_detail::read_vk_point<G2C>(r, "delta2");
    if (const std::string why = degenerate_vk_reason(pk.vk); !why.empty()) r.fail(why);
    r.expect_end();
  }
  check_section_sizes<E>(f, counts);  // before anything is allocated from the counts
  const std::size_t nv = pk.num_vars, np = counts.num_public, n = pk.domain_size;
  zkey_detail::read_points<G1C>(f, 3, "IC", np + 1, pk.vk.ic, PointCheck::kSubgroup);

  {  // section 4
    auto r = f.reader(4);
    const std::uint32_t count = r.u32();  // checked against the section's size by check_section_sizes
    std::vector<zkey_detail::Coef<Fr>> coefs(count);
    std::size_t rows = 0;
    for (auto& c : coefs) {
      const std::uint64_t at = r.offset();
      c.matrix = r.u32();
      c.row = r.u32();
      c.signal = r.u32();
      if (c.matrix > 1) r.fail_at(at, "coefficient matrix " + std::to_string(c.matrix) + " is not 0 (A) or 1 (B)");
      if (c.row >= n) r.fail_at(at, "coefficient row " + std::to_string(c.row) + " >= domainSize " + std::to_string(n));
      if (c.signal >= nv) r.fail_at(at, "coefficient signal " + std::to_string(c.signal) + " >= nVars " + std::to_string(nv));
      const std::uint64_t at_v = r.offset();
      const auto s = r.template limbs_le<Fr::kLimbs>(Fr::kBytes);
      if (ff::big::cmp(s, Fr::kModulus) >= 0) r.fail_at(at_v, "coefficient value is not canonical (>= r)");
      c.value = zkey_detail::coeff_from_stored<Fr>(s);
      rows = std::max<std::size_t>(rows, std::size_t{c.row} + 1);
    }
    pk.a = zkey_detail::build_csr(coefs, 0, rows, static_cast<std::uint32_t>(nv));
    pk.b = zkey_detail::build_csr(coefs, 1, rows, static_cast<std::uint32_t>(nv));
  }
  zkey_detail::read_points<G1C>(f, 5, "A", nv, pk.a_query, opt.points);
  zkey_detail::read_points<G1C>(f, 6, "B1", nv, pk.b_g1_query, opt.points);
  zkey_detail::read_points<G2C>(f, 7, "B2", nv, pk.b_g2_query, opt.points);
  zkey_detail::read_points<G1C>(f, 8, "C", nv - np - 1, pk.l_query, opt.points);
  zkey_detail::read_points<G1C>(f, 9, "H", n, pk.h_query, opt.points);

  if (const auto* s10 = f.find(10)) {
    auto r = f.reader(*s10);
    ZkeyExtra x;
    const auto h = r.bytes(64);
    std::copy(h.begin(), h.end(), x.circuit_hash.begin());
    x.num_contributions = r.u32();
    const auto all = f.section_bytes(10);
    x.section10.assign(all.begin(), all.end());
    if (extra) *extra = std::move(x);
  } else if (extra) {
    *extra = ZkeyExtra{};
  }
  return pk;
}
}  // namespace zkey_detail

// The counts of a .zkey, every section's size checked against them, nothing else decoded: what a
// key needs is known, from numbers the file's size backs, before it is loaded. Throws DecodeError
// (naming f's path when it was opened from one).
template <class E>
ZkeyCounts read_zkey_counts(const io::BinFile& f) {
  return io::with_file_context(f, [&] {
    (void)zkey_curve(f);
    auto r = f.reader(2);
    ZkeyCounts c = zkey_detail::read_header_counts<E>(r);
    zkey_detail::check_section_sizes<E>(f, c);
    return c;
  });
}

// Reads a parsed container; errors name f's path when it was opened from one.
template <class E>
ProvingKey<E> read_zkey(const io::BinFile& f, const ZkeyReadOptions& opt = {}, ZkeyExtra* extra = nullptr) {
  return io::with_file_context(f, [&] { return zkey_detail::read_zkey<E>(f, opt, extra); });
}

template <class E>
ProvingKey<E> read_zkey(std::span<const std::uint8_t> bytes, const ZkeyReadOptions& opt = {},
                        ZkeyExtra* extra = nullptr) {
  return read_zkey<E>(io::BinFile::parse(bytes, zkey_detail::kZkeyFile), opt, extra);
}

// Memory-maps the file (large keys are not copied); errors name the path.
template <class E>
ProvingKey<E> read_zkey_file(const std::filesystem::path& path, const ZkeyReadOptions& opt = {},
                             ZkeyExtra* extra = nullptr) {
  const io::BinFile f = io::BinFile::open(path, zkey_detail::kZkeyFile);
  return io::with_path_context(path, [&] { return read_zkey<E>(f, opt, extra); });
}

// Throws std::invalid_argument if pk does not have the .zkey shape (kOddCoset, sizes).
template <class E>
std::vector<std::uint8_t> write_zkey(const ProvingKey<E>& pk, const ZkeyWriteOptions& opt = {}) {
  using Fr = typename E::Fr;
  using Fq = typename E::Fq;
  using G1C = typename E::G1Curve;
  using G2C = typename E::G2Curve;
  auto bad = [](const std::string& m) { throw std::invalid_argument("write_zkey: " + m); };
  const std::size_t nv = pk.num_vars, n = pk.domain_size;
  if (pk.vk.ic.empty()) bad("vk.ic is empty (it needs num_public + 1 points)");
  const std::size_t np = pk.num_public();
  if (pk.h_convention != HConvention::kOddCoset)
    bad("the key uses the Z-divided H convention (bellperson); .zkey needs odd-coset H points");
  if (np + 1 > nv) bad("num_public + 1 exceeds num_vars");
  if (n == 0 || (n & (n - 1)) != 0 || n > 0xffffffffu) bad("domain_size is not a 32-bit power of two");
  if (nv > 0xffffffffu) bad("num_vars does not fit 32 bits");
  auto size_is = [&](std::size_t got, std::size_t want, const char* what) {
    if (got != want) bad(std::string(what) + " has " + std::to_string(got) + " points, expected " + std::to_string(want));
  };
  size_is(pk.a_query.size(), nv, "a_query");
  size_is(pk.b_g1_query.size(), nv, "b_g1_query");
  size_is(pk.b_g2_query.size(), nv, "b_g2_query");
  size_is(pk.l_query.size(), nv - np - 1, "l_query");
  size_is(pk.h_query.size(), n, "h_query");
  for (const auto* m : {&pk.a, &pk.b}) {
    const char* nm = m == &pk.a ? "matrix a" : "matrix b";
    m->validate(nm);
    if (m->num_rows() > n) bad(std::string(nm) + " has more rows than domain_size");
    if (m->num_cols > nv) bad(std::string(nm) + " has more columns than num_vars");
  }

  io::BinWriter w("zkey", 1, 10);
  w.begin_section(1);
  w.u32(1);
  w.end_section();

  std::vector<std::uint8_t> buf;
  auto g1 = [&](const typename E::G1Affine& p) { w.bytes(ec::lem::write<G1C>(p)); };
  auto g2 = [&](const typename E::G2Affine& p) { w.bytes(ec::lem::write<G2C>(p)); };
  w.begin_section(2);
  w.u32(Fq::kBytes);
  w.limbs_le(Fq::kModulus, Fq::kBytes);
  w.u32(Fr::kBytes);
  w.limbs_le(Fr::kModulus, Fr::kBytes);
  w.u32(static_cast<std::uint32_t>(nv));
  w.u32(static_cast<std::uint32_t>(np));
  w.u32(static_cast<std::uint32_t>(n));
  g1(pk.vk.alpha_g1);
  g1(pk.vk.beta_g1);
  g2(pk.vk.beta_g2);
  g2(pk.vk.gamma_g2);
  g1(pk.vk.delta_g1);
  g2(pk.vk.delta_g2);
  w.end_section();

  w.begin_section(4);
  w.u32(static_cast<std::uint32_t>(pk.a.nnz() + pk.b.nnz()));
  for (std::uint32_t mi = 0; mi < 2; ++mi) {
    const auto& m = mi == 0 ? pk.a : pk.b;
    for (std::size_t i = 0; i < m.num_rows(); ++i) {
      const auto row = m.row(i);
      for (std::size_t k = 0; k < row.size(); ++k) {
        w.u32(mi);
        w.u32(static_cast<std::uint32_t>(i));
        w.u32(row.cols[k]);
        w.limbs_le(zkey_detail::coeff_to_stored(row.vals[k]), Fr::kBytes);
      }
    }
  }
  w.end_section();

  auto points = [&](std::uint32_t id, const auto& v) {
    using P = typename std::decay_t<decltype(v)>::value_type;
    using C = std::conditional_t<std::is_same_v<P, typename E::G1Affine>, G1C, G2C>;
    w.begin_section(id);
    constexpr std::size_t s = ec::lem::kPointSize<C>;
    buf.resize(v.size() * s);
    ec::lem::write_many<C>(std::span<const P>(v), std::span<std::uint8_t>(buf));
    w.bytes(buf);
    w.end_section();
  };
  points(3, pk.vk.ic);
  points(9, pk.h_query);
  points(8, pk.l_query);
  points(5, pk.a_query);
  points(6, pk.b_g1_query);
  points(7, pk.b_g2_query);

  w.begin_section(10);
  if (opt.section10) {
    w.bytes(*opt.section10);
  } else {
    w.bytes(opt.circuit_hash);
    w.u32(0);
  }
  w.end_section();
  return std::move(w).finish();
}

template <class E>
void write_zkey_file(const std::filesystem::path& path, const ProvingKey<E>& pk, const ZkeyWriteOptions& opt = {}) {
  const auto bytes = write_zkey(pk, opt);
  io::write_file_bytes(path, bytes);
}

}  // namespace cuzk::groth16
