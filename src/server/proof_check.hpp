// Client-side proof checking: a snarkjs verification_key.json parsed once, then proof.json +
// public.json pairs verified with cuzk's Groth16 verifier (the curve comes from the key).
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace cuzk::server {

class ProofChecker {
 public:
  // Throws cuzk::DecodeError / std::invalid_argument for a malformed key.
  explicit ProofChecker(std::string_view verification_key_json);
  ~ProofChecker();
  ProofChecker(ProofChecker&&) noexcept;

  // True when the proof verifies; false with the reason in `why` otherwise (malformed JSON,
  // wrong public input count, failed pairing check).
  bool verify(std::string_view proof_json, std::string_view public_json, std::string* why = nullptr) const;
  const std::string& curve() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::server
