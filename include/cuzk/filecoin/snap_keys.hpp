// The SnapDeals circuits' keys (circuit_keys.hpp) under their official names:
// v28-empty-sector-update-<tree>-<hash>.params and .vk (parameter_names.hpp update_cache_identifier,
// the non-Poseidon variant filecoin-proofs uses). One key per sector size.
#pragma once

#include <utility>

#include "cuzk/filecoin/circuit_keys.hpp"
#include "cuzk/filecoin/parameter_names.hpp"
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::filecoin {

inline constexpr std::string_view kSnapSetupCommand = "cuzk snap setup";

inline KeyPaths snap_key_paths(const std::filesystem::path& dir, const UpdateProofInfo& info) {
  return key_paths(dir, update_cache_identifier(info.sector_size));
}
inline groth16::VerifyingKey<Bls12> read_snap_vk(const KeyPaths& paths, const UpdateProofInfo& info) {
  return read_key_vk(paths, info.name, kSnapSetupCommand);
}
// `circuit`: record_snap_circuit(snap_params(info.id)) (its matrices move into the key).
inline groth16::ProvingKey<Bls12> load_snap_proving_key(
    const KeyPaths& paths, const UpdateProofInfo& info, r1cs::R1CS<Fr> circuit,
    groth16::BellpersonCheck check = groth16::BellpersonCheck::kUnchecked) {
  return load_proving_key(paths, info.name, kSnapSetupCommand, std::move(circuit), check);
}

}  // namespace cuzk::filecoin
