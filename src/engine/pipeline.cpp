#include "pipeline.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cuzk/error.hpp"
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
      devq_(p_.devices.device_count(), p_.config.workers_per_device, p_.config.pipeline_depth) {
  const int devices = p_.devices.device_count();
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
    j.witness_pin = j.circuit->pin_witness(p_.devices, *j.witness);
  } catch (const std::exception& e) {
    spdlog::warn("job {}: cannot pin its witness ({}); it is uploaded through the staging buffers", j.request.request_id,
                 e.what());
    return;
  }
  if (!j.witness_pin) return;
  j.witness_pin_res = std::move(*r);
  j.timings.add("pin_witness", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
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
