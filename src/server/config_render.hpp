// A DaemonConfig shown through the schema (config_schema.hpp): as commented TOML (the embedded
// default config and config/cuzk-daemon.example.toml are this text of default_daemon_config())
// and as JSON (the "effective_config" of GET /status).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "daemon_config.hpp"

namespace cuzk::server {

// Every key of every section with its doc (and its range or allowed values) as comments and its
// value in `c`; parse_daemon_config reads it back to `c`.
std::string config_toml(const DaemonConfig& c);

// {"server": {...}, "engine": {..., "fault_injection": {...}}, "circuit": [...], "filecoin": {...}}
// keyed as in TOML; a secret (auth_token) is "***" when set.
nlohmann::json effective_config_json(const DaemonConfig& c);

}  // namespace cuzk::server
