// The retry rules of the pipeline, in one place: what happens to a job after a proving attempt
// that may go better on another try. A pure function of the attempt's end and the job's state,
// so the whole table is tested without a device (tests/engine/retry_policy_test.cpp).
//
//   how the attempt ended      | attempt | key reloaded | next step
//   ---------------------------+---------+--------------+----------------------------------
//   either, job cancelled      |   any   |     any      | end cancelled
//   device fault               |    1    |     any      | retry (another device or worker)
//   device fault               |   >= 2  |     any      | fail (internal)
//   proof did not verify       |    1    |     any      | retry (another device or worker)
//   proof did not verify       |   >= 2  |     no       | reload the key (suspect), retry
//   proof did not verify       |   >= 2  |     yes      | fail (the proof's code)
//
// A proof that fails verification twice makes its key suspect: a key corrupted in memory would
// fail on every device, a device fault on one. A .wtns witness that does not satisfy its circuit
// fails the same way and ends with kInvalidArgument after the retries (errors.hpp ProofRejected).
// Every other error (bad input, memory, cancellation at a phase boundary) ends the job at once.
#pragma once

namespace cuzk::engine {

enum class AttemptEnd {
  kDeviceFault,  // the device threw (gpu::CudaError), from the key's upload to the proof
  kNotVerified,  // a proof came back and did not verify (ProofRejected)
};

enum class NextStep {
  kEndCancelled,       // the job's cancel flag is set
  kRetry,              // proved once more, on another device when there is one
  kReloadKeyAndRetry,  // the key is reloaded from its source first (KeyManager::reload_suspect)
  kFail,               // the job ends failed
};

struct AttemptState {
  int attempt = 1;            // the attempt that just ended, from 1
  bool cancelled = false;     // the job's cancel flag
  bool key_reloaded = false;  // its key was reloaded already for this job
};

NextStep next_step(AttemptEnd end, const AttemptState& s);

}  // namespace cuzk::engine
