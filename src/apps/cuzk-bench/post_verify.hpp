// Checking a PoSt proof the daemon returned, client side (filecoin_verify.hpp): proof_bytes is one
// 192-byte proof, verified with the circuit's verifying key from the daemon against the public
// inputs cuzk-bench derived itself from the randomness, the partition and the sectors; the
// daemon's public_json must then list the same inputs.
#pragma once

#include <string>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "filecoin_verify.hpp"

namespace cuzk::bench {

struct PostExpectation final : FilecoinExpectation {
  std::vector<filecoin::Fr> public_inputs;  // derived here; empty when they could not be (underivable)
  std::string check(const FilecoinVerifyingKey& key, const ::cuzk::v1::ProofResult& r) const override;
};

}  // namespace cuzk::bench
