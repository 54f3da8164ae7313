// circom .r1cs (version 1) reader and writer for R1CS<F> (shared/INTEROP.md §7.2).
// Coefficients are stored in standard form and held in memory as F (Montgomery).
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "cuzk/io/binfile.hpp"
#include "cuzk/r1cs/circom_header.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::r1cs {

struct R1csReadOptions {
  bool load_labels = true;  // read section 3 (wire -> label map) into R1CS::wire_labels
};

namespace detail {
template <class F>
void read_lc(io::ByteReader& r, CsrMatrix<F>& m, std::uint32_t n_wires) {
  const std::uint64_t at = r.offset();
  const std::uint32_t n_terms = r.u32();
  constexpr std::uint64_t kTermBytes = 4 + F::kBytes;
  if (std::uint64_t{n_terms} * kTermBytes > r.remaining())
    r.fail_at(at, "linear combination of " + std::to_string(n_terms) + " terms overruns the section (" +
                      std::to_string(r.remaining()) + " bytes left)");
  for (std::uint32_t t = 0; t < n_terms; ++t) {
    const std::uint64_t wat = r.offset();
    const std::uint32_t wire = r.u32();
    if (wire >= n_wires)
      r.fail_at(wat, "wire id " + std::to_string(wire) + " out of range (nWires = " + std::to_string(n_wires) + ")");
    m.push_term(wire, r.field_std<F>("coefficient"));
  }
  m.end_row();
}
}  // namespace detail

// Reads a parsed .r1cs container. Throws DecodeError on malformed input, on a prime other than F's
// modulus, and on files with PLONK custom gates (sections 4/5), which Groth16 cannot use; errors
// name f's path when it was opened from one.
template <class F>
R1CS<F> read_r1cs(const io::BinFile& f, const R1csReadOptions& opt = {}) {
  return io::with_file_context(f, [&] {
    const R1csFileHeader h = read_r1cs_header(f);
    require_prime<F>("r1cs", h.prime_le, h.n8, h.prime_offset);
    if (h.has_custom_gates)
      throw DecodeError(io::decode_context("r1cs", f.has(kR1csCustomGatesListSection) ? kR1csCustomGatesListSection
                                                                                      : kR1csCustomGatesUsesSection,
                                           h.custom_gates_offset) +
                        ": uses custom gates (sections 4/5, a PLONK-only circom feature); such circuits cannot be "
                        "proven with Groth16 — recompile without custom templates");
    R1CS<F> out = make_empty_r1cs<F>(h.n_wires, h.n_outputs + h.n_pub_inputs);
    out.num_constraints = h.n_constraints;
    out.circom = CircomMeta{h.n_outputs, h.n_pub_inputs, h.n_prv_inputs, h.n_labels};
    // Bounded: read_r1cs_header checked that section 2 has at least 12 bytes per constraint.
    for (auto* m : {&out.A, &out.B, &out.C}) m->row_ptr.reserve(std::size_t{h.n_constraints} + 1);

    io::ByteReader r = f.reader(kR1csConstraintsSection);
    for (std::uint32_t i = 0; i < h.n_constraints; ++i) {
      detail::read_lc(r, out.A, h.n_wires);
      detail::read_lc(r, out.B, h.n_wires);
      detail::read_lc(r, out.C, h.n_wires);
    }
    r.expect_end();

    if (opt.load_labels && f.has(kR1csWireToLabelSection)) {
      io::ByteReader m = f.reader(kR1csWireToLabelSection);
      out.wire_labels.resize(h.n_wires);  // size validated against the section by read_r1cs_header
      for (auto& l : out.wire_labels) l = m.u64();
      m.expect_end();
    }
    return out;
  });
}

// `bytes` must outlive the call only (the result owns its data).
template <class F>
R1CS<F> read_r1cs(std::span<const std::uint8_t> bytes, const R1csReadOptions& opt = {}) {
  return read_r1cs<F>(io::BinFile::parse(bytes, kR1csFormat), opt);
}

template <class F>
R1CS<F> read_r1cs_file(const std::filesystem::path& path, const R1csReadOptions& opt = {}) {
  auto f = io::BinFile::open(path, kR1csFormat);
  return io::with_path_context(path, [&] { return read_r1cs<F>(f, opt); });
}

// Writes sections 1, 2, 3. Without CircomMeta the header says nOutputs = 0, nPubInputs = num_public,
// nPrvInputs = 0, nLabels = num_vars; without wire_labels section 3 is the identity map.
// Throws std::invalid_argument if r fails R1CS::validate().
template <class F>
std::vector<std::uint8_t> write_r1cs(const R1CS<F>& r) {
  r.validate();
  const CircomMeta meta = r.circom.value_or(CircomMeta{0, r.num_public, 0, r.num_vars});
  if (std::uint64_t{meta.num_outputs} + meta.num_pub_inputs + meta.num_prv_inputs >= r.num_vars)
    throw std::invalid_argument("write_r1cs: nOutputs + nPubInputs + nPrvInputs must be < num_vars");
  io::BinWriter w("r1cs", 1, 3);
  w.begin_section(kR1csHeaderSection);
  w.u32(F::kBytes);
  w.limbs_le(F::kModulus, F::kBytes);
  w.u32(r.num_vars);
  w.u32(meta.num_outputs);
  w.u32(meta.num_pub_inputs);
  w.u32(meta.num_prv_inputs);
  w.u64(meta.num_labels);
  w.u32(r.num_constraints);
  w.end_section();

  w.begin_section(kR1csConstraintsSection);
  for (std::size_t i = 0; i < r.num_constraints; ++i) {
    for (const auto* m : {&r.A, &r.B, &r.C}) {
      const auto row = m->row(i);
      w.u32(static_cast<std::uint32_t>(row.size()));
      for (std::size_t k = 0; k < row.size(); ++k) {
        w.u32(row.cols[k]);
        w.field_std(row.vals[k]);
      }
    }
  }
  w.end_section();

  w.begin_section(kR1csWireToLabelSection);
  for (std::uint32_t j = 0; j < r.num_vars; ++j) w.u64(r.wire_labels.empty() ? j : r.wire_labels[j]);
  w.end_section();
  return std::move(w).finish();
}

template <class F>
void write_r1cs_file(const std::filesystem::path& path, const R1CS<F>& r) {
  io::write_file_bytes(path, write_r1cs(r));
}

}  // namespace cuzk::r1cs
