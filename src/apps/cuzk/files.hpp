// File helpers and the curve dispatch shared by the subcommands.
#pragma once

#include <initializer_list>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "cuzk/groth16/engine.hpp"
#include "cuzk/r1cs/curve_id.hpp"

namespace cuzk::cli {

std::string read_text_file(const std::string& path);
void write_text_file(const std::string& path, std::string_view text);

// "bn128" / "bls12381" (snarkjs) or "bn254" / "bls12_381" -> curve; throws DecodeError
// otherwise, naming `where` (e.g. "vk.json: curve") and at most 64 characters of the name.
r1cs::Curve curve_from_name(std::string_view name, const std::string& where);

// Runs a command's body; running out of memory there (a file larger than this machine can
// hold) becomes an error naming the command's input files instead of a bare std::bad_alloc.
template <class Fn>
decltype(auto) reading_inputs(std::initializer_list<std::string_view> inputs, Fn&& body) {
  try {
    return std::forward<Fn>(body)();
  } catch (const std::bad_alloc&) {
    std::string names;
    for (std::string_view f : inputs) names += (names.empty() ? "" : ", ") + std::string(f);
    throw std::runtime_error("out of memory while processing " + names +
                             ": they need more memory than this machine can give");
  }
}

// Calls f.template operator()<E>() with the engine of curve c: the one curve dispatch.
template <class Fn>
decltype(auto) with_engine(r1cs::Curve c, Fn&& f) {
  if (c == r1cs::Curve::bn254) return std::forward<Fn>(f).template operator()<groth16::Bn254>();
  return std::forward<Fn>(f).template operator()<groth16::Bls12_381>();
}

}  // namespace cuzk::cli
