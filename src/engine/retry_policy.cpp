#include "retry_policy.hpp"

namespace cuzk::engine {

NextStep next_step(AttemptEnd end, const AttemptState& s) {
  if (s.cancelled) return NextStep::kEndCancelled;
  if (s.attempt < 2) return NextStep::kRetry;
  if (end == AttemptEnd::kNotVerified && !s.key_reloaded) return NextStep::kReloadKeyAndRetry;
  return NextStep::kFail;
}

}  // namespace cuzk::engine
