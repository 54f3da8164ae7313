// The PoSt circuits' keys (circuit_keys.hpp) under their official names:
// v28-proof-of-spacetime-fallback-<tree>-<hash>.params and .vk.
#pragma once

#include <utility>

#include "cuzk/filecoin/circuit_keys.hpp"
#include "cuzk/filecoin/parameter_names.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

using PostKeyPaths = KeyPaths;
inline constexpr std::string_view kPostSetupCommand = "cuzk post setup";

inline PostKeyPaths post_key_paths(const std::filesystem::path& dir, const PoStProofInfo& info) {
  return key_paths(dir, post_cache_identifier(info));
}
inline void require_post_key_files(const PostKeyPaths& paths, const PoStProofInfo& info) {
  require_key_files(paths, info.name, kPostSetupCommand);
}
inline groth16::VerifyingKey<Bls12> read_post_vk(const PostKeyPaths& paths, const PoStProofInfo& info) {
  return read_key_vk(paths, info.name, kPostSetupCommand);
}
inline groth16::ProvingKey<Bls12> load_post_proving_key(
    const PostKeyPaths& paths, const PoStProofInfo& info, r1cs::R1CS<Fr> circuit,
    groth16::BellpersonCheck check = groth16::BellpersonCheck::kUnchecked) {
  return load_proving_key(paths, info.name, kPostSetupCommand, std::move(circuit), check);
}
// The seeded TEST setup of `info`'s circuit, written to `dir`. Returns the paths.
inline PostKeyPaths write_test_post_keys(const std::filesystem::path& dir, const PoStProofInfo& info,
                                         const r1cs::R1CS<Fr>& circuit, std::uint64_t seed) {
  const PostKeyPaths paths = post_key_paths(dir, info);
  write_test_keys(paths, info.name, circuit, seed);
  return paths;
}

}  // namespace cuzk::filecoin
