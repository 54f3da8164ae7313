#include "cuzk/r1cs/circom_header.hpp"

namespace cuzk::r1cs {

namespace {

// u32 n8 followed by the n8-byte prime; validates n8.
std::vector<std::uint8_t> read_n8_prime(io::ByteReader& r, std::uint32_t& n8) {
  const std::uint64_t at = r.offset();
  n8 = r.u32();
  if (n8 == 0 || n8 % 8 != 0 || n8 > kMaxN8)
    r.fail_at(at, "invalid field element size n8 = " + std::to_string(n8) + " (must be a multiple of 8, 8.." +
                      std::to_string(kMaxN8) + ")");
  auto p = r.bytes(n8);
  return {p.begin(), p.end()};
}

R1csFileHeader read_r1cs_header_in(const io::BinFile& f) {
  R1csFileHeader h;
  io::ByteReader r = f.reader(kR1csHeaderSection);
  h.prime_offset = r.file_offset();
  h.prime_le = read_n8_prime(r, h.n8);
  const std::uint64_t counts_at = r.offset();
  h.n_wires = r.u32();
  h.n_outputs = r.u32();
  h.n_pub_inputs = r.u32();
  h.n_prv_inputs = r.u32();
  h.n_labels = r.u64();
  h.n_constraints = r.u32();
  r.expect_end();
  const std::uint64_t io_wires = std::uint64_t{h.n_outputs} + h.n_pub_inputs + h.n_prv_inputs;
  if (io_wires >= h.n_wires)
    r.fail_at(counts_at, "nOutputs + nPubInputs + nPrvInputs = " + std::to_string(io_wires) +
                             " must be < nWires = " + std::to_string(h.n_wires) + " (wire 0 is the constant one)");

  const auto& cs = f.section(kR1csConstraintsSection);
  if (std::uint64_t{h.n_constraints} * 12 > cs.size)
    io::ByteReader(f.bytes(), f.kind(), cs.id, 0)
        .fail_at(cs.offset, "nConstraints = " + std::to_string(h.n_constraints) + " needs at least " +
                                std::to_string(std::uint64_t{h.n_constraints} * 12) + " bytes, the section has " +
                                std::to_string(cs.size));
  if (const auto* m = f.find(kR1csWireToLabelSection); m != nullptr) {
    if (m->size != std::uint64_t{h.n_wires} * 8)
      io::ByteReader(f.bytes(), f.kind(), m->id, 0)
          .fail_at(m->offset, "wire-to-label map has " + std::to_string(m->size) + " bytes, expected 8 * nWires = " +
                                  std::to_string(std::uint64_t{h.n_wires} * 8));
  } else {
    // No map: only the constraints' terms (4 + n8 bytes each, after 3 u32 term counts per
    // constraint) can account for the wires. Each wire but the constant one must fit in one.
    const std::uint64_t max_terms = (cs.size - std::uint64_t{h.n_constraints} * 12) / (4 + std::uint64_t{h.n8});
    if (h.n_wires - 1 > max_terms)
      r.fail_at(counts_at, "nWires = " + std::to_string(h.n_wires) +
                               " but the file has no wire-to-label map (section 3) and its constraints (section 2, " +
                               std::to_string(cs.size) + " bytes) hold at most " + std::to_string(max_terms) +
                               " terms: every wire other than the constant one must appear in one");
  }
  const auto* gates = f.find(kR1csCustomGatesListSection);
  if (gates == nullptr) gates = f.find(kR1csCustomGatesUsesSection);
  h.has_custom_gates = gates != nullptr;
  if (gates != nullptr) h.custom_gates_offset = gates->offset;
  return h;
}

WtnsFileHeader read_wtns_header_in(const io::BinFile& f) {
  WtnsFileHeader h;
  io::ByteReader r = f.reader(kWtnsHeaderSection);
  h.prime_offset = r.file_offset();
  h.prime_le = read_n8_prime(r, h.n8);
  const std::uint64_t n_at = r.offset();
  h.n_witness = r.u32();
  r.expect_end();
  if (h.n_witness == 0) r.fail_at(n_at, "nWitness must be >= 1 (wire 0 is the constant one)");
  const auto& d = f.section(kWtnsDataSection);
  if (d.size != std::uint64_t{h.n_witness} * h.n8)
    io::ByteReader(f.bytes(), f.kind(), d.id, 0)
        .fail_at(d.offset, "witness section has " + std::to_string(d.size) + " bytes, expected nWitness * n8 = " +
                               std::to_string(std::uint64_t{h.n_witness} * h.n8));
  return h;
}

}  // namespace

R1csFileHeader read_r1cs_header(const io::BinFile& f) {
  return io::with_file_context(f, [&] { return read_r1cs_header_in(f); });
}
WtnsFileHeader read_wtns_header(const io::BinFile& f) {
  return io::with_file_context(f, [&] { return read_wtns_header_in(f); });
}

namespace {
template <class Header>
Curve curve_or_throw(const Header& h, std::string_view kind) {
  if (auto c = h.curve()) return *c;
  throw DecodeError(io::decode_context(kind, 1, h.prime_offset) + ": header prime is " +
                    describe_prime_le(h.prime_le) + ", which is neither the BN254 nor the BLS12-381 scalar field");
}
}  // namespace

Curve detect_r1cs_curve(std::span<const std::uint8_t> bytes) {
  return curve_or_throw(read_r1cs_header(io::BinFile::parse(bytes, kR1csFormat)), "r1cs");
}
Curve detect_r1cs_curve_file(const std::filesystem::path& path) {
  auto f = io::BinFile::open(path, kR1csFormat);
  return io::with_path_context(path, [&] { return curve_or_throw(read_r1cs_header(f), "r1cs"); });
}
Curve detect_wtns_curve(std::span<const std::uint8_t> bytes) {
  return curve_or_throw(read_wtns_header(io::BinFile::parse(bytes, kWtnsFormat)), "wtns");
}
Curve detect_wtns_curve_file(const std::filesystem::path& path) {
  auto f = io::BinFile::open(path, kWtnsFormat);
  return io::with_path_context(path, [&] { return curve_or_throw(read_wtns_header(f), "wtns"); });
}

}  // namespace cuzk::r1cs
