#include "cuzk/r1cs/curve_id.hpp"

namespace cuzk::r1cs {

namespace {
template <class F>
bool is_modulus_of(std::span<const std::uint8_t> prime_le) {
  return prime_matches<F>(prime_le);
}
std::string hex_be(std::span<const std::uint8_t> le) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::size_t n = le.size();
  while (n > 1 && le[n - 1] == 0) --n;
  std::string s = "0x";
  for (std::size_t i = n; i-- > 0;) {
    s += kDigits[le[i] >> 4];
    s += kDigits[le[i] & 15];
  }
  return s;
}
}  // namespace

std::string_view curve_display_name(Curve c) {
  switch (c) {
    case Curve::bn254: return "BN254 (bn128)";
    case Curve::bls12_381: return "BLS12-381";
  }
  return "?";
}

std::string_view curve_snarkjs_name(Curve c) {
  switch (c) {
    case Curve::bn254: return "bn128";
    case Curve::bls12_381: return "bls12381";
  }
  return "?";
}

std::string_view curve_name(Curve c) { return c == Curve::bn254 ? "bn254" : "bls12_381"; }

std::optional<Curve> parse_curve_name(std::string_view name) {
  if (name == "bn254" || name == "bn128" || name == "alt_bn128") return Curve::bn254;
  if (name == "bls12_381" || name == "bls12381" || name == "bls12-381") return Curve::bls12_381;
  return std::nullopt;
}

std::optional<Curve> curve_from_prime_le(std::span<const std::uint8_t> prime_le) {
  if (is_modulus_of<ff::bn254::Fr>(prime_le)) return Curve::bn254;
  if (is_modulus_of<ff::bls12_381::Fr>(prime_le)) return Curve::bls12_381;
  return std::nullopt;
}

std::string field_display_name_from_prime_le(std::span<const std::uint8_t> prime_le) {
  if (auto c = curve_from_prime_le(prime_le)) return "the " + std::string(curve_display_name(*c)) + " scalar field";
  return "the field of modulus " + hex_be(prime_le);
}

std::string describe_prime_le(std::span<const std::uint8_t> prime_le) {
  if (auto c = curve_from_prime_le(prime_le)) return std::string(curve_snarkjs_name(*c));
  return "an unknown prime " + hex_be(prime_le);
}

}  // namespace cuzk::r1cs
