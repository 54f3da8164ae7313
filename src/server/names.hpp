// Short lower-case names of the API's enums ("winning_post", "critical", "succeeded"), derived
// from the generated descriptors (PROOF_KIND_WINNING_POST -> winning_post), and back.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <grpcpp/support/status_code_enum.h>

#include "cuzk/v1/proving.pb.h"

namespace cuzk::server {

std::string kind_name(::cuzk::v1::ProofKind k);
std::string priority_name(::cuzk::v1::Priority p);  // PRIORITY_UNSPECIFIED -> "default"
std::string state_name(::cuzk::v1::JobState s);
std::string error_code_name(::cuzk::v1::ErrorCode c);
std::optional<::cuzk::v1::ProofKind> parse_kind(const std::string& name);
std::optional<::cuzk::v1::Priority> parse_priority(const std::string& name);  // "" or "default" -> UNSPECIFIED
std::string_view status_code_name(grpc::StatusCode c);  // "OK", "NOT_FOUND", ...

}  // namespace cuzk::server
