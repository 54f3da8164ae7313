// Which curve a circom/snarkjs file is for, from the scalar-field prime r in its header.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/ff/fields.hpp"

namespace cuzk::r1cs {

enum class Curve { bn254, bls12_381 };

// "BN254 (bn128)" / "BLS12-381": for messages.
std::string_view curve_display_name(Curve c);
// snarkjs/circom spelling: "bn128" / "bls12381".
std::string_view curve_snarkjs_name(Curve c);
// cuzk's own spelling (its config, its API, groth16::Bn254::kName ...): "bn254" / "bls12_381".
std::string_view curve_name(Curve c);
// The one parser of a curve's name, in every spelling met: cuzk's ("bn254", "bls12_381"),
// snarkjs/circom's ("bn128", "bls12381"), "alt_bn128" and "bls12-381"; nullopt for another.
std::optional<Curve> parse_curve_name(std::string_view name);

// The curve whose scalar field r has this little-endian encoding (any width; high zero bytes
// are ignored), or nullopt for an unknown prime.
std::optional<Curve> curve_from_prime_le(std::span<const std::uint8_t> prime_le);

// The curve whose scalar field is F (compile time), or nullopt if F is not a known scalar field.
template <class F>
constexpr std::optional<Curve> curve_of_scalar_field() {
  if constexpr (F::kLimbs != 4) {
    return std::nullopt;
  } else if (F::kModulus == ff::bn254::Fr::kModulus) {
    return Curve::bn254;
  } else if (F::kModulus == ff::bls12_381::Fr::kModulus) {
    return Curve::bls12_381;
  } else {
    return std::nullopt;
  }
}

// Names a scalar field by its modulus (LE bytes): "the BLS12-381 scalar field" or
// "the field of modulus 0x..".
std::string field_display_name_from_prime_le(std::span<const std::uint8_t> prime_le);
// Names a file's prime: "bn128" / "bls12381" (snarkjs spelling) or "an unknown prime 0x..".
std::string describe_prime_le(std::span<const std::uint8_t> prime_le);

template <class F>
std::string scalar_field_display_name() {
  std::uint8_t b[F::kBytes];
  for (std::size_t i = 0; i < F::kBytes; ++i) b[i] = static_cast<std::uint8_t>(F::kModulus[i / 8] >> (8 * (i % 8)));
  return field_display_name_from_prime_le(b);
}

// True when prime_le encodes exactly F's modulus.
template <class F>
bool prime_matches(std::span<const std::uint8_t> prime_le) {
  for (std::size_t i = 0; i < prime_le.size(); ++i) {
    const std::uint8_t want = i < F::kBytes ? static_cast<std::uint8_t>(F::kModulus[i / 8] >> (8 * (i % 8))) : 0;
    if (prime_le[i] != want) return false;
  }
  return prime_le.size() >= F::kBytes;
}

}  // namespace cuzk::r1cs
