// File helpers and the curve dispatch shared by the subcommands.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "cuzk/groth16/engine.hpp"
#include "cuzk/r1cs/curve_id.hpp"

namespace cuzk::cli {

std::string read_text_file(const std::string& path);
void write_text_file(const std::string& path, std::string_view text);

// "bn128" / "bls12381" (snarkjs) or "bn254" / "bls12_381" -> curve; throws DecodeError otherwise.
r1cs::Curve curve_from_name(std::string_view name);

// Calls f.template operator()<E>() with the engine of curve c: the one curve dispatch.
template <class Fn>
decltype(auto) with_engine(r1cs::Curve c, Fn&& f) {
  if (c == r1cs::Curve::bn254) return std::forward<Fn>(f).template operator()<groth16::Bn254>();
  return std::forward<Fn>(f).template operator()<groth16::Bls12_381>();
}

}  // namespace cuzk::cli
