// Checking a PoSt proof the daemon returned, client side: the 192-byte proof (bellperson's
// format, ProofResult.proof_bytes) is verified with the circuit's verifying key, as the daemon
// serves it (GetVerifyingKey: its parameter directory's .vk as snarkjs JSON), against the public
// inputs cuzk-bench derived itself from the randomness, the partition and the sectors. The
// daemon's public_json must then list the same inputs (a disagreement is reported, not trusted).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/groth16/engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/v1/proving.pb.h"

namespace cuzk::bench {

struct PostExpectation {
  std::string circuit_id;                   // the circuit that must have proved it ("window-post-2kib")
  std::vector<filecoin::Fr> public_inputs;  // derived here; empty when they could not be
  std::string underivable;                  // why not (e.g. a vanilla file that does not decode here)
};

class PostVerifyingKey {
 public:
  // GetVerifyingKey's verification_key_json. Throws DecodeError for another curve or a bad key.
  explicit PostVerifyingKey(std::string_view json);
  std::size_t num_public() const { return vk_.num_public(); }
  // "" when the proof verifies against the derived inputs and public_json agrees; else why not.
  std::string check(const PostExpectation& e, const ::cuzk::v1::ProofResult& r) const;

 private:
  groth16::VerifyingKey<groth16::Bls12_381> vk_;
};

}  // namespace cuzk::bench
