#include "partition_group.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string_view>

namespace cuzk::engine {

PartitionGroup::PartitionGroup(std::vector<std::string> partition_ids)
    : ids_(std::move(partition_ids)), numbers_(ids_.size()), outcomes_(ids_.size()) {
  for (std::size_t k = 0; k < numbers_.size(); ++k) numbers_[k] = k;
}

PartitionGroup::PartitionGroup(const std::string& request_id,
                               const std::vector<std::shared_ptr<const PartitionInput>>& parts)
    : outcomes_(parts.size()) {
  for (std::size_t k = 0; k < parts.size(); ++k) {
    numbers_.push_back(parts[k]->index);
    ids_.push_back(request_id + "/partition-" + std::to_string(numbers_.back()));
  }
}

PartitionGroup::Verdict PartitionGroup::record(const Job& p) {
  std::lock_guard lk(m_);
  Outcome& o = outcomes_.at(p.partition);
  if (o.done) return Verdict::kPending;
  o.done = true;
  o.result = p.result;
  o.dispatched = p.dispatched;
  o.key_load_ms = p.key_load_ms;
  ++done_;
  if (p.result.state != JobState::kSucceeded) {
    if (failed_) return Verdict::kPending;
    failed_ = p.partition;
    return Verdict::kFailed;
  }
  return !failed_ && done_ == outcomes_.size() ? Verdict::kSucceeded : Verdict::kPending;
}

JobState PartitionGroup::failed_state() const {
  std::lock_guard lk(m_);
  return outcomes_.at(failed_.value()).result.state;
}

ErrorCode PartitionGroup::failed_code() const {
  std::lock_guard lk(m_);
  return outcomes_.at(failed_.value()).result.code;
}

std::string PartitionGroup::failed_reason() const {
  std::lock_guard lk(m_);
  const std::size_t k = failed_.value();
  bool every = true;  // the partitions are 0..N-1: "of N" is the request's count
  for (std::size_t i = 0; i < numbers_.size(); ++i) every = every && numbers_[i] == i;
  return "partition " + std::to_string(numbers_[k]) + (every ? " of " + std::to_string(ids_.size()) : "") + " (" +
         ids_[k] + "): " + outcomes_[k].result.error;
}

ProvedOutput PartitionGroup::joined() const {
  std::lock_guard lk(m_);
  ProvedOutput out;
  std::vector<std::string_view> proofs, publics;
  for (const Outcome& o : outcomes_) {
    out.proof_bytes.insert(out.proof_bytes.end(), o.result.proof_bytes.begin(), o.result.proof_bytes.end());
    proofs.push_back(o.result.proof_json);
    publics.push_back(o.result.public_json);
  }
  out.proof_json = fmt::format("[{}]", fmt::join(proofs, ","));
  out.public_json = fmt::format("[{}]", fmt::join(publics, ","));
  return out;
}

void PartitionGroup::fill_timings(Job& group) const {
  std::lock_guard lk(m_);
  for (const Outcome& o : outcomes_) {
    if (o.dispatched != Clock::time_point{} &&
        (group.dispatched == Clock::time_point{} || o.dispatched < group.dispatched))
      group.dispatched = o.dispatched;
    group.key_load_ms += o.key_load_ms;
    for (const PhaseTiming& t : o.result.timings)
      if (t.phase != "queue_wait" && t.phase != "key_load" && t.phase != "total") group.timings.add(t.phase, t.ms);
  }
}

}  // namespace cuzk::engine
