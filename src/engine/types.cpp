// String forms and defaults of the engine's vocabulary (include/cuzk/engine/types.hpp).
#include "cuzk/engine/types.hpp"

#include <array>

namespace cuzk::engine {

namespace {
constexpr std::array<std::string_view, 5> kKinds{"groth16", "winning_post", "window_post", "porep", "snap_deals"};
constexpr std::array<std::string_view, 4> kPriorities{"low", "normal", "high", "critical"};
constexpr std::array<std::string_view, 7> kStates{"queued",    "synthesizing", "waiting_device", "proving",
                                                  "succeeded", "failed",       "cancelled"};
constexpr std::array<std::string_view, 10> kCodes{"ok",        "invalid_argument",   "not_found", "already_exists",
                                                  "failed_precondition", "resource_exhausted", "cancelled",
                                                  "deadline_exceeded",   "unavailable",        "internal"};
}  // namespace

Priority default_priority(ProofKind k) {
  switch (k) {
    case ProofKind::kWinningPost: return Priority::kCritical;
    case ProofKind::kWindowPost: return Priority::kHigh;
    default: return Priority::kNormal;
  }
}

std::string_view to_string(ProofKind k) { return kKinds.at(static_cast<std::size_t>(k)); }
std::string_view to_string(Priority p) { return kPriorities.at(static_cast<std::size_t>(p)); }
std::string_view to_string(JobState s) { return kStates.at(static_cast<std::size_t>(s)); }
std::string_view to_string(ErrorCode c) { return kCodes.at(static_cast<std::size_t>(c)); }

std::optional<ProofKind> parse_proof_kind(std::string_view s) {
  for (std::size_t i = 0; i < kKinds.size(); ++i)
    if (kKinds[i] == s) return static_cast<ProofKind>(i);
  return std::nullopt;
}

std::optional<Priority> parse_priority(std::string_view s) {
  for (std::size_t i = 0; i < kPriorities.size(); ++i)
    if (kPriorities[i] == s) return static_cast<Priority>(i);
  return std::nullopt;
}

}  // namespace cuzk::engine
