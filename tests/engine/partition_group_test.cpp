// PartitionGroup (src/engine/partition_group.hpp): what a group job learns as its partition jobs
// end. All succeed: one kSucceeded verdict, at the last one, whatever the order they end in, and
// the proofs joined in partition order (proof_bytes concatenated, proof_json and public_json
// arrays of the partitions' documents). A failure: kFailed once, for the first failing
// partition, whose state, code and reason (naming the partition) become the request's; nothing
// after it succeeds the group. Timings: the partitions' phases summed, key loads summed, the
// group dispatched at its first partition's dispatch.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "circuit.hpp"
#include "partition_group.hpp"

namespace cuzk::engine::test {
namespace {

using Verdict = PartitionGroup::Verdict;

std::vector<std::string> ids(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < n; ++k) out.push_back("req/partition-" + std::to_string(k));
  return out;
}

// Partition k's final job: proof byte values 10k.., proof_json {"k":k}, public_json ["k"].
std::unique_ptr<Job> ended(std::size_t k, JobState s = JobState::kSucceeded, ErrorCode code = ErrorCode::kOk,
                           std::string error = "") {
  auto j = std::make_unique<Job>();
  j->partition = k;
  j->result.state = s;
  j->result.code = code;
  j->result.error = std::move(error);
  if (s == JobState::kSucceeded) {
    for (std::uint8_t b = 0; b < 3; ++b) j->result.proof_bytes.push_back(static_cast<std::uint8_t>(10 * k + b));
    j->result.proof_json = "{\"k\":" + std::to_string(k) + "}";
    j->result.public_json = "[\"" + std::to_string(k) + "\"]";
  }
  return j;
}

TEST(PartitionGroup, IdsAndSize) {
  const PartitionGroup g(ids(3));
  EXPECT_EQ(g.size(), 3u);
  EXPECT_EQ(g.partition_ids(), ids(3));
}

// Split inputs name their jobs by partition number: a request for partition 3 alone is one job,
// "req/partition-3", and its failure names partition 3 without a count it does not have.
TEST(PartitionGroup, InputsNameTheirJobsByPartitionNumber) {
  auto third = std::make_shared<PartitionInput>();
  third->index = 3;
  PartitionGroup g("req", {third});
  EXPECT_EQ(g.partition_ids(), std::vector<std::string>{"req/partition-3"});
  auto first = std::make_shared<PartitionInput>(), second = std::make_shared<PartitionInput>();
  second->index = 1;
  EXPECT_EQ(PartitionGroup("req", {first, second}).partition_ids(), ids(2));
  EXPECT_EQ(g.record(*ended(0, JobState::kFailed, ErrorCode::kInternal, "boom")), Verdict::kFailed);
  EXPECT_EQ(g.failed_reason(), "partition 3 (req/partition-3): boom");
}

TEST(PartitionGroup, AllSucceedJoinsInPartitionOrderWhateverTheOrderTheyEnd) {
  PartitionGroup g(ids(3));
  EXPECT_EQ(g.record(*ended(2)), Verdict::kPending);
  EXPECT_EQ(g.record(*ended(0)), Verdict::kPending);
  EXPECT_EQ(g.record(*ended(1)), Verdict::kSucceeded);  // the last one
  const ProvedOutput out = g.joined();
  EXPECT_EQ(out.proof_bytes, (std::vector<std::uint8_t>{0, 1, 2, 10, 11, 12, 20, 21, 22}));
  EXPECT_EQ(out.proof_json, R"([{"k":0},{"k":1},{"k":2}])");
  EXPECT_EQ(out.public_json, R"([["0"],["1"],["2"]])");
}

TEST(PartitionGroup, OnePartitionSucceedsAtOnce) {
  PartitionGroup g(ids(1));
  EXPECT_EQ(g.record(*ended(0)), Verdict::kSucceeded);
  const ProvedOutput out = g.joined();
  EXPECT_EQ(out.proof_bytes, (std::vector<std::uint8_t>{0, 1, 2}));
  EXPECT_EQ(out.proof_json, R"([{"k":0}])");  // still an array: one document per partition
  EXPECT_EQ(out.public_json, R"([["0"]])");
}

TEST(PartitionGroup, APartitionEndingTwiceCountsOnce) {
  PartitionGroup g(ids(2));
  EXPECT_EQ(g.record(*ended(0)), Verdict::kPending);
  EXPECT_EQ(g.record(*ended(0)), Verdict::kPending);  // not "all done": partition 1 has not ended
  EXPECT_EQ(g.record(*ended(1)), Verdict::kSucceeded);
  EXPECT_EQ(g.joined().proof_bytes, (std::vector<std::uint8_t>{0, 1, 2, 10, 11, 12}));
}

TEST(PartitionGroup, TheFirstFailureFailsTheGroupOnceNamingItsPartition) {
  PartitionGroup g(ids(4));
  EXPECT_EQ(g.record(*ended(0)), Verdict::kPending);
  EXPECT_EQ(g.record(*ended(2, JobState::kFailed, ErrorCode::kInternal, "the proof does not verify")), Verdict::kFailed);
  EXPECT_EQ(g.failed_state(), JobState::kFailed);
  EXPECT_EQ(g.failed_code(), ErrorCode::kInternal);
  EXPECT_EQ(g.failed_reason(), "partition 2 of 4 (req/partition-2): the proof does not verify");
  // The others, cancelled by the engine or not, end without a second verdict, and the group never
  // succeeds after a failure, even when every other partition does.
  EXPECT_EQ(g.record(*ended(1, JobState::kCancelled, ErrorCode::kCancelled, "cancelled")), Verdict::kPending);
  EXPECT_EQ(g.record(*ended(3)), Verdict::kPending);
  EXPECT_EQ(g.record(*ended(2)), Verdict::kPending);  // partition 2 ending again changes nothing
  EXPECT_EQ(g.failed_state(), JobState::kFailed);
  EXPECT_EQ(g.failed_code(), ErrorCode::kInternal);
  EXPECT_EQ(g.failed_reason(), "partition 2 of 4 (req/partition-2): the proof does not verify");
}

TEST(PartitionGroup, ACancelledPartitionEndsTheGroupCancelled) {
  PartitionGroup g(ids(2));
  EXPECT_EQ(g.record(*ended(1, JobState::kCancelled, ErrorCode::kCancelled, "cancelled before it ran on a device")),
            Verdict::kFailed);
  EXPECT_EQ(g.failed_state(), JobState::kCancelled);
  EXPECT_EQ(g.failed_code(), ErrorCode::kCancelled);
  EXPECT_EQ(g.failed_reason(), "partition 1 of 2 (req/partition-1): cancelled before it ran on a device");
  EXPECT_EQ(g.record(*ended(0)), Verdict::kPending);
}

TEST(PartitionGroup, TimingsArePhasesSummedKeyLoadsSummedDispatchedAtTheFirstDispatch) {
  PartitionGroup g(ids(2));
  const Clock::time_point t0 = Clock::now();
  auto p0 = ended(0), p1 = ended(1);
  p0->result.timings = {{"queue_wait", 5}, {"key_load", 7}, {"synthesis", 10}, {"msm_a", 20}, {"total", 40}};
  p1->result.timings = {{"queue_wait", 6}, {"synthesis", 11}, {"msm_a", 21}, {"verify", 3}, {"total", 41}};
  p0->key_load_ms = 12.5;
  p1->key_load_ms = 0.5;
  p0->dispatched = t0 + std::chrono::seconds(2);
  p1->dispatched = t0 + std::chrono::seconds(1);  // dispatched first, though partition 1
  EXPECT_EQ(g.record(*p0), Verdict::kPending);
  EXPECT_EQ(g.record(*p1), Verdict::kSucceeded);
  Job group;
  g.fill_timings(group);
  EXPECT_DOUBLE_EQ(group.timings.get("synthesis"), 21);
  EXPECT_DOUBLE_EQ(group.timings.get("msm_a"), 41);
  EXPECT_DOUBLE_EQ(group.timings.get("verify"), 3);
  // The group's own queue wait, key load and total are the engine's to time, not sums.
  EXPECT_DOUBLE_EQ(group.timings.get("queue_wait"), 0);
  EXPECT_DOUBLE_EQ(group.timings.get("key_load"), 0);
  EXPECT_DOUBLE_EQ(group.timings.get("total"), 0);
  EXPECT_DOUBLE_EQ(group.key_load_ms, 13);
  EXPECT_EQ(group.dispatched, t0 + std::chrono::seconds(1));
}

}  // namespace
}  // namespace cuzk::engine::test
