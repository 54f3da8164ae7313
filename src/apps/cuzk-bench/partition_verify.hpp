// Checking a Filecoin proof made partition by partition (PoRep C2, SnapDeals) that the daemon
// returned, client side (filecoin_verify.hpp): proof_bytes is the partitions' 192-byte proofs
// concatenated in partition order; proof k is verified with the circuit's verifying key from the
// daemon against partition k's public inputs, which cuzk-bench derived itself from the request
// (PoRep: porep_public_inputs from the C1's comm_d, comm_r and seed and the replica id; SnapDeals:
// snap_verifier_inputs from the three commitments), as a chain verifier has them; the daemon's
// public_json (a JSON array of one public.json per partition) must list the same inputs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/v1/proving.pb.h"
#include "filecoin_verify.hpp"

namespace cuzk::bench {

struct PartitionExpectation final : FilecoinExpectation {
  std::vector<std::vector<filecoin::Fr>> partition_inputs;  // partition k's; empty when underivable
  std::string check(const FilecoinVerifyingKey& key, const ::cuzk::v1::ProofResult& r) const override;
};

// One request of a run (a batch sends it N times, each with its own id from the daemon): its
// kind and Filecoin fields (PorepRequest, SnapRequest) set, priority and circuit left to the
// template (bench.hpp make_partitioned_request).
struct PartitionedJob {
  ::cuzk::v1::ProofRequest request;
  std::shared_ptr<const PartitionExpectation> expect;
  // E.g. "StackedDrg2KiBV1_1 (porep-2kib), 1 partition of 2 challenges: the json C1 of c1.json
  // (100497 bytes), the same in every request; replica id of prover f01000's sector 1".
  std::string description;
};

}  // namespace cuzk::bench
