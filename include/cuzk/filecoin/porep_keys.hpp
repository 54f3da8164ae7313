// The PoRep circuits' keys (circuit_keys.hpp) under their official names:
// v28-stacked-proof-of-replication-<tree>-sha256_hasher-<hash>.params and .vk.
#pragma once

#include <utility>

#include "cuzk/filecoin/circuit_keys.hpp"
#include "cuzk/filecoin/parameter_names.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

inline constexpr std::string_view kPorepSetupCommand = "cuzk porep setup";

inline KeyPaths porep_key_paths(const std::filesystem::path& dir, const SealProofInfo& info) {
  return key_paths(dir, porep_cache_identifier(info));
}
inline groth16::VerifyingKey<Bls12> read_porep_vk(const KeyPaths& paths, const SealProofInfo& info) {
  return read_key_vk(paths, info.name, kPorepSetupCommand);
}
inline groth16::ProvingKey<Bls12> load_porep_proving_key(
    const KeyPaths& paths, const SealProofInfo& info, r1cs::R1CS<Fr> circuit,
    groth16::BellpersonCheck check = groth16::BellpersonCheck::kUnchecked) {
  return load_proving_key(paths, info.name, kPorepSetupCommand, std::move(circuit), check);
}

}  // namespace cuzk::filecoin
