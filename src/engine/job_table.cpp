#include "job_table.hpp"

#include <algorithm>

#include "cuzk/engine/ids.hpp"

namespace cuzk::engine {

namespace {
ProofResult not_found(const std::string& id) {
  ProofResult r;
  r.request_id = id;
  r.state = JobState::kFailed;
  r.code = ErrorCode::kNotFound;
  r.error = "unknown request id " + quote_id(id);
  return r;
}
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
}  // namespace

std::vector<PhaseTiming> result_timings(const Job& job) {
  std::vector<PhaseTiming> out;
  const bool dispatched = job.dispatched != Clock::time_point{};
  out.push_back({"queue_wait", ms_between(job.submitted, dispatched ? job.dispatched : Clock::now())});
  out.push_back({"key_load", job.key_load_ms});
  for (const auto& [name, ms] : job.timings.phases) {
    auto it = std::find_if(out.begin(), out.end(), [&](const PhaseTiming& p) { return p.phase == name; });
    if (it != out.end()) it->ms += ms;
    else out.push_back({name, ms});
  }
  out.push_back({"total", ms_between(job.submitted, Clock::now())});
  return out;
}

// A request is counted once: a group job only once final, its partition jobs only while they run.
bool JobTable::counted(const Job& job, JobState s) {
  if (job.role == JobRole::kWhole) return true;
  return (job.role == JobRole::kGroup) == is_final(s);
}

void JobTable::move_count(const Job& job, JobState from, JobState to) {
  if (counted(job, from)) --in_state_[static_cast<std::size_t>(from)];
  if (counted(job, to)) ++in_state_[static_cast<std::size_t>(to)];
}

JobPtr JobTable::insert_or_get(const JobPtr& job, bool* inserted) {
  std::lock_guard lk(m_);
  auto [it, ok] = jobs_.emplace(job->request.request_id, job);
  *inserted = ok;
  if (ok && counted(*job, job->result.state)) ++in_state_[static_cast<std::size_t>(job->result.state)];
  return it->second;
}

JobPtr JobTable::find(const std::string& id) const {
  std::lock_guard lk(m_);
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : it->second;
}

void JobTable::set_state(Job& job, JobState s, int device, int worker) {
  std::lock_guard lk(m_);
  if (is_final(job.result.state)) return;
  move_count(job, job.result.state, s);
  job.result.state = s;
  if (device >= 0) job.result.device = device;
  if (worker >= 0) job.result.worker = worker;
  // A group job shows its furthest partition (queued < synthesizing < waiting < proving).
  if (job.parent && !is_final(job.parent->result.state) && s > job.parent->result.state && !is_final(s)) {
    job.parent->result.state = s;
    if (device >= 0) job.parent->result.device = device;
    if (worker >= 0) job.parent->result.worker = worker;
  }
}

void JobTable::set_batch(Job& job, std::size_t batch_size) {
  std::lock_guard lk(m_);
  job.result.batch_size = batch_size;
}

int JobTable::begin_attempt(Job& job) {
  std::lock_guard lk(m_);
  return ++job.result.attempts;
}

void JobTable::undo_attempt(Job& job) {
  std::lock_guard lk(m_);
  if (job.result.attempts > 0) --job.result.attempts;
}

bool JobTable::finish(Job& job, JobState s, ErrorCode code, const std::string& error, ProvedOutput* out,
                      const std::function<void(const ProofResult&)>& on_final) {
  std::vector<PhaseTiming> timings = result_timings(job);
  std::map<std::uint64_t, std::function<void(const ProofResult&)>> watchers;
  {
    std::lock_guard lk(m_);
    if (is_final(job.result.state)) return false;
    move_count(job, job.result.state, s);
    job.result.state = s;
    job.result.code = code;
    job.result.error = error;
    job.result.timings = std::move(timings);
    if (out != nullptr) {
      job.result.proof_json = std::move(out->proof_json);
      job.result.public_json = std::move(out->public_json);
      job.result.proof_bytes = std::move(out->proof_bytes);
    }
    on_final(job.result);
    watchers.swap(job.watchers);
    finished_.push_back(job.request.request_id);
    while (finished_.size() > max_retained_) {
      jobs_.erase(finished_.front());
      finished_.pop_front();
    }
  }
  done_.notify_all();
  for (auto& [handle, fn] : watchers) fn(job.result);  // final: no longer written
  return true;
}

std::optional<ProofResult> JobTable::await(const std::string& id, std::chrono::milliseconds timeout) const {
  std::unique_lock lk(m_);
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return not_found(id);
  const JobPtr job = it->second;
  if (!done_.wait_for(lk, timeout, [&] { return is_final(job->result.state); })) return std::nullopt;
  return job->result;
}

std::uint64_t JobTable::watch(const std::string& id, std::function<void(const ProofResult&)> on_final) {
  std::unique_lock lk(m_);
  auto it = jobs_.find(id);
  if (it == jobs_.end() || is_final(it->second->result.state)) {
    const ProofResult r = it == jobs_.end() ? not_found(id) : it->second->result;
    lk.unlock();
    on_final(r);
    return 0;
  }
  const std::uint64_t handle = ++next_watch_;
  it->second->watchers.emplace(handle, std::move(on_final));
  return handle;
}

bool JobTable::unwatch(const std::string& id, std::uint64_t handle) {
  if (handle == 0) return false;
  std::lock_guard lk(m_);
  auto it = jobs_.find(id);
  return it != jobs_.end() && it->second->watchers.erase(handle) > 0;
}

ProofResult JobTable::peek(const std::string& id) const {
  std::lock_guard lk(m_);
  auto it = jobs_.find(id);
  return it == jobs_.end() ? not_found(id) : it->second->result;
}

JobState JobTable::state(const Job& job) const {
  std::lock_guard lk(m_);
  return job.result.state;
}

std::vector<JobPtr> JobTable::unfinished() const {
  std::lock_guard lk(m_);
  std::vector<JobPtr> out;
  for (const auto& [id, j] : jobs_)
    if (!is_final(j->result.state)) out.push_back(j);
  return out;
}

JobTable::Counts JobTable::counts() const {
  std::lock_guard lk(m_);
  auto at = [&](JobState s) { return in_state_[static_cast<std::size_t>(s)]; };
  return Counts{at(JobState::kSynthesizing), at(JobState::kWaitingDevice), at(JobState::kProving),
                at(JobState::kSucceeded),    at(JobState::kFailed),         at(JobState::kCancelled)};
}

}  // namespace cuzk::engine
