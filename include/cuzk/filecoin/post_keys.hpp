// The Groth16 keys of the PoSt circuits, as files under their official names in a parameter
// directory: v28-proof-of-spacetime-fallback-<tree>-<hash>.params and .vk (parameter_names.hpp),
// in bellperson's formats. The official files (from a Filecoin parameter fetch) are read as they
// are; cuzk's TEST setup writes keys of the same circuits, in the same formats and under the same
// names, into a directory of the caller's choosing, beside a marker file (<params>.cuzk-test) so
// that a TEST key is never taken for an official one.
//
// A .params key holds no constraint matrices and drops its points at infinity; loading joins it
// with the recorded circuit (groth16/bellperson_circuit_key.hpp), which also refuses a file made
// for another circuit. The .vk must be the .params file's own verifying key.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::filecoin {

using Bls12 = groth16::Bls12_381;

struct PostKeyPaths {
  std::filesystem::path params, vk, test_marker;
};
PostKeyPaths post_key_paths(const std::filesystem::path& dir, const PoStProofInfo& info);

// Throws std::runtime_error naming the first missing file (.params, then .vk) and what to do.
void require_post_key_files(const PostKeyPaths& paths, const PoStProofInfo& info);

// Whether the directory's key for `info` is a cuzk TEST key (its marker file exists).
bool is_test_key(const PostKeyPaths& paths);

// The verifying key (.vk), fully checked. Throws DecodeError naming the file, or
// std::runtime_error when it is missing (saying where it was looked for).
groth16::VerifyingKey<Bls12> read_post_vk(const PostKeyPaths& paths, const PoStProofInfo& info);

// The proving key: the .params file (memory-mapped, its bulk points decoded without the
// subgroup checks, as bellperson's mapped parameters), checked against the .vk and joined with
// the recorded circuit. Throws as read_post_vk, and std::invalid_argument when the file does not
// fit the circuit.
groth16::ProvingKey<Bls12> load_post_proving_key(const PostKeyPaths& paths, const PoStProofInfo& info,
                                                  const r1cs::R1CS<Fr>& circuit,
                                                  groth16::BellpersonCheck check = groth16::BellpersonCheck::kUnchecked);

// The seeded TEST setup of `info`'s circuit, written to `dir` (created when missing) as .params,
// .vk and the marker, each atomically (temporary file + rename). Returns the paths.
PostKeyPaths write_test_post_keys(const std::filesystem::path& dir, const PoStProofInfo& info, const r1cs::R1CS<Fr>& circuit,
                                  std::uint64_t seed);

}  // namespace cuzk::filecoin
