// GetStatusResponse as JSON (HTTP /status, cuzk-bench status --json): enums by name,
// numbers as numbers.
#pragma once

#include <nlohmann/json.hpp>

#include "cuzk/v1/proving.pb.h"

namespace cuzk::server {

nlohmann::json status_to_json(const ::cuzk::v1::GetStatusResponse& s);

}  // namespace cuzk::server
