// Checking a Filecoin proof the daemon returned, client side: every 192-byte proof (bellperson's
// format, in ProofResult.proof_bytes) is verified with the circuit's verifying key as the daemon
// serves it (GetVerifyingKey: its parameter directory's .vk as snarkjs JSON) against public
// inputs cuzk-bench derived itself from what the request carried, never taken from the daemon's
// answer; the daemon's public_json must then list the same inputs (a disagreement is reported,
// not trusted). What the inputs are and how the proofs are laid out is the kind's:
// post_verify.hpp (one proof), partition_verify.hpp (one per partition: PoRep, SnapDeals).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/v1/proving.pb.h"

namespace cuzk::bench {

class FilecoinVerifyingKey {
 public:
  // GetVerifyingKey's verification_key_json of `circuit_id`. Throws DecodeError for another curve
  // or a bad key.
  FilecoinVerifyingKey(std::string circuit_id, std::string_view json);
  std::size_t num_public() const { return vk_.num_public(); }
  // "" when the 192-byte `proof` verifies against `inputs`; else why not ("does not verify ...",
  // "does not decode: ...", or a key with another number of inputs).
  std::string verify(std::span<const std::uint8_t> proof, std::span<const filecoin::Fr> inputs) const;

 private:
  std::string circuit_id_;
  groth16::VerifyingKey<groth16::Bls12_381> vk_;
};

// What the proof of one request must verify against, derived here.
struct FilecoinExpectation {
  virtual ~FilecoinExpectation() = default;
  std::string circuit_id;   // the circuit that must have proved it ("window-post-2kib", "porep-32gib")
  std::string underivable;  // why the inputs could not be derived here ("" when they were)
  // "" when the result's proofs verify with `key` (circuit_id's) and public_json agrees; else why not.
  virtual std::string check(const FilecoinVerifyingKey& key, const ::cuzk::v1::ProofResult& r) const = 0;

 protected:
  // What every kind checks first: the circuit that proved it, and whether there is anything to
  // check against. "" when both are right.
  std::string precheck(const ::cuzk::v1::ProofResult& r) const;
};

// Whether a public.json document (an array of decimal strings) lists exactly `inputs`; throws
// DecodeError for one that does not parse.
bool public_json_lists(const nlohmann::json& doc, std::span<const filecoin::Fr> inputs);

// The bytes of a protobuf `bytes` field.
inline std::span<const std::uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace cuzk::bench
