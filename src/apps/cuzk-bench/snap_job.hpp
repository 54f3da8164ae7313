// cuzk-bench's Filecoin SnapDeals requests: a SnapRequest made from a directory of vanilla proofs
// as `cuzk-bench gen-vanilla snap` / `cuzk snap gen-vanilla` write it (snap_vanilla_dir.hpp:
// partition-<k>.vproof files sent as they are, the daemon decodes and judges them, and
// commitments.txt), and what the returned proofs must verify against: every partition's public
// inputs derived here from the three commitments (snap_verifier_inputs), as a chain verifier has
// them. The checking itself is partition_verify.hpp's.
#pragma once

#include <string>

#include "partition_verify.hpp"

namespace cuzk::bench {

// The SnapDeals options of single and batch (--snap-vanilla and the option that goes with it).
struct SnapOptions {
  std::string vanilla_dir;  // empty: not a SnapDeals request
  std::string proof;        // registered update proof, number or name; "": commitments.txt's
  bool enabled() const { return !vanilla_dir.empty(); }
};

// Reads the directory once. Throws DecodeError / std::invalid_argument for an unreadable
// directory, a bad commitments.txt or an unknown proof; commitments that are not field elements
// are only warned about on stderr (sent as they are: the daemon says why it refuses them).
PartitionedJob make_snap_job(const SnapOptions& o);

}  // namespace cuzk::bench
