// The pipeline's retry rules (src/engine/retry_policy.hpp), the whole table: the engine tests
// (faults_test, batch_test) show them end to end on the simulated devices.
#include <gtest/gtest.h>

#include "retry_policy.hpp"

namespace cuzk::engine::test {
namespace {

constexpr AttemptEnd kFault = AttemptEnd::kDeviceFault;
constexpr AttemptEnd kWrong = AttemptEnd::kNotVerified;

TEST(RetryPolicy, ACancelledJobEndsWhateverHappened) {
  for (AttemptEnd end : {kFault, kWrong})
    for (int attempt : {1, 2, 3})
      for (bool reloaded : {false, true})
        EXPECT_EQ(next_step(end, {attempt, true, reloaded}), NextStep::kEndCancelled) << attempt << reloaded;
}

TEST(RetryPolicy, AFirstAttemptIsRetried) {
  EXPECT_EQ(next_step(kFault, {1, false, false}), NextStep::kRetry);
  EXPECT_EQ(next_step(kWrong, {1, false, false}), NextStep::kRetry);
  EXPECT_EQ(next_step(kWrong, {1, false, true}), NextStep::kRetry);  // a fresh key gets its attempt
}

TEST(RetryPolicy, ASecondDeviceFaultFails) {
  EXPECT_EQ(next_step(kFault, {2, false, false}), NextStep::kFail);
  EXPECT_EQ(next_step(kFault, {3, false, true}), NextStep::kFail);
}

TEST(RetryPolicy, ASecondWrongProofReloadsTheKeyOnceThenFails) {
  EXPECT_EQ(next_step(kWrong, {2, false, false}), NextStep::kReloadKeyAndRetry);
  EXPECT_EQ(next_step(kWrong, {3, false, true}), NextStep::kFail);
  EXPECT_EQ(next_step(kWrong, {2, false, true}), NextStep::kFail);
}

}  // namespace
}  // namespace cuzk::engine::test
