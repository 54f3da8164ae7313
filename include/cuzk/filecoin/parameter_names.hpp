// The official Groth16 parameter and verifying-key file names, and where they live.
//
// storage-proofs-core parameter_cache.rs: a circuit's cache identifier is
//   <cache_prefix>-<hex SHA-256 of the public params' identifier() string>
// and its files v28-<cache identifier>.params / .vk / .meta (VERSION = 28) in the parameter
// cache directory. Prefixes: "proof-of-spacetime-fallback-<tree>" (FallbackPoStCompound),
// "stacked-proof-of-replication-<tree>-sha256_hasher" (StackedCompound),
// "empty-sector-update-<tree>" (EmptySectorUpdateCompound, the one filecoin-proofs uses) and
// "empty-sector-update-poseidon-<tree>"; <tree> is MerkleTreeWrapper::display,
// "merkletree-poseidon_hasher-<base>-<sub>-<top>". The identifier strings are each public
// params' ParameterSetMetadata::identifier (formats in parameter_names.cpp). Note the api
// version is not part of them: WindowPoSt V1 and V1_2 share their files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

inline constexpr unsigned kParameterVersion = 28;
// storage-proofs-core settings.rs: Settings::parameter_cache, overridden by the environment
// variable FIL_PROOFS_PARAMETER_CACHE (the config crate's "FIL_PROOFS" prefix + the field name).
inline constexpr std::string_view kDefaultParameterCacheDir = "/var/tmp/filecoin-proof-parameters/";
inline constexpr std::string_view kParameterCacheEnvVar = "FIL_PROOFS_PARAMETER_CACHE";

// "merkletree-poseidon_hasher-8-8-0".
std::string tree_display(const TreeShape& tree);

// The identifier() strings that are hashed.
std::string post_parameter_set_identifier(const PoStProofInfo& info);
std::string porep_parameter_set_identifier(const SealProofInfo& info);
std::string update_parameter_set_identifier(std::uint64_t sector_size);

// Cache identifiers (file names without "v28-" and extension).
std::string post_cache_identifier(const PoStProofInfo& info);
std::string porep_cache_identifier(const SealProofInfo& info);
std::string update_cache_identifier(std::uint64_t sector_size, bool poseidon_variant = false);

std::string params_file_name(std::string_view cache_identifier);  // v28-<id>.params
std::string vk_file_name(std::string_view cache_identifier);      // v28-<id>.vk
std::string meta_file_name(std::string_view cache_identifier);    // v28-<id>.meta

// The parameter directory: the environment's value when set (pass std::getenv's result; the
// Rust takes it as is, so an empty value means the current directory), else the default.
std::filesystem::path parameter_cache_dir(const std::optional<std::string>& env_value);
// Convenience for a getenv result (nullptr: unset).
std::filesystem::path parameter_cache_dir(const char* env_value);

}  // namespace cuzk::filecoin
