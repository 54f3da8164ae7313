#include "pipeline.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cuzk/error.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "errors.hpp"

namespace cuzk::engine {

void Pipeline::SynthQueue::push(Batch b) {
  {
    std::lock_guard lk(m_);
    q_.push_back(std::move(b));
  }
  cv_.notify_one();
}

std::optional<Batch> Pipeline::SynthQueue::pop() {
  std::unique_lock lk(m_);
  cv_.wait(lk, [&] { return closed_ || !q_.empty(); });
  if (closed_) return std::nullopt;
  Batch b = std::move(q_.front());
  q_.pop_front();
  return b;
}

std::vector<Batch> Pipeline::SynthQueue::close() {
  std::vector<Batch> left;
  {
    std::lock_guard lk(m_);
    closed_ = true;
    for (auto& b : q_) left.push_back(std::move(b));
    q_.clear();
  }
  cv_.notify_all();
  return left;
}

Pipeline::Pipeline(Parts parts)
    : p_(std::move(parts)),
      devq_(p_.backend.device_count(), p_.config.workers_per_device, p_.config.pipeline_depth) {
  const int devices = p_.backend.device_count();
  for (int d = 0; d < devices; ++d) {
    admission_.push_back(std::make_unique<std::mutex>());
    dev_.push_back(std::make_unique<DeviceCounters>());
  }
  threads_.emplace_back([this] { dispatcher(); });
  for (int i = 0; i < p_.config.synthesis_concurrency; ++i) threads_.emplace_back([this] { synthesizer(); });
  for (int d = 0; d < devices; ++d)
    for (int w = 0; w < p_.config.workers_per_device; ++w)
      threads_.emplace_back([this, d, w] { worker(d, d * p_.config.workers_per_device + w); });
}

Pipeline::~Pipeline() { (void)stop(); }

std::vector<JobPtr> Pipeline::stop() {
  std::vector<JobPtr> left;
  if (stopped_) return left;
  stopped_ = true;
  left = p_.queue.close();
  for (auto& b : synth_q_.close()) left.insert(left.end(), b.jobs.begin(), b.jobs.end());
  for (auto& b : devq_.close()) left.insert(left.end(), b.jobs.begin(), b.jobs.end());
  for (auto& t : threads_) t.join();
  threads_.clear();
  return left;
}

int Pipeline::choose_device(const Circuit& c, const std::vector<int>& with_room, int exclude) const {
  int best = -1;
  bool best_resident = false;
  std::size_t best_load = 0;
  for (int d : with_room) {
    if (d == exclude) continue;
    const bool resident = p_.keys.resident_on(c.id(), d);
    const std::size_t load = devq_.pending(d) + static_cast<std::size_t>(dev_[d]->busy.load());
    if (best < 0 || (resident && !best_resident) || (resident == best_resident && load < best_load)) {
      best = d;
      best_resident = resident;
      best_load = load;
    }
  }
  return best;
}

void Pipeline::dispatcher() {
  for (;;) {
    if (devq_.wait_for_room().empty()) return;
    std::vector<JobPtr> jobs = p_.queue.next_batch(p_.config.max_batch_size,
                                                   std::chrono::milliseconds(p_.config.max_batch_wait_ms));
    if (jobs.empty()) return;
    const auto now = Clock::now();
    Batch b;
    for (auto& j : jobs) {
      j->dispatched = now;
      if (j->cancel.load()) p_.finish(*j, JobState::kCancelled, ErrorCode::kCancelled, "cancelled while queued", nullptr);
      else b.jobs.push_back(std::move(j));
    }
    if (b.jobs.empty()) continue;
    b.device = choose_device(*b.jobs.front()->circuit, devq_.wait_for_room(), -1);
    if (b.device < 0) {  // closed meanwhile
      for (auto& j : b.jobs) p_.finish(*j, JobState::kCancelled, ErrorCode::kUnavailable, "engine shutting down", nullptr);
      return;
    }
    for (auto& j : b.jobs) p_.table.set_batch(*j, b.jobs.size());
    devq_.assign(b.device);
    synth_q_.push(std::move(b));
  }
}

void Pipeline::synthesizer() {
  while (auto b = synth_q_.pop()) {
    Batch ready;
    ready.device = b->device;
    for (auto& j : b->jobs) {
      try {
        groth16::PhaseTimings& t = j->timings;
        t.check_cancel();
        p_.table.set_state(*j, JobState::kSynthesizing, b->device);
        {
          std::lock_guard adm(host_admission_);
          j->request_hold.release();  // the witness reservation covers the .wtns from here
          j->lease = p_.keys.acquire(*j->circuit, &j->cancel, &j->key_load_ms);
          j->witness_res = p_.budget.reserve(PoolId::host(), witness_bytes(j->circuit->shape()), &j->cancel);
        }
        j->witness = j->circuit->synthesize(j->request, j->part.get(), t);
        std::string().swap(j->request.wtns);  // parsed: the bytes are no longer needed
        pin_witness(*j);
        ready.jobs.push_back(j);
      } catch (...) {
        fail(*j, std::current_exception());
      }
    }
    if (ready.jobs.empty()) {
      devq_.abandon(b->device);
    } else {
      std::lock_guard lk(handoff_);  // marked waiting where they enter the device queue
      for (auto& j : ready.jobs) p_.table.set_state(*j, JobState::kWaitingDevice, ready.device);
      devq_.push_ready(std::move(ready));
    }
  }
}

// Page-locks the synthesized witness (at least pinned_witness_min_bytes; CurveDevice::pin_witness)
// when the pinned budget has room for it beside the staging headroom, so the proof uploads it
// without staging. Never waits and never evicts a key's pin: pins, key or witness, leave the
// headroom free, so the workers' staging reservations always fit. Timed as phase "pin_witness"
// when it pins.
void Pipeline::pin_witness(Job& j) {
  const std::uint64_t need = witness_pin_bytes(j.circuit->shape(), p_.config.pinned_witness_min_bytes);
  if (need == 0) return;
  std::optional<Reservation> r =
      p_.budget.try_reserve(PoolId::pinned(), need + p_.keys.pin_headroom(), Budget::Reclaim::kNo);
  if (!r) return;
  r->shrink_to(need);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    j.witness_pin = j.circuit->pin_witness(p_.backend, *j.witness);
  } catch (const std::exception& e) {
    spdlog::warn("job {}: cannot pin its witness ({}); it is uploaded through the staging buffers", j.request.request_id,
                 e.what());
    return;
  }
  if (!j.witness_pin) return;
  j.witness_pin_res = std::move(*r);
  j.timings.add("pin_witness", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
}

void Pipeline::worker(int device, int worker) {
  while (auto b = devq_.pop(device, worker)) {
    dev_[device]->busy.fetch_add(1);
    if (b->jobs.size() > 1) run_batch_on_device(b->jobs, device, worker);
    else if (!b->jobs.empty()) run_on_device(b->jobs.front(), device, worker);
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

void Pipeline::run_on_device(const JobPtr& job, int device, int worker) {
  Job& j = *job;
  int attempt = 0;
  try {
    j.timings.check_cancel();
    const Circuit& c = *j.circuit;
    // Exact figures of the loaded key (submit checked the shape estimate): a job whose key
    // and scratch together exceed the device's budget would otherwise wait forever.
    const std::uint64_t key_b = c.device_key_bytes(p_.backend, j.lease.host());
    const std::uint64_t scratch_b = c.device_scratch_bytes(p_.backend, j.lease.host());
    if (key_b + scratch_b > p_.budget.capacity(PoolId::vram(device)))
      throw BudgetExhausted("circuit " + c.id() + " needs " + std::to_string(key_b + scratch_b) +
                            " bytes of device memory (key " + std::to_string(key_b) + " + scratch " +
                            std::to_string(scratch_b) + ") but device " + std::to_string(device) +
                            "'s VRAM budget is " + std::to_string(p_.budget.capacity(PoolId::vram(device))));
    DeviceAdmission a = admit({&job, 1}, device, scratch_b, p_.backend.pinned_bytes(c.shape()), &j.cancel);
    p_.table.set_state(j, JobState::kProving, device, worker);
    attempt = p_.table.begin_attempt(j);
    ProvedOutput out = c.prove(p_.backend, *a.dkey, j.lease.host(), *j.witness, j.timings);
    p_.keys.note_proof(c.id());
    dev_[device]->proofs.fetch_add(1);
    a.scratch.release();
    a.pinned.release();
    p_.finish(j, JobState::kSucceeded, ErrorCode::kOk, "", &out);
  } catch (const gpu::CudaError& e) {  // reservations already released by unwinding
    dev_[device]->faults.fetch_add(1);
    if (attempt == 0) attempt = p_.table.begin_attempt(j);
    const std::string why =
        "device fault on device " + std::to_string(device) + " (attempt " + std::to_string(attempt) + "): " + e.what();
    retry_or_fail(job, device, worker, attempt, why, ErrorCode::kInternal);
  } catch (const ProofRejected& e) {
    rejected(job, device, worker, attempt, e);
  } catch (...) {
    fail(j, std::current_exception());
  }
}

namespace {
struct NotAsABatch {};  // the batch goes the single way
}  // namespace

// A batch's jobs (one circuit) proved together: Circuit::prove_batch, on the cuda backend each
// streamed point chunk uploaded once for all of them. Jobs cancelled by now go the single way
// (which ends them), as does a batch whose scratch cannot fit the device's budget at all. While
// it proves, the batch stops only when every job in it is cancelled (BatchScope): a job
// cancelled alone is proved with the others and then ends cancelled. A device fault retries
// each job as run_on_device does after one (the batch was their attempt); any other error of
// the whole batch (all its jobs cancelled, memory) proves its jobs again one by one, the batch
// not counted as their attempt. A job whose own witness has the wrong shape fails alone; one
// whose proof fails verification is proved again alone (the batch was its first attempt).
void Pipeline::run_batch_on_device(const std::vector<JobPtr>& jobs, int device, int worker) {
  std::vector<JobPtr> live;
  for (const auto& j : jobs) {
    if (j->cancel.load()) run_on_device(j, device, worker);
    else live.push_back(j);
  }
  if (live.size() < 2) {
    for (const auto& j : live) run_on_device(j, device, worker);
    return;
  }
  const Circuit& c = *live[0]->circuit;
  std::vector<int> attempts(live.size(), 0);
  std::vector<BatchOutcome> outs;
  try {
    const BatchScope scope(*this, live);  // ends (the jobs' own flags back) before any handler below
    const std::uint64_t key_b = c.device_key_bytes(p_.backend, live[0]->lease.host());
    const std::uint64_t scratch_b = c.device_batch_scratch_bytes(p_.backend, live[0]->lease.host());
    if (key_b + scratch_b > p_.budget.capacity(PoolId::vram(device))) throw NotAsABatch{};
    // Twice a proof's pinned staging: the batch stages its scalar chunks too.
    const DeviceAdmission a = admit(live, device, scratch_b, 2 * p_.backend.pinned_bytes(c.shape()), scope.cancel());
    const HostKey& host = live[0]->lease.host();  // admitted: every lease on the key's current copy
    for (const auto& j : live)
      if (&j->lease.host() != &host) throw NotAsABatch{};  // the key was reloaded during the admission
    std::vector<const Witness*> ws;
    std::vector<groth16::PhaseTimings*> ts;
    for (std::size_t i = 0; i < live.size(); ++i) {
      p_.table.set_state(*live[i], JobState::kProving, device, worker);
      attempts[i] = p_.table.begin_attempt(*live[i]);
      ws.push_back(live[i]->witness.get());
      ts.push_back(&live[i]->timings);
    }
    outs = c.prove_batch(p_.backend, *a.dkey, host, ws, ts);
  } catch (const NotAsABatch&) {
    for (std::size_t i = 0; i < live.size(); ++i) {
      if (attempts[i] != 0) p_.table.undo_attempt(*live[i]);
      run_on_device(live[i], device, worker);
    }
    return;
  } catch (const gpu::CudaError& e) {
    dev_[device]->faults.fetch_add(1);
    for (std::size_t i = 0; i < live.size(); ++i) {
      if (attempts[i] == 0) attempts[i] = p_.table.begin_attempt(*live[i]);
      const std::string why = "device fault on device " + std::to_string(device) + " (attempt " +
                              std::to_string(attempts[i]) + ", a batch of " + std::to_string(live.size()) + "): " + e.what();
      retry_or_fail(live[i], device, worker, attempts[i], why, ErrorCode::kInternal);
    }
    return;
  } catch (const std::exception& e) {
    spdlog::info("a batch of {} on device {} ended ({}): its jobs are proved one by one", live.size(), device, e.what());
    for (std::size_t i = 0; i < live.size(); ++i) {
      if (attempts[i] != 0) p_.table.undo_attempt(*live[i]);  // the batch was not their attempt
      run_on_device(live[i], device, worker);
    }
    return;
  }
  for (std::size_t i = 0; i < live.size(); ++i) {  // the reservations are released by now
    if (live[i]->cancel.load()) {
      p_.finish(*live[i], JobState::kCancelled, ErrorCode::kCancelled,
                "cancelled while its batch proved (the batch went on for its other jobs)", nullptr);
      continue;
    }
    if (outs[i].error) {
      try {
        std::rethrow_exception(outs[i].error);
      } catch (const ProofRejected& e) {
        rejected(live[i], device, worker, attempts[i], e);
      } catch (...) {
        fail(*live[i], outs[i].error);
      }
      continue;
    }
    p_.keys.note_proof(c.id());
    dev_[device]->proofs.fetch_add(1);
    p_.finish(*live[i], JobState::kSucceeded, ErrorCode::kOk, "", &*outs[i].out);
  }
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

void Pipeline::retry(const JobPtr& job, int device, int worker, const std::string& why) {
  p_.keys.release_device(job->lease, device);
  const int devices = p_.backend.device_count();
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

// After an attempt that may go better on another try (a device fault, a proof that failed
// verification): a first attempt is proved again, a second ends the job with `code` (as
// cancelled when its cancel flag is set).
void Pipeline::retry_or_fail(const JobPtr& job, int device, int worker, int attempt, const std::string& why,
                             ErrorCode code) {
  if (job->cancel.load()) p_.finish(*job, JobState::kCancelled, ErrorCode::kCancelled, "cancelled (" + why + ")", nullptr);
  else if (attempt < 2) retry(job, device, worker, why);
  else p_.finish(*job, JobState::kFailed, code, why, nullptr);
}

// A proof of `job` made on `device` that did not verify: counted against the device, then
// retried as retry_or_fail does. A second failure makes the key suspect: it is reloaded and
// the job proved once more (KeyManager::reload_suspect); only a failure after that, or where
// the key was reloaded already since its last proof that verified, ends the job with e's code
// (for a .wtns circuit: the witness does not satisfy the circuit).
void Pipeline::rejected(const JobPtr& job, int device, int worker, int attempt, const ProofRejected& e) {
  dev_[device]->not_verified.fetch_add(1);
  std::string why =
      std::string(e.what()) + " (device " + std::to_string(device) + ", attempt " + std::to_string(attempt) + ")";
  if (job->cancel.load() || attempt < 2) return retry_or_fail(job, device, worker, attempt, why, e.code());
  if (job->key_reloaded) {
    why += "; it still fails with the key reloaded from " + job->circuit->source();
  } else {
    job->key_reloaded = true;
    if (reload_suspect_key(*job, &why)) return retry(job, device, worker, why + "; its key was reloaded");
  }
  p_.finish(*job, JobState::kFailed, e.code(), why, nullptr);
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

void Pipeline::fail(Job& job, std::exception_ptr e) {
  JobState s;
  ErrorCode code;
  std::string msg;
  classify(e, job, &s, &code, &msg);
  p_.finish(job, s, code, msg, nullptr);
}

void Pipeline::classify(std::exception_ptr e, const Job& job, JobState* s, ErrorCode* code, std::string* msg) {
  *s = JobState::kFailed;
  try {
    std::rethrow_exception(e);
  } catch (const groth16::Cancelled&) {
    *s = JobState::kCancelled;
    *code = ErrorCode::kCancelled;
    *msg = "cancelled";
  } catch (const EngineError& x) {
    *code = x.code();
    *msg = x.what();
  } catch (const DecodeError& x) {
    *code = ErrorCode::kInvalidArgument;
    *msg = x.what();
  } catch (const std::invalid_argument& x) {
    *code = ErrorCode::kInvalidArgument;
    *msg = x.what();
  } catch (const std::exception& x) {
    *code = ErrorCode::kInternal;
    *msg = x.what();
  } catch (...) {
    *code = ErrorCode::kInternal;
    *msg = "unknown error";
  }
  if (*s != JobState::kCancelled && job.cancel.load()) {
    *s = JobState::kCancelled;
    *code = ErrorCode::kCancelled;
    *msg = "cancelled (" + *msg + ")";
  }
}

}  // namespace cuzk::engine
