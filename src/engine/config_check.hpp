// Validation of an EngineConfig's scalar fields (circuits are checked when built).
#pragma once

#include "cuzk/engine/config.hpp"

namespace cuzk::engine {

// Throws std::invalid_argument naming the bad field.
void validate_config(const EngineConfig& c);

}  // namespace cuzk::engine
