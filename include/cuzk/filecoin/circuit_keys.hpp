// The Groth16 keys of Filecoin's circuits, as files under their official names in a parameter
// directory: v28-<cache identifier>.params and .vk (parameter_names.hpp), in bellperson's
// formats. The official files (from a Filecoin parameter fetch) are read as they are; cuzk's
// TEST setup writes keys of the same circuits, in the same formats and under the same names, into
// a directory of the caller's choosing, beside a marker file (<params>.cuzk-test) so that a TEST
// key is never taken for an official one.
//
// A .params key holds no constraint matrices and drops its points at infinity; loading joins it
// with the recorded circuit (groth16/bellperson_circuit_key.hpp), which also refuses a file made
// for another circuit. The .vk must be the .params file's own verifying key. The loaded key keeps
// A and B only: C is implied (c = a·b for a satisfying witness; every proof is verified).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::filecoin {

using Bls12 = groth16::Bls12_381;

struct KeyPaths {
  std::filesystem::path params, vk, test_marker;
};
// The files of the circuit with this cache identifier (parameter_names.hpp) in `dir`.
KeyPaths key_paths(const std::filesystem::path& dir, std::string_view cache_identifier);

// Throws std::runtime_error naming the first missing file (.params, then .vk) and what to do;
// `circuit` names the circuit in the message, `setup_command` the cuzk command writing TEST keys.
void require_key_files(const KeyPaths& paths, std::string_view circuit, std::string_view setup_command);

// Whether the key is a cuzk TEST key (its marker file exists).
bool is_test_key(const KeyPaths& paths);

// The verifying key (.vk), fully checked. Throws DecodeError naming the file, or
// std::runtime_error when it is missing (saying where it was looked for).
groth16::VerifyingKey<Bls12> read_key_vk(const KeyPaths& paths, std::string_view circuit, std::string_view setup_command);

// The proving key: the .params file (memory-mapped, its bulk points decoded without the
// subgroup checks, as bellperson's mapped parameters), checked against the .vk and joined with
// the recorded circuit, whose A and B matrices move into the key (C is dropped first: the key
// does not keep it; pass the circuit as an rvalue to spare a copy). Throws as read_key_vk, and
// std::invalid_argument when the file does not fit the circuit.
groth16::ProvingKey<Bls12> load_proving_key(const KeyPaths& paths, std::string_view circuit,
                                            std::string_view setup_command, r1cs::R1CS<Fr> r1cs,
                                            groth16::BellpersonCheck check = groth16::BellpersonCheck::kUnchecked);

// The seeded TEST setup of the circuit, written to paths' directory (created when missing) as
// .params, .vk and the marker, each atomically (temporary file + rename).
void write_test_keys(const KeyPaths& paths, std::string_view circuit, const r1cs::R1CS<Fr>& r1cs, std::uint64_t seed);

}  // namespace cuzk::filecoin
