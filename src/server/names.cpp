#include "names.hpp"

#include <cctype>

namespace cuzk::server {

namespace {

std::string strip_lower(const std::string& full, std::string_view prefix) {
  std::string s = full.starts_with(prefix) ? full.substr(prefix.size()) : full;
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s.empty() ? "unknown" : s;
}

std::string upper(std::string_view prefix, const std::string& name) {
  std::string s(prefix);
  for (char c : name) s += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string kind_name(v1::ProofKind k) { return strip_lower(v1::ProofKind_Name(k), "PROOF_KIND_"); }
std::string priority_name(v1::Priority p) {
  return p == v1::PRIORITY_UNSPECIFIED ? "default" : strip_lower(v1::Priority_Name(p), "PRIORITY_");
}
std::string state_name(v1::JobState s) { return strip_lower(v1::JobState_Name(s), "JOB_STATE_"); }
std::string error_code_name(v1::ErrorCode c) { return strip_lower(v1::ErrorCode_Name(c), "ERROR_CODE_"); }

std::optional<v1::ProofKind> parse_kind(const std::string& name) {
  v1::ProofKind k;
  if (!v1::ProofKind_Parse(upper("PROOF_KIND_", name), &k)) return std::nullopt;
  return k;
}

std::optional<v1::Priority> parse_priority(const std::string& name) {
  if (name.empty() || name == "default") return v1::PRIORITY_UNSPECIFIED;
  v1::Priority p;
  if (name == "unspecified" || !v1::Priority_Parse(upper("PRIORITY_", name), &p)) return std::nullopt;
  return p;
}

std::string_view status_code_name(grpc::StatusCode c) {
  switch (c) {
    case grpc::StatusCode::OK: return "OK";
    case grpc::StatusCode::CANCELLED: return "CANCELLED";
    case grpc::StatusCode::UNKNOWN: return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND: return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS: return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED: return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED: return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE: return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL: return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS: return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED: return "UNAUTHENTICATED";
    default: return "UNKNOWN";
  }
}

}  // namespace cuzk::server
