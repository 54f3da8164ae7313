// On-disk cache of recorded constraint systems: RecordCS runs once per circuit *shape* (circuit
// name + every parameter that changes the constraints, never the witness seed) and field; later
// runs load the CSR from the cache directory.
//
// File format "cuzk CSR cache", version 1, host little-endian (the endian tag rejects others):
//   magic "CUZKCSR1" | u32 version | u32 endian tag 0x01020304 | u32 field bytes | modulus limbs
//   | u32 len + shape id bytes | u32 num_vars, num_public, num_constraints
//   | 3 × matrix { u32 num_cols | u64 nnz | u64 row_ptr[num_constraints+1] | u32 cols[nnz]
//                  | u32 D | D × field (Montgomery limbs) | u32 dict index[nnz] }
//   | u64 checksum of everything before it | u64 file size.
// Coefficients are dictionary-coded (a shape has few distinct ones: ±2^i, MDS products), which
// makes the file ~5× smaller than raw 32-byte values. Names, wire labels and circom metadata are
// not stored (record without names). A file that is truncated, has a bad checksum, a different
// shape id/field/version, or fails structural validation is reported (DecodeError) and
// cached_record() rebuilds and rewrites it; nothing is trusted silently.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <cctype>
#include <cstdio>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/error.hpp"
#include "cuzk/r1cs/r1cs.hpp"
#include "cuzk/r1cs/value_dictionary.hpp"

namespace cuzk::cs {

inline constexpr std::uint32_t kCsrCacheVersion = 1;

namespace cache_detail {
static_assert(std::endian::native == std::endian::little, "CSR cache format assumes a little-endian host");

// Four-lane xxHash64-style checksum of a byte stream fed in chunks that are multiples of 32 bytes
// (except the last). Detects corruption, not adversaries.
class Checksum {
 public:
  void update(const std::uint8_t* p, std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      auto& h = lane_[words_++ & 3];
      h = std::rotl(h + w * kP2, 31) * kP1;
    }
    for (; i < n; ++i) tail_ = (tail_ << 8) | p[i], ++tail_len_;
    len_ += n;
  }
  std::uint64_t digest() const {
    std::uint64_t h = std::rotl(lane_[0], 1) + std::rotl(lane_[1], 7) + std::rotl(lane_[2], 12) + std::rotl(lane_[3], 18);
    h ^= len_ * kP1;
    h = (h ^ std::rotl(tail_ * kP2, 31)) * kP1 + tail_len_;
    h ^= h >> 33;
    h *= kP2;
    h ^= h >> 29;
    return h;
  }

 private:
  static constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ull, kP2 = 0xC2B2AE3D27D4EB4Full;
  std::array<std::uint64_t, 4> lane_{0x60ea27eeadc0b5d6ull, 0xc2b2ae3d27d4eb4full, 0, 0x61c8864e7a143579ull};
  std::uint64_t words_ = 0, len_ = 0, tail_ = 0, tail_len_ = 0;
};

inline std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// Buffered writer that checksums what it writes (flushes only full 1 MiB buffers).
class Writer {
 public:
  explicit Writer(const std::filesystem::path& p) : f_(p, std::ios::binary | std::ios::trunc) {
    if (!f_) throw std::runtime_error("CSR cache: cannot create " + p.string());
    buf_.reserve(kBuf);
  }
  void bytes(const void* p, std::size_t n) {
    auto* b = static_cast<const std::uint8_t*>(p);
    while (n) {
      const std::size_t k = std::min(n, kBuf - buf_.size());
      buf_.insert(buf_.end(), b, b + k);
      b += k;
      n -= k;
      if (buf_.size() == kBuf) flush();
    }
  }
  template <class T>
  void pod(const T& v) { bytes(&v, sizeof v); }
  std::uint64_t size() const { return written_ + buf_.size(); }
  void finish() {  // appends checksum and total size
    flush();
    const std::uint64_t cs = sum_.digest(), total = written_ + 16;
    f_.write(reinterpret_cast<const char*>(&cs), 8);
    f_.write(reinterpret_cast<const char*>(&total), 8);
    f_.close();
    if (!f_) throw std::runtime_error("CSR cache: write failed");
  }

 private:
  void flush() {
    sum_.update(buf_.data(), buf_.size());
    f_.write(reinterpret_cast<const char*>(buf_.data()), static_cast<std::streamsize>(buf_.size()));
    if (!f_) throw std::runtime_error("CSR cache: write failed");
    written_ += buf_.size();
    buf_.clear();
  }
  static constexpr std::size_t kBuf = std::size_t{1} << 20;
  std::ofstream f_;
  std::vector<std::uint8_t> buf_;
  std::uint64_t written_ = 0;
  Checksum sum_;
};

// Bounds-checked reader over the loaded file.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  void bytes(void* out, std::size_t n) {
    need(n);
    std::memcpy(out, b_.data() + at_, n);
    at_ += n;
  }
  template <class T>
  T pod() {
    T v;
    bytes(&v, sizeof v);
    return v;
  }
  // Every count is checked with need() before it sizes an allocation.
  void need(std::uint64_t n) const {
    if (n > b_.size() - at_)
      fail("truncated: need " + std::to_string(n) + " bytes, " + std::to_string(b_.size() - at_) + " left");
  }
  std::size_t offset() const { return at_; }
  // DecodeError "CSR cache, offset <at>: <msg>" at the current position / at a given one.
  [[noreturn]] void fail(const std::string& msg) const { fail_at(at_, msg); }
  [[noreturn]] static void fail_at(std::uint64_t at, const std::string& msg) {
    throw DecodeError("CSR cache, offset " + std::to_string(at) + ": " + msg);
  }

 private:
  std::span<const std::uint8_t> b_;
  std::size_t at_ = 0;
};

template <class F>
void write_matrix(Writer& w, const r1cs::CsrMatrix<F>& m) {
  w.pod(m.num_cols);
  w.pod(std::uint64_t{m.nnz()});
  w.bytes(m.row_ptr.data(), m.row_ptr.size() * 8);
  w.bytes(m.cols.data(), m.cols.size() * 4);
  // A matrix with more than 2^32 distinct values has more than 2^32 terms, beyond the format.
  auto d = r1cs::dictionary_of<std::uint32_t>(std::span<const F>(m.vals));
  if (!d) throw std::invalid_argument("CSR cache: more than 2^32 distinct coefficients");
  const auto& values = d->values;
  const auto& idx = d->pos;
  w.pod(static_cast<std::uint32_t>(values.size()));
  for (const F& v : values) w.bytes(v.mont().data(), F::kBytes);
  w.bytes(idx.data(), idx.size() * 4);
}

template <class F>
r1cs::CsrMatrix<F> read_matrix(Reader& r, std::uint32_t rows) {
  r1cs::CsrMatrix<F> m;
  m.num_cols = r.pod<std::uint32_t>();
  const std::size_t nnz_at = r.offset();
  const auto nnz = r.pod<std::uint64_t>();
  r.need((std::uint64_t{rows} + 1) * 8);  // num_constraints + 1 row offsets
  m.row_ptr.resize(std::size_t{rows} + 1);
  r.bytes(m.row_ptr.data(), m.row_ptr.size() * 8);
  if (nnz > (std::uint64_t{1} << 40)) r.fail_at(nnz_at, "implausible nnz " + std::to_string(nnz));
  r.need(nnz * 8);  // cols + indices at least
  m.cols.resize(nnz);
  r.bytes(m.cols.data(), nnz * 4);
  const auto d = r.pod<std::uint32_t>();
  r.need(std::uint64_t{d} * F::kBytes + nnz * 4);  // the dictionary, then the indices
  std::vector<F> dict(d);
  for (auto& v : dict) {
    typename F::Repr x;
    const std::size_t at = r.offset();
    r.bytes(x.data(), F::kBytes);
    for (std::size_t i = F::kLimbs; i-- > 0;) {  // Montgomery values are < p
      if (x[i] < F::kModulus[i]) break;
      if (x[i] > F::kModulus[i] || i == 0) r.fail_at(at, "coefficient not reduced");
    }
    v = F::from_mont(x);
  }
  const std::size_t idx_at = r.offset();
  std::vector<std::uint32_t> idx(nnz);
  r.bytes(idx.data(), nnz * 4);
  m.vals.resize(nnz);
  for (std::size_t k = 0; k < nnz; ++k) {
    if (idx[k] >= d)
      r.fail_at(idx_at + 4 * k, "coefficient index " + std::to_string(idx[k]) + " >= " + std::to_string(d));
    m.vals[k] = dict[idx[k]];
  }
  return m;
}

inline std::vector<std::uint8_t> read_all(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary | std::ios::ate);
  if (!f) throw DecodeError("CSR cache: cannot open " + p.string());
  const auto n = static_cast<std::size_t>(f.tellg());
  std::vector<std::uint8_t> b(n);
  f.seekg(0);
  f.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(n));
  if (!f) throw DecodeError("CSR cache: read failed for " + p.string());
  return b;
}
}  // namespace cache_detail

// "<sanitized shape id>.<hash of shape id and field>.csr" inside dir.
template <class F>
std::filesystem::path csr_cache_path(const std::filesystem::path& dir, std::string_view shape_id) {
  std::string stem;
  for (char c : shape_id.substr(0, 96)) stem += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  std::uint64_t h = cache_detail::fnv1a(shape_id);
  h = cache_detail::fnv1a(std::string_view(reinterpret_cast<const char*>(F::kModulus.data()), F::kBytes), h ^ 0xff);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return dir / (stem + "." + hex + ".csr");
}

// Writes r (atomically: temp file + rename). Names/labels/circom metadata are not stored.
template <class F>
void write_csr_cache(const std::filesystem::path& path, std::string_view shape_id, const r1cs::R1CS<F>& r) {
  r.validate();
  std::random_device rd;
  auto tmp = path;
  tmp += ".tmp" + std::to_string(rd());
  {
    cache_detail::Writer w(tmp);
    w.bytes("CUZKCSR1", 8);
    w.pod(kCsrCacheVersion);
    w.pod(std::uint32_t{0x01020304});
    w.pod(static_cast<std::uint32_t>(F::kBytes));
    w.bytes(F::kModulus.data(), F::kBytes);
    w.pod(static_cast<std::uint32_t>(shape_id.size()));
    w.bytes(shape_id.data(), shape_id.size());
    w.pod(r.num_vars);
    w.pod(r.num_public);
    w.pod(r.num_constraints);
    for (const auto* m : {&r.A, &r.B, &r.C}) cache_detail::write_matrix(w, *m);
    w.finish();
  }
  std::filesystem::rename(tmp, path);
}

// Parses the bytes of a cache file written for exactly this shape id and field; throws DecodeError
// "CSR cache, offset <n>: ..." otherwise (truncation, checksum mismatch, other version/shape/field,
// structural inconsistency). Every count is checked against the bytes left before it sizes a vector.
template <class F>
r1cs::R1CS<F> parse_csr_cache(std::span<const std::uint8_t> b, std::string_view shape_id) {
  using cache_detail::Reader;
  if (b.size() < 16 + 8) Reader::fail_at(0, "file too short (" + std::to_string(b.size()) + " bytes)");
  std::uint64_t sum, total;
  std::memcpy(&sum, b.data() + b.size() - 16, 8);
  std::memcpy(&total, b.data() + b.size() - 8, 8);
  if (total != b.size())
    Reader::fail_at(b.size() - 8,
                    "size field says " + std::to_string(total) + " bytes, file has " + std::to_string(b.size()));
  cache_detail::Checksum c;
  c.update(b.data(), b.size() - 16);
  if (c.digest() != sum) Reader::fail_at(b.size() - 16, "checksum mismatch (corrupt file)");

  Reader rd{b.first(b.size() - 16)};
  char magic[8];
  rd.bytes(magic, 8);
  if (std::memcmp(magic, "CUZKCSR1", 8) != 0) Reader::fail_at(0, "bad magic");
  if (rd.pod<std::uint32_t>() != kCsrCacheVersion) Reader::fail_at(8, "unsupported version");
  if (rd.pod<std::uint32_t>() != 0x01020304u) Reader::fail_at(12, "wrong endianness");
  if (rd.pod<std::uint32_t>() != F::kBytes) Reader::fail_at(16, "different field size");
  typename F::Repr mod;
  rd.bytes(mod.data(), F::kBytes);
  if (mod != F::kModulus) Reader::fail_at(20, "different field modulus");
  const auto len = rd.pod<std::uint32_t>();
  rd.need(len);
  std::string sid(len, '\0');
  const std::size_t sid_at = rd.offset();
  rd.bytes(sid.data(), len);
  if (sid != shape_id)
    Reader::fail_at(sid_at, "file is for shape '" + sid.substr(0, 200) + (sid.size() > 200 ? "..." : "") +
                                "', wanted '" + std::string(shape_id) + "'");
  r1cs::R1CS<F> r;
  r.num_vars = rd.pod<std::uint32_t>();
  r.num_public = rd.pod<std::uint32_t>();
  r.num_constraints = rd.pod<std::uint32_t>();
  r.A = cache_detail::read_matrix<F>(rd, r.num_constraints);
  r.B = cache_detail::read_matrix<F>(rd, r.num_constraints);
  r.C = cache_detail::read_matrix<F>(rd, r.num_constraints);
  if (rd.offset() != b.size() - 16) rd.fail("trailing bytes");
  try {
    r.validate();
  } catch (const std::invalid_argument& e) {
    Reader::fail_at(sid_at + len, e.what());
  }
  return r;
}

// Reads a cache file (see parse_csr_cache); errors start with the path.
template <class F>
r1cs::R1CS<F> read_csr_cache(const std::filesystem::path& path, std::string_view shape_id) {
  const auto b = cache_detail::read_all(path);
  try {
    return parse_csr_cache<F>(b, shape_id);
  } catch (const DecodeError& e) {
    throw DecodeError(path.string() + ": " + e.what());
  }
}

struct CacheOutcome {
  bool hit = false;         // loaded from disk
  std::string rebuilt_why;  // non-empty when a file existed but was rejected
  std::filesystem::path path;
};

// The recorded R1CS of `circuit` (names off), from dir's cache when a valid file for this shape id
// and field exists; otherwise records it and writes the cache (creating dir).
template <class F, class Circuit>
r1cs::R1CS<F> cached_record(const std::filesystem::path& dir, std::string_view shape_id, const Circuit& circuit,
                            CacheOutcome* outcome = nullptr) {
  if (shape_id.empty()) throw std::invalid_argument("cached_record: empty shape id");
  CacheOutcome o;
  o.path = csr_cache_path<F>(dir, shape_id);
  std::error_code ec;
  if (std::filesystem::exists(o.path, ec)) {
    try {
      auto r = read_csr_cache<F>(o.path, shape_id);
      o.hit = true;
      if (outcome) *outcome = o;
      return r;
    } catch (const DecodeError& e) {
      o.rebuilt_why = e.what();
    }
  }
  auto r = record<F>(circuit);
  std::filesystem::create_directories(dir);
  write_csr_cache<F>(o.path, shape_id, r);
  if (outcome) *outcome = o;
  return r;
}

}  // namespace cuzk::cs
