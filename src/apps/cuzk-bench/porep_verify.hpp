// Checking a PoRep C2 the daemon returned, client side (filecoin_verify.hpp): proof_bytes is the
// partitions' 192-byte proofs concatenated in partition order; proof k is verified with the
// circuit's verifying key from the daemon against partition k's public inputs, which cuzk-bench
// derived itself (porep_public_inputs) from the C1's comm_d, comm_r and seed and the replica id
// (the one derived from prover and sector when both are known, as a chain verifier does); the
// daemon's public_json (a JSON array of one public.json per partition) must list the same inputs.
#pragma once

#include <string>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "filecoin_verify.hpp"

namespace cuzk::bench {

struct PorepExpectation final : FilecoinExpectation {
  std::vector<std::vector<filecoin::Fr>> partition_inputs;  // partition k's; empty when underivable
  std::string check(const FilecoinVerifyingKey& key, const ::cuzk::v1::ProofResult& r) const override;
};

}  // namespace cuzk::bench
