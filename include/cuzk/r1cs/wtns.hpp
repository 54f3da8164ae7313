// circom/snarkjs .wtns (version 2) reader and writer (shared/INTEROP.md §7.3).
// Values are stored in standard form; in memory they are F (Montgomery).
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "cuzk/io/binfile.hpp"
#include "cuzk/r1cs/circom_header.hpp"

namespace cuzk::r1cs {

// Throws DecodeError on malformed input, on a prime other than F's modulus, on a value >= r,
// and when w[0] != 1; errors name f's path when it was opened from one.
template <class F>
std::vector<F> read_wtns(const io::BinFile& f) {
  return io::with_file_context(f, [&] {
    const WtnsFileHeader h = read_wtns_header(f);
    require_prime<F>("wtns", h.prime_le, h.n8, h.prime_offset);
    io::ByteReader r = f.reader(kWtnsDataSection);
    std::vector<F> w;
    w.reserve(h.n_witness);  // bounded: read_wtns_header checked the section holds n_witness values
    for (std::uint32_t i = 0; i < h.n_witness; ++i) w.push_back(r.field_std<F>("witness value"));
    r.expect_end();
    if (!w[0].is_one()) r.fail_at(0, "w[0] must be 1 (the constant-one wire)");
    return w;
  });
}

template <class F>
std::vector<F> read_wtns(std::span<const std::uint8_t> bytes) {
  return read_wtns<F>(io::BinFile::parse(bytes, kWtnsFormat));
}

template <class F>
std::vector<F> read_wtns_file(const std::filesystem::path& path) {
  auto f = io::BinFile::open(path, kWtnsFormat);
  return io::with_path_context(path, [&] { return read_wtns<F>(f); });
}

// Throws std::invalid_argument for an empty witness (snarkjs/circom require w[0] = 1; not checked here
// so that tests can write malformed files on purpose).
template <class F>
std::vector<std::uint8_t> write_wtns(std::span<const F> w) {
  if (w.empty()) throw std::invalid_argument("write_wtns: empty witness");
  if (w.size() > 0xffffffffu) throw std::invalid_argument("write_wtns: more than 2^32-1 values");
  io::BinWriter out("wtns", 2, 2);
  out.begin_section(kWtnsHeaderSection);
  out.u32(F::kBytes);
  out.limbs_le(F::kModulus, F::kBytes);
  out.u32(static_cast<std::uint32_t>(w.size()));
  out.end_section();
  out.begin_section(kWtnsDataSection);
  for (const auto& x : w) out.field_std(x);
  out.end_section();
  return std::move(out).finish();
}

template <class F>
std::vector<std::uint8_t> write_wtns(const std::vector<F>& w) {
  return write_wtns(std::span<const F>(w));
}

template <class F>
void write_wtns_file(const std::filesystem::path& path, std::span<const F> w) {
  io::write_file_bytes(path, write_wtns(w));
}

}  // namespace cuzk::r1cs
