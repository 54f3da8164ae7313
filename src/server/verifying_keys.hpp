// Verification keys of the registered circuits as snarkjs verification_key.json, read from the
// circuit's .zkey (sections 2 and 3 only: the proving-key sections are never parsed), and of the
// served Filecoin PoSt circuits, read from the parameter directory's .vk (the key the engine
// verifies their proofs with); kept once read. Thread-safe.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
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
  std::filesystem::path zkey_of(const engine::CircuitSpec& c, std::string* error);
  engine::ErrorCode read(const std::string& circuit_id, VerifyingKeyJson* out, std::string* error);
  engine::Engine& engine_;
  std::mutex mu_;
  std::map<std::string, VerifyingKeyJson> cache_;
};

}  // namespace cuzk::server
