// The proving engine: accepts proof requests, schedules them by priority over workers on
// (real or simulated) devices, keeps proving keys resident within memory budgets, and
// returns verified proofs with per-phase timings. Thread-safe; no call blocks on proving
// work except await()/prove(), which wait at most their timeout.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/engine/config.hpp"
#include "cuzk/engine/types.hpp"

namespace cuzk::engine {

// The Filecoin circuit a request of a Filecoin kind (winning_post, window_post, porep, snap_deals)
// is proved with, from its registered proof: what EngineConfig::filecoin_circuits takes; "" for
// the other kinds. Throws std::invalid_argument for a request that names no known proof.
std::string filecoin_circuit_id(const ProofRequest& request);

class Engine {
 public:
  // Validates the configuration and the circuits (throws std::invalid_argument naming the
  // bad field), starts the workers and loads the preload list.
  explicit Engine(EngineConfig config);
  // Cancels queued work, lets running work stop at its next phase boundary, joins.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Queues a request. Idempotent on request_id: a known id returns duplicate=true and
  // queues nothing (kAlreadyExists if the same id comes with a different request).
  // Cheap checks (unknown circuit, wrong input form, witness length) fail here.
  SubmitOutcome submit(ProofRequest request);
  // submit() of a request that the caller holds as `received_bytes` of another form (a gRPC
  // message): its bytes are counted in the host budget before make() builds the request from
  // them (both forms while it runs), then the request's own bytes until its synthesis.
  // kResourceExhausted when the budget has no room for them now (nothing is made).
  SubmitOutcome submit_received(std::uint64_t received_bytes, const std::function<ProofRequest()>& make);
  // The largest request payload (.wtns, C1 output, vanilla or partition proofs) a served circuit
  // takes, or the circuit's own (nullopt: unknown id; 0: it takes none, a native circuit).
  std::uint64_t max_request_bytes() const;
  std::optional<std::uint64_t> max_request_bytes(const std::string& circuit_id) const;
  // The result once final, or nullopt if still running when `timeout` passes.
  // Unknown ids give a result with code kNotFound.
  std::optional<ProofResult> await(const std::string& request_id, std::chrono::milliseconds timeout);
  // submit + await; a timeout gives code kDeadlineExceeded (the job keeps running).
  ProofResult prove(ProofRequest request, std::chrono::milliseconds timeout);
  // Calls `on_final` once with the job's final result, without a waiting thread: at once (on
  // this thread) when the job is already final or the id unknown (code kNotFound; returns 0),
  // else from the engine thread that ends the job, which it must not block (it should only hand
  // the result on, and not call back into the engine). Returns the handle unwatch() takes.
  std::uint64_t watch(const std::string& request_id, std::function<void(const ProofResult&)> on_final);
  // Drops a watch whose callback has not started; false when it has run or is running.
  bool unwatch(const std::string& request_id, std::uint64_t handle);
  // The job's current state (final or not); code kNotFound for unknown ids.
  ProofResult peek(const std::string& request_id) const;
  // Queued: removed at once. Running: stops at its next phase boundary. Final: kFailedPrecondition.
  ErrorCode cancel(const std::string& request_id, std::string* error = nullptr);

  // Loads a circuit's key into the fastest tier its budget allows.
  ErrorCode preload(const std::string& circuit_id, std::string* error = nullptr);
  // Drops every resident copy of the key; kFailedPrecondition while a job holds it.
  ErrorCode evict(const std::string& circuit_id, std::string* error = nullptr);

  StatusSnapshot status() const;
  std::string metrics_text() const;  // Prometheus text exposition format
  std::vector<std::string> circuit_ids() const;
  // The .zkey file holding a circuit's key: its zkey_path, or for a native circuit the TEST
  // key cached under cache_dir (written when the circuit was registered). nullopt: unknown id.
  std::optional<std::string> key_file(const std::string& circuit_id) const;
  const EngineConfig& config() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::engine
