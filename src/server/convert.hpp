// Engine types <-> protobuf messages (proto/cuzk/v1/proving.proto), and engine error codes ->
// gRPC status codes. Plain functions, no state.
#pragma once

#include <optional>
#include <string>

#include <grpcpp/support/status.h>

#include "cuzk/engine/types.hpp"
#include "cuzk/v1/proving.pb.h"

namespace cuzk::server {

namespace pb = ::cuzk::v1;

grpc::StatusCode to_grpc_code(engine::ErrorCode c);
grpc::Status to_grpc_status(engine::ErrorCode c, const std::string& message);

pb::ProofKind to_pb(engine::ProofKind k);
pb::Priority to_pb(engine::Priority p);
pb::JobState to_pb(engine::JobState s);
pb::ErrorCode to_pb(engine::ErrorCode c);
std::optional<engine::ProofKind> from_pb(pb::ProofKind k);
// PRIORITY_UNSPECIFIED -> nullopt (the kind's default); `ok` false for out-of-range values.
std::optional<engine::Priority> from_pb(pb::Priority p, bool* ok);

// Throws std::invalid_argument naming the bad field (unknown kind or priority value). The bulk
// bytes (.wtns, C1, vanilla and partition proofs) are moved out of `r`, not copied: each field's
// buffer becomes the engine request's and the field is left empty, so no byte is ever held twice.
engine::ProofRequest from_pb(pb::ProofRequest&& r);
// Those bulk bytes' total.
std::uint64_t payload_bytes(const pb::ProofRequest& r);
void to_pb(const engine::ProofResult& r, pb::ProofResult* out);
void to_pb(const engine::KeyStatus& k, pb::KeyStatus* out);
void to_pb(const engine::StatusSnapshot& s, pb::GetStatusResponse* out);

}  // namespace cuzk::server
