// Field-independent parts of the circom .r1cs (version 1) and .wtns (version 2) formats:
// container options, header structs and their validating readers, curve detection.
// Layouts: shared/INTEROP.md §7.2, §7.3.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/io/binfile.hpp"
#include "cuzk/r1cs/curve_id.hpp"

namespace cuzk::r1cs {

inline constexpr io::BinFileOptions kR1csFormat{"r1cs", 1, 1, false};
inline constexpr io::BinFileOptions kWtnsFormat{"wtns", 2, 2, false};

inline constexpr std::uint32_t kR1csHeaderSection = 1;
inline constexpr std::uint32_t kR1csConstraintsSection = 2;
inline constexpr std::uint32_t kR1csWireToLabelSection = 3;
inline constexpr std::uint32_t kR1csCustomGatesListSection = 4;
inline constexpr std::uint32_t kR1csCustomGatesUsesSection = 5;
inline constexpr std::uint32_t kWtnsHeaderSection = 1;
inline constexpr std::uint32_t kWtnsDataSection = 2;

// Largest element width the readers accept (keeps every n8-sized read bounded).
inline constexpr std::uint32_t kMaxN8 = 64;

struct R1csFileHeader {
  std::uint32_t n8 = 0;
  std::vector<std::uint8_t> prime_le;  // n8 bytes
  std::uint32_t n_wires = 0;
  std::uint32_t n_outputs = 0;
  std::uint32_t n_pub_inputs = 0;
  std::uint32_t n_prv_inputs = 0;
  std::uint64_t n_labels = 0;
  std::uint32_t n_constraints = 0;
  bool has_custom_gates = false;  // section 4 or 5 present (PLONK custom gates)
  std::uint64_t prime_offset = 0;  // absolute file offset of n8 (for messages about the prime)
  std::uint64_t custom_gates_offset = 0;  // absolute offset of section 4's (or 5's) data, if present
  std::optional<Curve> curve() const { return curve_from_prime_le(prime_le); }
};

// Reads and validates section 1 of a parsed .r1cs container and the sizes of sections 2 and 3:
// n8 a non-zero multiple of 8 (<= kMaxN8); nOutputs + nPubInputs + nPrvInputs < nWires; the header
// section exactly sized; section 2 present and at least 12 bytes per constraint; section 3, when
// present, exactly 8·nWires bytes. Without section 3 nothing else in the file accounts for the
// wires, so nWires - 1 must not exceed the number of terms section 2 can hold (each wire but the
// constant one appears in some term): a few bytes of header cannot declare 2^24 wires that
// `cuzk setup` would then allocate key points for. Throws DecodeError.
R1csFileHeader read_r1cs_header(const io::BinFile& f);

struct WtnsFileHeader {
  std::uint32_t n8 = 0;
  std::vector<std::uint8_t> prime_le;
  std::uint32_t n_witness = 0;
  std::uint64_t prime_offset = 0;  // absolute file offset of n8
  std::optional<Curve> curve() const { return curve_from_prime_le(prime_le); }
};

// Reads and validates section 1 of a parsed .wtns container; section 2 must be n_witness·n8 bytes
// and n_witness >= 1. Throws DecodeError.
WtnsFileHeader read_wtns_header(const io::BinFile& f);

// Which curve a file is for (from its header prime). Throws DecodeError on malformed input or an
// unknown prime.
Curve detect_r1cs_curve(std::span<const std::uint8_t> bytes);
Curve detect_r1cs_curve_file(const std::filesystem::path& path);
Curve detect_wtns_curve(std::span<const std::uint8_t> bytes);
Curve detect_wtns_curve_file(const std::filesystem::path& path);

// DecodeError unless prime_le is F's modulus: "r1cs file, section 1, offset 24: this .r1cs is for
// bn128 but the BLS12-381 scalar field was requested" (`at`: the absolute offset of n8, when known).
template <class F>
void require_prime(std::string_view kind, std::span<const std::uint8_t> prime_le, std::uint32_t n8,
                   std::optional<std::uint64_t> at = std::nullopt) {
  if (n8 == F::kBytes && prime_matches<F>(prime_le)) return;
  std::string msg = (at ? io::decode_context(kind, 1, *at) : std::string(kind) + " file, section 1") + ": this ." +
                    std::string(kind) + " is for " + describe_prime_le(prime_le);
  if (n8 != F::kBytes) msg += " (n8 = " + std::to_string(n8) + ")";
  msg += " but " + scalar_field_display_name<F>() + " was requested";
  throw DecodeError(msg);
}

}  // namespace cuzk::r1cs
