// Verification keys of the registered circuits as snarkjs verification_key.json, read from the
// circuit's .zkey (sections 2 and 3 only: the proving-key sections are never parsed), and of the
// served Filecoin PoSt circuits, read from the parameter directory's .vk (the key the engine
// verifies their proofs with); kept while the file it was read from is unchanged (same device,
// inode, size and modification time): a key file replaced on disk (renamed over, rewritten) is
// read again at the next request. Thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "cuzk/engine/engine.hpp"

namespace cuzk::server {

struct VerifyingKeyJson {
  std::string json;   // verification_key.json
  std::string curve;  // "bls12_381" or "bn254"
};

// The verification key stored in a snarkjs .zkey; throws cuzk::DecodeError / std::runtime_error.
VerifyingKeyJson read_zkey_verifying_key(const std::filesystem::path& zkey);

class VerifyingKeys {
 public:
  explicit VerifyingKeys(engine::Engine& engine) : engine_(engine) {}
  // kNotFound for an unknown circuit; kInternal when the key cannot be read.
  engine::ErrorCode get(const std::string& circuit_id, VerifyingKeyJson* out, std::string* error);

 private:
  // Where a circuit's verifying key is read from: a .zkey, or a Filecoin .vk beside its .params.
  struct Source {
    std::filesystem::path file;    // the file read (.zkey or .vk)
    std::filesystem::path params;  // Filecoin: the .params (empty for a .zkey)
  };
  // The identity of a file on disk (device, inode, size, modification time); empty when absent.
  struct Stamp {
    std::uint64_t dev = 0, ino = 0, size = 0;
    std::int64_t mtime_ns = 0;
    bool operator==(const Stamp&) const = default;
  };
  struct Cached {
    VerifyingKeyJson vk;
    std::filesystem::path file;
    Stamp stamp;
  };
  static std::optional<Stamp> stamp_of(const std::filesystem::path& file);
  std::filesystem::path zkey_of(const engine::CircuitSpec& c, std::string* error);
  engine::ErrorCode source_of(const std::string& circuit_id, Source* out, std::string* error);
  static VerifyingKeyJson read(const std::string& circuit_id, const Source& src);
  engine::Engine& engine_;
  std::mutex mu_;
  std::map<std::string, Cached> cache_;
};

}  // namespace cuzk::server
