// The partitions of a request proved as several SNARKs (Circuit::split; a PoRep C2 is one SNARK
// per partition of the sector): what the group job (job.hpp JobRole::kGroup) learns as its
// partition jobs end, and the request's result made from them: the partitions' proofs joined in
// partition order once every one succeeded (filecoin-proofs' multi-partition proof bytes: their
// 192-byte proofs concatenated), or the first failure, which ends the request (the engine then
// cancels the other partitions).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "circuit.hpp"
#include "job.hpp"

namespace cuzk::engine {

class PartitionGroup {
 public:
  // Partition jobs named `partition_ids`, numbered by their position.
  explicit PartitionGroup(std::vector<std::string> partition_ids);
  // The partition jobs of request `request_id` for split()'s `parts`, in their order: each named
  // "<request_id>/partition-<k>", k its partition number (PartitionInput::index; a request for
  // one partition of a sector is one job named for that partition).
  PartitionGroup(const std::string& request_id, const std::vector<std::shared_ptr<const PartitionInput>>& parts);

  const std::vector<std::string>& partition_ids() const { return ids_; }
  std::size_t size() const { return ids_.size(); }

  enum class Verdict { kPending, kSucceeded, kFailed };
  // Records partition job `p`'s final result. kSucceeded when it was the last partition and all
  // succeeded, kFailed for the first failure (once; later outcomes give kPending).
  Verdict record(const Job& p);

  // After kFailed: the request's state, code and reason ("partition 3 of 10 (<id>): ...", or
  // "partition 3 (<id>): ..." when the group is not every partition of the request).
  JobState failed_state() const;
  ErrorCode failed_code() const;
  std::string failed_reason() const;

  // After kSucceeded, into the group job: the joined output (proof_bytes concatenated;
  // proof_json and public_json JSON arrays of the partitions' documents), and its timings: the
  // partitions' phases summed, key_load summed, dispatched at the first partition's dispatch.
  ProvedOutput joined() const;
  void fill_timings(Job& group) const;

 private:
  struct Outcome {
    bool done = false;
    ProofResult result;
    Clock::time_point dispatched;
    double key_load_ms = 0;
  };
  std::vector<std::string> ids_;
  std::vector<std::size_t> numbers_;  // each partition's number
  mutable std::mutex m_;
  std::vector<Outcome> outcomes_;
  std::size_t done_ = 0;
  std::optional<std::size_t> failed_;  // the first failed partition
};

}  // namespace cuzk::engine
