// One proof request as it moves through the engine. The immutable part is set at submit;
// `status` (state, code, error, result) is guarded by the JobTable's mutex; the working
// part (timings, witness, lease, reservations) belongs to the one stage running the job.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "budget.hpp"
#include "circuit.hpp"
#include "cuzk/engine/types.hpp"
#include "cuzk/groth16/timings.hpp"
#include "key_manager.hpp"
#include "request_holds.hpp"

namespace cuzk::engine {

using Clock = std::chrono::steady_clock;

struct PartitionGroup;

// A request proved whole is one job. A request proved as several SNARKs (Circuit::split) is a
// group job, which never runs, and one partition job per SNARK; the status counts the partition
// jobs while they run and the group job once final (a request is counted once).
enum class JobRole : std::uint8_t { kWhole, kGroup, kPartition };

struct Job {
  // Set at submit.
  ProofRequest request;
  const Circuit* circuit = nullptr;
  JobRole role = JobRole::kWhole;
  std::shared_ptr<PartitionGroup> group;          // kGroup: its partitions' outcomes (partition_group.hpp)
  std::shared_ptr<Job> parent;                    // kPartition: the group job
  std::shared_ptr<const PartitionInput> part;     // kPartition: its input
  std::size_t partition = 0;                      // kPartition: its index
  Priority priority = Priority::kNormal;
  std::uint64_t seq = 0;          // FIFO order within a priority
  std::uint64_t fingerprint = 0;  // idempotency: the same id must come with the same request
  Clock::time_point submitted;

  std::atomic<bool> cancel{false};

  // Guarded by the JobTable mutex.
  ProofResult result;  // state, code, error, placement; outputs once final
  std::map<std::uint64_t, std::function<void(const ProofResult&)>> watchers;  // JobTable::watch, until final

  // Owned by the stage running the job.
  groth16::PhaseTimings timings;
  Clock::time_point dispatched;
  double key_load_ms = 0;
  KeyManager::Lease lease;
  RequestHolds::Hold request_hold;  // the request's received bytes, until synthesis (request_holds.hpp)
  Reservation witness_res;
  std::unique_ptr<Witness> witness;
  // The witness page-locked (Pipeline::pin_witness), dropped before the witness: declared after it.
  std::unique_ptr<HostPin> witness_pin;
  Reservation witness_pin_res;
  int exclude_device = -1, exclude_worker = -1;  // a retry after a device fault goes elsewhere
  bool key_reloaded = false;  // its key was reloaded after two proofs failed verification

  Job() { timings.cancel = &cancel; }
};

using JobPtr = std::shared_ptr<Job>;

}  // namespace cuzk::engine
