// The pipeline's device attempts: k >= 1 jobs of one circuit proved together on one device
// (a single proof is a batch of one), and what follows an attempt that ended badly
// (retry_policy.hpp).
#include <spdlog/spdlog.h>

#include <chrono>
#include <string>
#include <vector>

#include "cuzk/gpu/runtime.hpp"
#include "errors.hpp"
#include "pipeline.hpp"
#include "retry_policy.hpp"

namespace cuzk::engine {

void Pipeline::worker(int device, int worker) {
  while (auto b = devq_.pop(device, worker)) {
    dev_[device]->busy.fetch_add(1);
    run_on_device(std::move(b->jobs), device, worker);
    dev_[device]->busy.fetch_sub(1);
  }
}

// Under the device's admission lock (see host_admission_): the key's copy on `device` for
// every job's lease (an upload can fault too), then the VRAM scratch and the pinned staging
// (waits end when the first job is cancelled).
Pipeline::DeviceAdmission Pipeline::admit(std::span<const JobPtr> jobs, int device, std::uint64_t scratch_bytes,
                                          std::uint64_t pinned_bytes, const std::atomic<bool>* cancel) {
  std::lock_guard adm(*admission_[device]);
  DeviceAdmission a;
  for (const auto& j : jobs) {
    double ms = 0;
    a.dkey = &p_.keys.on_device(j->lease, device, cancel, &ms);
    j->key_load_ms += ms;
  }
  a.scratch = p_.budget.reserve(PoolId::vram(device), scratch_bytes, cancel);
  if (pinned_bytes > 0) a.pinned = p_.budget.reserve(PoolId::pinned(), pinned_bytes, cancel);
  return a;
}

namespace {
struct NotAsABatch {};  // the jobs go one by one
}  // namespace

// One attempt of the jobs (one circuit) on `device`: Circuit::prove_batch, which on the cuda
// backend uploads each streamed point chunk once for all of them. Jobs cancelled by now end
// at once. Several jobs go one by one instead when their batch's scratch cannot fit the
// device's budget, or when their key was reloaded during the admission; one job that cannot
// fit fails (BudgetExhausted). While it proves, the attempt stops only when every job in it is
// cancelled (BatchScope): a job cancelled alone is proved with the others and then ends
// cancelled. A device fault ends the attempt of every job (retry_policy.hpp decides what
// follows); any other error of the whole attempt fails one job, and proves several again one
// by one (the batch not counted as their attempt). A job whose own witness has the wrong shape
// fails alone; one whose proof fails verification follows the retry rules alone.
void Pipeline::run_on_device(std::vector<JobPtr> jobs, int device, int worker) {
  std::vector<JobPtr> live;
  for (auto& j : jobs) {
    if (j->cancel.load()) p_.finish(*j, JobState::kCancelled, ErrorCode::kCancelled, "cancelled", nullptr);
    else live.push_back(std::move(j));
  }
  if (live.empty()) return;
  const std::size_t k = live.size();
  const Circuit& c = *live[0]->circuit;
  std::vector<int> attempts(k, 0);
  auto one_by_one = [&] {
    for (std::size_t i = 0; i < k; ++i) {
      if (attempts[i] != 0) p_.table.undo_attempt(*live[i]);  // the batch was not their attempt
      run_on_device({live[i]}, device, worker);
    }
  };
  std::vector<BatchOutcome> outs;
  try {
    const BatchScope scope(*this, live);  // ends (the jobs' own flags back) before any handler below
    // Exact figures of the loaded key (submit checked the shape estimate): a job whose key and
    // scratch together exceed the device's budget would otherwise wait forever.
    const HostKey& loaded = live[0]->lease.host();
    const std::uint64_t key_b = c.device_key_bytes(p_.devices, loaded);
    const std::uint64_t scratch_b =
        k == 1 ? c.device_scratch_bytes(p_.devices, loaded) : c.device_batch_scratch_bytes(p_.devices, loaded);
    const std::uint64_t vram = p_.budget.capacity(PoolId::vram(device));
    if (key_b + scratch_b > vram) {
      if (k > 1) throw NotAsABatch{};
      throw BudgetExhausted("circuit " + c.id() + " needs " + std::to_string(key_b + scratch_b) +
                            " bytes of device memory (key " + std::to_string(key_b) + " + scratch " +
                            std::to_string(scratch_b) + ") but device " + std::to_string(device) +
                            "'s VRAM budget is " + std::to_string(vram));
    }
    // A batch stages its scalar chunks too: twice a proof's pinned staging.
    const std::uint64_t pinned_b = (k == 1 ? 1 : 2) * p_.devices.pinned_bytes(c.shape());
    const DeviceAdmission a = admit(live, device, scratch_b, pinned_b, scope.cancel());
    const HostKey& host = live[0]->lease.host();  // admitted: every lease on the key's current copy
    for (const auto& j : live)
      if (&j->lease.host() != &host) throw NotAsABatch{};  // the key was reloaded during the admission
    std::vector<const Witness*> ws;
    std::vector<groth16::PhaseTimings*> ts;
    for (std::size_t i = 0; i < k; ++i) {
      p_.table.set_state(*live[i], JobState::kProving, device, worker);
      attempts[i] = p_.table.begin_attempt(*live[i]);
      ws.push_back(live[i]->witness.get());
      ts.push_back(&live[i]->timings);
    }
    outs = c.prove_batch(p_.devices, *a.dkey, host, ws, ts);
  } catch (const NotAsABatch&) {
    return one_by_one();
  } catch (const gpu::CudaError& e) {  // reservations already released by unwinding
    dev_[device]->faults.fetch_add(1);  // once for the attempt, whatever its size
    for (std::size_t i = 0; i < k; ++i) {
      if (attempts[i] == 0) attempts[i] = p_.table.begin_attempt(*live[i]);
      const std::string batch = k > 1 ? ", a batch of " + std::to_string(k) : "";
      after_attempt(live[i], device, worker, AttemptEnd::kDeviceFault, attempts[i], ErrorCode::kInternal,
                    "device fault on device " + std::to_string(device) + " (attempt " + std::to_string(attempts[i]) +
                        batch + "): " + e.what());
    }
    return;
  } catch (const std::exception& e) {
    if (k == 1) return fail(*live[0], std::current_exception());
    spdlog::info("a batch of {} on device {} ended ({}): its jobs are proved one by one", k, device, e.what());
    return one_by_one();
  } catch (...) {
    return fail(*live[0], std::current_exception());  // not a std::exception: only ever one job's
  }
  for (std::size_t i = 0; i < k; ++i)  // the reservations are released by now
    settle(live[i], std::move(outs[i]), device, worker, attempts[i], k);
}

// One job's outcome of an attempt that ran to its end.
void Pipeline::settle(const JobPtr& job, BatchOutcome out, int device, int worker, int attempt, std::size_t k) {
  if (job->cancel.load()) {
    p_.finish(*job, JobState::kCancelled, ErrorCode::kCancelled,
              k > 1 ? "cancelled while its batch proved (the batch went on for its other jobs)"
                    : "cancelled while it proved",
              nullptr);
    return;
  }
  if (out.error) {
    try {
      std::rethrow_exception(out.error);
    } catch (const ProofRejected& e) {
      dev_[device]->not_verified.fetch_add(1);
      after_attempt(job, device, worker, AttemptEnd::kNotVerified, attempt, e.code(),
                    std::string(e.what()) + " (device " + std::to_string(device) + ", attempt " +
                        std::to_string(attempt) + ")");
    } catch (...) {
      fail(*job, out.error);
    }
    return;
  }
  p_.keys.note_proof(job->circuit->id());
  dev_[device]->proofs.fetch_add(1);
  p_.finish(*job, JobState::kSucceeded, ErrorCode::kOk, "", &*out.out);
}

// What follows an attempt that may go better on another try: next_step (retry_policy.hpp) decides.
void Pipeline::after_attempt(const JobPtr& job, int device, int worker, AttemptEnd end, int attempt, ErrorCode code,
                             std::string why) {
  switch (next_step(end, {attempt, job->cancel.load(), job->key_reloaded})) {
    case NextStep::kEndCancelled:
      p_.finish(*job, JobState::kCancelled, ErrorCode::kCancelled, "cancelled (" + why + ")", nullptr);
      return;
    case NextStep::kRetry:
      return retry(job, device, worker, why);
    case NextStep::kReloadKeyAndRetry:
      job->key_reloaded = true;
      if (reload_suspect_key(*job, &why)) return retry(job, device, worker, why + "; its key was reloaded");
      break;
    case NextStep::kFail:
      if (end == AttemptEnd::kNotVerified && job->key_reloaded)
        why += "; it still fails with the key reloaded from " + job->circuit->source();
      break;
  }
  p_.finish(*job, JobState::kFailed, code, why, nullptr);
}

void Pipeline::retry(const JobPtr& job, int device, int worker, const std::string& why) {
  p_.keys.release_device(job->lease, device);
  const int devices = p_.devices.device_count();
  std::vector<int> all;
  for (int d = 0; d < devices; ++d) all.push_back(d);
  const int target = devices > 1 ? choose_device(*job->circuit, all, device) : device;
  job->exclude_device = devices > 1 ? device : -1;
  job->exclude_worker = worker;
  spdlog::warn("job {}: {}; retrying on device {}", job->request.request_id, why, target);
  std::lock_guard lk(handoff_);
  p_.table.set_state(*job, JobState::kWaitingDevice, target);
  devq_.push_retry(job, target);
}

bool Pipeline::reload_suspect_key(Job& j, std::string* why) {
  const Circuit& c = *j.circuit;
  try {
    const auto t0 = std::chrono::steady_clock::now();
    switch (p_.keys.reload_suspect(j.lease)) {
      case KeyManager::Reload::kReloaded:
        spdlog::warn("key of circuit {} is suspect: proofs of job {} with it failed verification on two attempts; "
                     "reloaded it from {} in {:.0f} ms and proving the job again",
                     c.id(), j.request.request_id, c.source(),
                     std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        return true;
      case KeyManager::Reload::kAlreadyReloaded:
        *why += "; its key was reloaded from " + c.source() + " since its last proof that verified";
        return false;
      case KeyManager::Reload::kNoRoom:
        *why += "; its key is suspect but the host budget has no room now to reload it";
        return false;
    }
  } catch (const std::exception& e) {
    *why += std::string("; its key is suspect but reloading it failed: ") + e.what();
  }
  return false;
}

Pipeline::BatchScope::BatchScope(Pipeline& p, const std::vector<JobPtr>& jobs)
    : p_(p), jobs_(jobs), state_(std::make_shared<BatchCancel>()) {
  std::lock_guard lk(p_.batches_m_);
  for (const auto& j : jobs_) {
    const bool cancelled = j->cancel.load();
    p_.in_batch_[j.get()] = InBatch{state_, cancelled};
    if (!cancelled) ++state_->live;
    j->timings.cancel = &state_->all;
  }
  if (state_->live == 0) state_->all = true;
}

Pipeline::BatchScope::~BatchScope() {
  std::lock_guard lk(p_.batches_m_);
  for (const auto& j : jobs_) {
    p_.in_batch_.erase(j.get());
    j->timings.cancel = &j->cancel;
  }
}

void Pipeline::cancelled(const Job& job) {
  std::lock_guard lk(batches_m_);
  auto it = in_batch_.find(&job);
  if (it == in_batch_.end() || it->second.counted) return;
  it->second.counted = true;
  if (--it->second.batch->live == 0) it->second.batch->all = true;
}

}  // namespace cuzk::engine
