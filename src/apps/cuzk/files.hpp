// File helpers shared by the subcommands (the curve dispatch: groth16/curve_dispatch.hpp).
#pragma once

#include <initializer_list>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

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

}  // namespace cuzk::cli
