// The digest a cached key file (a native circuit's TEST key, key_cache_files.hpp) carries
// beside it, "<key>.sha256": one line "sha256-64m <hex> <size>". The digest is the SHA-256 of
// the concatenated SHA-256s of the file's 64 MiB pieces, hashed in parallel, so checking a
// multi-GiB key at load costs a fraction of parsing it (OpenSSL's SHA-256 uses the CPU's SHA
// instructions). It catches a file that changed after it was written (a flipped bit, a torn
// write, a careless edit) but still parses; the file is not a defence against someone who can
// write the cache directory (that is 0700).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace cuzk::engine {

// "sha256-64m:<64 hex digits>" of `bytes`.
std::string key_digest(std::span<const std::uint8_t> bytes);

// "<key>.sha256".
std::filesystem::path key_digest_path(const std::filesystem::path& key);

// Writes the digest file of `key` for `bytes` (the key's content): through a temporary file
// renamed over it, mode 0600. Throws std::runtime_error naming the file on failure.
void write_key_digest(const std::filesystem::path& key, std::span<const std::uint8_t> bytes);

// What is wrong with `bytes` as the content of `key` against its digest file: nothing
// (nullopt), or a sentence naming the digest file and the mismatch.
std::optional<std::string> key_digest_problem(const std::filesystem::path& key, std::span<const std::uint8_t> bytes);

}  // namespace cuzk::engine
