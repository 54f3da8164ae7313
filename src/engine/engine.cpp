// Engine: the public API over the pipeline (include/cuzk/engine/engine.hpp).
#include "cuzk/engine/engine.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include "cuzk/engine/ids.hpp"
#include "budget.hpp"
#include "circuit.hpp"
#include "config_check.hpp"
#include "device.hpp"
#include "errors.hpp"
#include "filecoin_circuit.hpp"
#include "job_queue.hpp"
#include "job_table.hpp"
#include "key_manager.hpp"
#include "metrics.hpp"
#include "partition_group.hpp"
#include "pipeline.hpp"
#include "porep_circuit.hpp"
#include "request_holds.hpp"
#include "post_circuit.hpp"
#include "retirer.hpp"
#include "snap_circuit.hpp"

namespace cuzk::engine {

namespace {

// "req-<8 hex digits from the OS's random source>-"
std::string random_id_prefix() {
  std::random_device rd;
  char buf[24];
  std::snprintf(buf, sizeof buf, "req-%08x-", static_cast<unsigned>(rd()));
  return buf;
}

// A Filecoin request's circuit, "" for other kinds (filecoin_circuit_id; EngineError).
std::string filecoin_id_of(const ProofRequest& r) {
  if (r.kind == ProofKind::kWinningPost || r.kind == ProofKind::kWindowPost) return post_circuit_id(r);
  if (r.kind == ProofKind::kPorep) return porep_circuit_id(r);
  if (r.kind == ProofKind::kSnapDeals) return snap_circuit_id(r);
  return "";
}

std::unique_ptr<Devices> make_devices(const EngineConfig& c) {
  if (c.backend == Backend::cuda) return make_cuda_devices(c);
  return make_sim_devices(c);
}

// The configured circuits, then the Filecoin ones served (filecoin_circuit.hpp); why a Filecoin
// circuit whose files are there is not served goes into left_out.
std::vector<std::unique_ptr<Circuit>> make_circuits(const EngineConfig& c, std::map<std::string, std::string>& left_out) {
  std::vector<std::unique_ptr<Circuit>> out;
  for (std::size_t i = 0; i < c.circuits.size(); ++i)
    out.push_back(make_circuit(c.circuits[i], c.cache_dir, "circuits[" + std::to_string(i) + "]"));
  const FilecoinSelection sel{c.filecoin_circuits, left_out};
  std::vector<std::unique_ptr<Circuit>> filecoin = make_post_circuits(c.filecoin_parameter_dir, sel);
  for (auto& porep : make_porep_circuits(c.filecoin_parameter_dir, sel)) filecoin.push_back(std::move(porep));
  for (auto& snap : make_snap_circuits(c.filecoin_parameter_dir, sel)) filecoin.push_back(std::move(snap));
  for (auto& fc : filecoin) {
    for (const auto& other : out)
      if (other->id() == fc->id())
        throw std::invalid_argument("circuits: id \"" + fc->id() + "\" is a Filecoin circuit's; choose another");
    out.push_back(std::move(fc));
  }
  return out;
}

std::vector<std::uint64_t> vram_budgets(const EngineConfig& c, const Devices& b) {
  std::vector<std::uint64_t> v;
  for (int d = 0; d < b.device_count(); ++d) v.push_back(c.vram_budget_bytes ? c.vram_budget_bytes : b.default_vram_budget(d));
  return v;
}

std::vector<const Circuit*> pointers(const std::vector<std::unique_ptr<Circuit>>& cs) {
  std::vector<const Circuit*> out;
  for (const auto& c : cs) out.push_back(c.get());
  return out;
}

std::uint64_t fingerprint(const ProofRequest& r, const std::string& circuit, Priority p) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](std::uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
  for (unsigned char ch : circuit) mix(ch);
  mix(static_cast<std::uint64_t>(r.kind) << 8 | static_cast<std::uint64_t>(p));
  mix(r.native_seed ? *r.native_seed : ~0ull);
  auto bytes = [&](const auto& b) {  // std::string or std::vector<std::uint8_t>
    mix(std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(b.data()), b.size())));
  };
  bytes(r.wtns);
  if (r.post) {
    mix(r.post->registered_proof);
    mix(r.post->partition_index);
    bytes(r.post->randomness);
    bytes(r.post->prover_id);
    for (std::uint64_t id : r.post->sector_ids) mix(id);
    for (const auto& v : r.post->vanilla_proofs) bytes(v);
  }
  if (r.porep) {
    bytes(r.porep->c1);
    mix(r.porep->registered_proof ? *r.porep->registered_proof : ~0ull);
    bytes(r.porep->prover_id);
    mix(r.porep->sector_number ? *r.porep->sector_number : ~0ull);
    mix(r.porep->partition ? *r.porep->partition : ~0ull);
  }
  if (r.snap) {
    mix(r.snap->registered_proof);
    bytes(r.snap->comm_r_old);
    bytes(r.snap->comm_r_new);
    bytes(r.snap->comm_d_new);
    for (const auto& v : r.snap->partition_proofs) bytes(v);
  }
  return h;
}

std::string timings_text(const std::vector<PhaseTiming>& ts) {
  std::string s;
  for (const auto& t : ts) s += fmt::format(" {}={:.1f}ms", t.phase, t.ms);
  return s;
}

// Pinned bytes kept free of key pins: every worker's staging buffers at once (twice where
// batches run: a batch stages its scalar chunks too, Pipeline::run_on_device).
std::uint64_t staging_headroom(const EngineConfig& config, const Devices& devices,
                               const std::vector<std::unique_ptr<Circuit>>& circuits) {
  std::uint64_t per_proof = 0;
  for (const auto& c : circuits) per_proof = std::max(per_proof, devices.pinned_bytes(c->shape()));
  const std::uint64_t per_worker = per_proof * (config.max_batch_size > 1 ? 2 : 1);
  return per_worker * static_cast<std::uint64_t>(devices.device_count()) *
         static_cast<std::uint64_t>(config.workers_per_device);
}

}  // namespace

std::string filecoin_circuit_id(const ProofRequest& r) {
  try {
    return filecoin_id_of(r);
  } catch (const EngineError& e) {
    throw std::invalid_argument(e.what());
  }
}

struct Engine::Impl {
  EngineConfig config;
  std::unique_ptr<Devices> devices;
  std::map<std::string, std::string> filecoin_left_out;  // id -> why not served, its files there
  std::vector<std::unique_ptr<Circuit>> circuits;
  std::map<std::string, const Circuit*> by_id;
  Budget budget;
  KeyManager keys;
  JobTable table;
  RequestHolds holds{budget};
  std::map<std::string, std::uint64_t> payload_limits;  // max_payload_bytes by circuit id
  std::uint64_t max_payload = 0;
  JobQueue queue;
  Metrics metrics;
  Clock::time_point started = Clock::now();
  std::atomic<std::uint64_t> next_seq{0};  // FIFO order of queued jobs
  std::atomic<std::uint64_t> next_id{0};   // ids for requests that bring none
  // A random prefix per engine, so ids the engine assigns never repeat across restarts
  // (a client awaiting an id from before a restart gets kNotFound, not another job's result).
  const std::string id_prefix = random_id_prefix();
  std::atomic<bool> stopping{false};
  Retirer retirer;                     // ends jobs with a page-locked witness (retirer.hpp)
  std::unique_ptr<Pipeline> pipeline;  // last: its threads stop first

  explicit Impl(EngineConfig c)
      : config((validate_config(c), std::move(c))),
        devices(make_devices(config)),
        circuits(make_circuits(config, filecoin_left_out)),
        budget(config.host_budget_bytes, config.pinned_budget_bytes, vram_budgets(config, *devices)),
        keys(budget, *devices, pointers(circuits), staging_headroom(config, *devices, circuits)),
        table(config.max_retained_results) {
    for (const auto& ci : circuits) by_id[ci->id()] = ci.get();
    set_request_limits();
    budget.set_reclaimer([this](PoolId p, std::uint64_t deficit) { return keys.reclaim(p, deficit); });
    pipeline = std::make_unique<Pipeline>(Pipeline::Parts{
        config, queue, table, keys, budget, *devices,
        [this](Job& j, JobState s, ErrorCode code, const std::string& e, ProvedOutput* out) { finish(j, s, code, e, out); }});
    std::vector<std::string> preload = config.preload;
    if (config.filecoin_preload_winning_post)
      for (const auto& ci : circuits)
        if (is_winning_post_circuit_id(ci->id()) &&
            std::find(preload.begin(), preload.end(), ci->id()) == preload.end())
          preload.push_back(ci->id());
    for (const auto& id : preload) {
      std::string err;
      const auto it = by_id.find(id);
      if (it == by_id.end()) spdlog::warn("preload {}: not served (no key files for it)", id);
      else if (keys.preload(*it->second, &err) != ErrorCode::kOk) spdlog::warn("preload {}: {}", id, err);
    }
    spdlog::info("cuzk engine: backend {} with {} device(s) x {} worker(s), {} circuit(s)", devices->name(),
                 devices->device_count(), config.workers_per_device, circuits.size());
  }

  // Each circuit's largest request, and the room queued requests may take in the host budget:
  // what is left beside the largest job's key and witness.
  void set_request_limits() {
    std::uint64_t largest_job = 0;
    for (const auto& ci : circuits) {
      bool from_zkey = false;
      for (const auto& spec : config.circuits) from_zkey = from_zkey || (spec.id == ci->id() && !spec.zkey_path.empty());
      const std::uint64_t limit = max_payload_bytes(*ci, from_zkey);
      payload_limits[ci->id()] = limit;
      max_payload = std::max(max_payload, limit);
      largest_job = std::max(largest_job, devices->loaded_key_host_bytes(ci->shape()) + witness_bytes(ci->shape()));
    }
    const std::uint64_t host = budget.capacity(PoolId::host());
    holds.set_limit(host > largest_job ? host - largest_job : 0);
  }

  ~Impl() {
    stopping = true;
    for (auto& j : table.unfinished()) cancel_flag(*j);
    std::vector<JobPtr> left = pipeline->stop();
    retirer.drain();  // the jobs the workers handed over are final before the sweep below
    for (auto& j : table.unfinished()) left.push_back(j);
    for (auto& j : left) finish(*j, JobState::kCancelled, ErrorCode::kCancelled, "engine shut down", nullptr);
  }

  // Sets the job's cancel flag; a batch proving it stops once all its jobs are cancelled.
  void cancel_flag(Job& j) {
    j.cancel = true;
    pipeline->cancelled(j);
  }

  // A job with a page-locked witness ends on the retirer's thread (the release waits for the
  // device's other work); while stopping, or without a lock, it ends here.
  void finish(Job& j, JobState s, ErrorCode code, const std::string& error, ProvedOutput* out) {
    if (!j.witness_pin || stopping.load()) return finish_now(j, s, code, error, out);
    std::optional<ProvedOutput> o;
    if (out != nullptr) o = std::move(*out);
    retirer.post([this, &j, s, code, error, o = std::move(o)]() mutable {
      finish_now(j, s, code, error, o ? &*o : nullptr);  // the table keeps j until it is final
    });
  }

  // Drops the job's working state (so its memory is free before anyone sees the result),
  // then makes it final, counts it and logs one line.
  void finish_now(Job& j, JobState s, ErrorCode code, const std::string& error, ProvedOutput* out) {
    j.witness_pin.reset();  // unpinned before the witness is freed
    j.witness_pin_res.release();
    j.witness.reset();
    j.witness_res.release();
    j.request_hold.release();
    j.lease.release();
    j.part.reset();  // a partition's share of the decoded request
    const bool request = j.role != JobRole::kPartition, phases = j.role != JobRole::kGroup;
    if (!table.finish(j, s, code, error, out, [&](const ProofResult& r) { metrics.record(r, request, phases); })) return;
    const ProofResult& r = j.result;  // final: no longer written
    auto level = s == JobState::kSucceeded ? spdlog::level::info : spdlog::level::warn;
    spdlog::log(level, "proof {} circuit={} kind={} priority={} state={} code={} device={} worker={} attempts={} batch={}{}{}",
                r.request_id, r.circuit_id, to_string(r.kind), to_string(r.priority), to_string(r.state),
                to_string(r.code), r.device, r.worker, r.attempts, r.batch_size, timings_text(r.timings),
                r.error.empty() ? "" : " error=\"" + r.error + "\"");
    if (j.role == JobRole::kPartition) partition_final(j);
  }

  // A partition job is final: its group job ends at the first failure (the other partitions are
  // cancelled: they stop at their next phase boundary, or when dispatched) or after the last
  // success, with the partitions' proofs joined.
  void partition_final(Job& p) {
    Job& g = *p.parent;
    PartitionGroup& group = *g.group;
    switch (group.record(p)) {
      case PartitionGroup::Verdict::kPending:
        return;
      case PartitionGroup::Verdict::kFailed:
        for (const std::string& id : group.partition_ids())
          if (JobPtr other = table.find(id)) cancel_flag(*other);
        finish_now(g, group.failed_state(), group.failed_code(), group.failed_reason(), nullptr);
        return;
      case PartitionGroup::Verdict::kSucceeded: {
        group.fill_timings(g);
        ProvedOutput out = group.joined();
        finish_now(g, JobState::kSucceeded, ErrorCode::kOk, "", &out);
        return;
      }
    }
  }

  const Circuit& resolve(const ProofRequest& r) const {
    if (const std::string id = filecoin_id_of(r); !id.empty()) return resolve_filecoin(r, id);
    if (r.circuit_id.empty()) throw EngineError(ErrorCode::kInvalidArgument, "request names no circuit");
    auto it = by_id.find(r.circuit_id);
    if (it == by_id.end()) throw EngineError(ErrorCode::kNotFound, "unknown circuit " + quote_id(r.circuit_id));
    const Circuit& c = *it->second;
    if (is_post_circuit_id(c.id()))
      throw EngineError(ErrorCode::kInvalidArgument, "circuit " + c.id() + " proves Filecoin PoSt: use kind " +
                                                         (is_winning_post_circuit_id(c.id()) ? "winning_post" : "window_post"));
    if (is_porep_circuit_id(c.id()))
      throw EngineError(ErrorCode::kInvalidArgument, "circuit " + c.id() + " proves Filecoin PoRep: use kind porep");
    if (is_snap_circuit_id(c.id()))
      throw EngineError(ErrorCode::kInvalidArgument, "circuit " + c.id() + " proves Filecoin SnapDeals: use kind snap_deals");
    return c;
  }

  // A Filecoin request's circuit (`id`) follows from its registered proof; it is served when its
  // key files are in the parameter directory.
  const Circuit& resolve_filecoin(const ProofRequest& r, const std::string& id) const {
    if (!r.circuit_id.empty() && r.circuit_id != id)
      throw EngineError(ErrorCode::kInvalidArgument, "circuit_id " + quote_id(r.circuit_id) + " is not the request's circuit " + id);
    auto it = by_id.find(id);
    if (it != by_id.end()) return *it->second;
    if (const auto why = filecoin_left_out.find(id); why != filecoin_left_out.end())
      throw EngineError(ErrorCode::kFailedPrecondition, id + " is not served: " + why->second);
    throw EngineError(ErrorCode::kFailedPrecondition,
                      id + " is not served: " +
                          (config.filecoin_parameter_dir.empty()
                               ? std::string("no Filecoin parameter directory is configured ([filecoin] parameter_dir)")
                               : "its .params and .vk are not in " + config.filecoin_parameter_dir +
                                     " (fetch Filecoin's parameters there, or write TEST keys with `cuzk " +
                                     (r.kind == ProofKind::kPorep       ? "porep"
                                      : r.kind == ProofKind::kSnapDeals ? "snap"
                                                                        : "post") +
                                     " setup`)"));
  }

  // A job that can never fit the budgets is refused instead of waiting forever.
  void check_fits(const Circuit& c) const {
    const KeyShape& s = c.shape();
    const std::uint64_t key = devices->loaded_key_host_bytes(s);
    const std::uint64_t host = key + witness_bytes(s);
    if (host > budget.capacity(PoolId::host()))
      throw BudgetExhausted("circuit " + c.id() + " needs " + std::to_string(host) + " bytes of host memory (key " +
                            std::to_string(key) + " + witness " + std::to_string(witness_bytes(s)) +
                            ") but host_budget_bytes is " + std::to_string(budget.capacity(PoolId::host())));
    const std::uint64_t dev = devices->key_bytes(s) + devices->scratch_bytes(s);
    bool fits = false;
    for (int d = 0; d < devices->device_count(); ++d) fits = fits || dev <= budget.capacity(PoolId::vram(d));
    if (!fits)
      throw BudgetExhausted("circuit " + c.id() + " needs " + std::to_string(dev) + " bytes of device memory (key " +
                            std::to_string(devices->key_bytes(s)) + " + scratch " + std::to_string(devices->scratch_bytes(s)) +
                            ") but no device's VRAM budget is that large");
    if (devices->pinned_bytes(s) > budget.capacity(PoolId::pinned()))
      throw BudgetExhausted("circuit " + c.id() + " needs more pinned memory than pinned_budget_bytes");
  }

  // `hold`: the request's received bytes (submit_received), kept with the job until synthesis.
  SubmitOutcome submit(ProofRequest req, RequestHolds::Hold hold = {}) {
    SubmitOutcome out;
    if (req.request_id.empty()) req.request_id = id_prefix + std::to_string(++next_id);
    try {
      if (std::string why = id_problem("request_id", req.request_id); !why.empty()) {
        req.request_id.clear();  // never kept, nor echoed whole
        throw EngineError(ErrorCode::kInvalidArgument, why);
      }
      out.request_id = req.request_id;
      if (!req.circuit_id.empty())
        if (std::string why = id_problem("circuit_id", req.circuit_id); !why.empty())
          throw EngineError(ErrorCode::kInvalidArgument, why);
      if (stopping) throw EngineError(ErrorCode::kUnavailable, "engine shutting down");
      const Circuit& c = resolve(req);
      const Priority prio = req.priority.value_or(default_priority(req.kind));
      const std::uint64_t fp = fingerprint(req, c.id(), prio);
      if (JobPtr known = table.find(req.request_id)) return duplicate(out, *known, fp);
      c.check_request(req);
      check_fits(c);
      std::vector<std::shared_ptr<const PartitionInput>> parts = c.split(req);
      if (req.porep) std::string().swap(req.porep->c1);  // decoded into the partitions
      if (req.snap) std::vector<std::string>().swap(req.snap->partition_proofs);  // likewise
      if (!parts.empty()) hold.release();  // the bytes are decoded into the partitions
      auto job = std::make_shared<Job>();
      job->circuit = &c;
      job->priority = prio;
      job->fingerprint = fp;
      job->seq = ++next_seq;
      job->submitted = Clock::now();
      job->result.request_id = req.request_id;
      job->result.circuit_id = c.id();
      job->result.kind = req.kind;
      job->result.priority = prio;
      job->result.curve = std::string(r1cs::curve_name(c.shape().curve));
      job->request = std::move(req);
      job->request_hold = std::move(hold);
      bool inserted = false;
      if (!parts.empty()) {
        job->role = JobRole::kGroup;
        job->group = std::make_shared<PartitionGroup>(job->result.request_id, parts);  // named by partition number
      }
      JobPtr now = table.insert_or_get(job, &inserted);
      if (!inserted) return duplicate(out, *now, fp);
      if (parts.empty()) queue.push(std::move(job));
      else queue_partitions(job, parts);
      keys.warm(c.id());
    } catch (const EngineError& e) {
      out.code = e.code();
      out.error = e.what();
    }
    if (out.code != ErrorCode::kOk) metrics.rejected(out.code);
    return out;
  }

  // A group job's partitions, queued one after the other (ids "<request>/partition-<k>"). An id
  // already in use (a caller's own request) ends the group before anything is queued.
  void queue_partitions(const JobPtr& g, const std::vector<std::shared_ptr<const PartitionInput>>& parts) {
    std::vector<JobPtr> jobs;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      auto p = std::make_shared<Job>();
      p->role = JobRole::kPartition;
      p->parent = g;
      p->part = parts[k];
      p->partition = k;
      p->circuit = g->circuit;
      p->priority = g->priority;
      p->seq = ++next_seq;
      p->submitted = g->submitted;
      p->request.request_id = g->group->partition_ids()[k];
      p->request.kind = g->request.kind;
      p->result.request_id = p->request.request_id;
      p->result.circuit_id = g->result.circuit_id;
      p->result.kind = g->result.kind;
      p->result.priority = g->priority;
      p->result.curve = g->result.curve;
      bool inserted = false;
      table.insert_or_get(p, &inserted);
      if (!inserted) {
        for (auto& q : jobs) finish_now(*q, JobState::kCancelled, ErrorCode::kCancelled, "its request could not be queued", nullptr);
        finish_now(*g, JobState::kFailed, ErrorCode::kAlreadyExists,
                   "request id \"" + p->request.request_id + "\" (for partition " + std::to_string(k) + ") is already in use", nullptr);
        return;
      }
      jobs.push_back(std::move(p));
    }
    for (auto& p : jobs) queue.push(std::move(p));
  }

  static SubmitOutcome duplicate(SubmitOutcome out, const Job& known, std::uint64_t fp) {
    out.duplicate = true;
    if (known.fingerprint != fp) {
      out.code = ErrorCode::kAlreadyExists;
      out.error = "request id \"" + out.request_id + "\" was already used for a different request";
    }
    return out;
  }

  ErrorCode cancel(const std::string& id, std::string* error) {
    JobPtr j = table.find(id);
    if (!j) {
      if (error) *error = "unknown request id " + quote_id(id);
      return ErrorCode::kNotFound;
    }
    if (is_final(table.state(*j))) {
      if (error) *error = "request " + id + " is already " + std::string(to_string(table.state(*j)));
      return ErrorCode::kFailedPrecondition;
    }
    cancel_flag(*j);
    if (j->role == JobRole::kGroup) {  // ends with its first cancelled partition
      for (const std::string& pid : j->group->partition_ids()) cancel(pid, nullptr);
      return ErrorCode::kOk;
    }
    if (queue.remove(*j) || pipeline->remove_waiting(*j))
      finish(*j, JobState::kCancelled, ErrorCode::kCancelled, "cancelled before it ran on a device", nullptr);
    return ErrorCode::kOk;
  }

  StatusSnapshot status() const {
    StatusSnapshot s;
    s.backend = std::string(backend_name(config.backend));
    s.uptime_s = std::chrono::duration<double>(Clock::now() - started).count();
    for (int d = 0; d < devices->device_count(); ++d) {
      DeviceStatus ds;
      ds.index = d;
      ds.name = devices->device_name(d);
      ds.vram_budget = budget.capacity(PoolId::vram(d));
      ds.vram_reserved = budget.reserved(PoolId::vram(d));
      ds.workers = config.workers_per_device;
      ds.busy_workers = pipeline->busy_workers(d);
      ds.proofs = pipeline->proofs(d);
      ds.device_faults = pipeline->device_faults(d);
      ds.failed_verifications = pipeline->failed_verifications(d);
      s.devices.push_back(ds);
    }
    s.keys = keys.status();
    const auto depths = queue.depths();
    for (int p = kNumPriorities - 1; p >= 0; --p) s.queues.push_back({static_cast<Priority>(p), depths[p]});
    for (PoolId p : {PoolId::host(), PoolId::pinned()})
      s.budgets.push_back({Budget::pool_name(p), budget.capacity(p), budget.reserved(p)});
    const auto n = table.counts();
    s.synthesizing = n.synthesizing;
    s.waiting_device = n.waiting_device;
    s.proving = n.proving;
    s.succeeded = n.succeeded;
    s.failed = n.failed;
    s.cancelled = n.cancelled;
    return s;
  }
};

Engine::Engine(EngineConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}
Engine::~Engine() = default;

SubmitOutcome Engine::submit(ProofRequest request) { return impl_->submit(std::move(request)); }

SubmitOutcome Engine::submit_received(std::uint64_t received_bytes, const std::function<ProofRequest()>& make) {
  // The received message and the request made from it, until make() returns; then the request.
  std::string why;
  std::optional<RequestHolds::Hold> hold = impl_->holds.try_hold(2 * received_bytes, &why);
  if (!hold) {
    impl_->metrics.rejected(ErrorCode::kResourceExhausted);
    return SubmitOutcome{.request_id = {}, .code = ErrorCode::kResourceExhausted, .error = why};
  }
  ProofRequest r = make();
  hold->shrink_to(request_payload_bytes(r));
  return impl_->submit(std::move(r), std::move(*hold));
}

std::uint64_t Engine::max_request_bytes() const { return impl_->max_payload; }

std::optional<std::uint64_t> Engine::max_request_bytes(const std::string& circuit_id) const {
  const auto it = impl_->payload_limits.find(circuit_id);
  if (it == impl_->payload_limits.end()) return std::nullopt;
  return it->second;
}

std::optional<ProofResult> Engine::await(const std::string& id, std::chrono::milliseconds timeout) {
  return impl_->table.await(id, timeout);
}

ProofResult Engine::prove(ProofRequest request, std::chrono::milliseconds timeout) {
  const SubmitOutcome s = submit(std::move(request));
  if (s.code != ErrorCode::kOk) {
    ProofResult r;
    r.request_id = s.request_id;
    r.state = JobState::kFailed;
    r.code = s.code;
    r.error = s.error;
    return r;
  }
  if (auto r = await(s.request_id, timeout)) return *r;
  ProofResult r = peek(s.request_id);
  r.code = ErrorCode::kDeadlineExceeded;
  r.error = "not finished after " + std::to_string(timeout.count()) + " ms (the job keeps running)";
  return r;
}

std::uint64_t Engine::watch(const std::string& id, std::function<void(const ProofResult&)> on_final) {
  return impl_->table.watch(id, std::move(on_final));
}
bool Engine::unwatch(const std::string& id, std::uint64_t handle) { return impl_->table.unwatch(id, handle); }

ProofResult Engine::peek(const std::string& id) const { return impl_->table.peek(id); }
ErrorCode Engine::cancel(const std::string& id, std::string* error) { return impl_->cancel(id, error); }

ErrorCode Engine::preload(const std::string& circuit_id, std::string* error) {
  auto it = impl_->by_id.find(circuit_id);
  if (it == impl_->by_id.end()) {
    if (error) *error = "unknown circuit " + quote_id(circuit_id);
    return ErrorCode::kNotFound;
  }
  return impl_->keys.preload(*it->second, error);
}

ErrorCode Engine::evict(const std::string& circuit_id, std::string* error) { return impl_->keys.evict(circuit_id, error); }

StatusSnapshot Engine::status() const { return impl_->status(); }
std::string Engine::metrics_text() const { return impl_->metrics.render(impl_->status()); }

std::vector<std::string> Engine::circuit_ids() const {
  std::vector<std::string> ids;
  for (const auto& c : impl_->circuits) ids.push_back(c->id());
  return ids;
}

std::optional<std::string> Engine::key_file(const std::string& circuit_id) const {
  auto it = impl_->by_id.find(circuit_id);
  if (it == impl_->by_id.end()) return std::nullopt;
  return it->second->source();
}

const EngineConfig& Engine::config() const { return impl_->config; }

}  // namespace cuzk::engine
