#include "config_check.hpp"

#include "post_circuit.hpp"

#include <set>
#include <stdexcept>
#include <string>

namespace cuzk::engine {

void validate_config(const EngineConfig& c) {
  auto bad = [](const std::string& field, const std::string& why) { throw std::invalid_argument(field + ": " + why); };
  if (c.backend == Backend::cpu && c.devices < 1) bad("devices", "the cpu backend needs at least 1 simulated device");
  if (c.devices < 0) bad("devices", "must not be negative");
  if (c.workers_per_device < 1) bad("workers_per_device", "must be at least 1");
  if (c.max_batch_size < 1) bad("max_batch_size", "must be at least 1");
  if (c.synthesis_concurrency < 1) bad("synthesis_concurrency", "must be at least 1");
  if (c.pipeline_depth < 1) bad("pipeline_depth", "must be at least 1");
  if (c.host_budget_bytes == 0) bad("host_budget_bytes", "must be positive");
  if (c.max_retained_results < 1) bad("max_retained_results", "must be at least 1");
  if (c.cache_dir.empty()) bad("cache_dir", "empty");
  std::set<std::string> ids;
  for (std::size_t i = 0; i < c.circuits.size(); ++i)
    if (!ids.insert(c.circuits[i].id).second)
      bad("circuits[" + std::to_string(i) + "].id", "\"" + c.circuits[i].id + "\" is registered twice");
  for (const auto& id : c.preload)
    if (!ids.contains(id) && !is_post_circuit_id(id) && !is_porep_circuit_id(id) && !is_snap_circuit_id(id))
      bad("preload", "unknown circuit \"" + id + "\"");
}

}  // namespace cuzk::engine
