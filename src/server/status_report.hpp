// The daemon's status as the GetStatus message: the engine's snapshot, the registered
// circuits and the daemon's own memory (HTTP /status serves it as JSON, status_json.hpp).
#pragma once

#include "cuzk/engine/engine.hpp"
#include "cuzk/v1/proving.pb.h"

namespace cuzk::server {

void build_status(const engine::Engine& engine, ::cuzk::v1::GetStatusResponse* out);

}  // namespace cuzk::server
