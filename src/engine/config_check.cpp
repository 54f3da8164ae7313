#include "config_check.hpp"

#include "post_circuit.hpp"

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace cuzk::engine {

void validate_config(const EngineConfig& c) {
  auto bad = [](const std::string& field, const std::string& why) { throw std::invalid_argument(field + ": " + why); };
  auto in = [&](const char* field, auto v, IntRange r) {  // compared as values, whatever their signedness
    if (std::cmp_less(v, r.min)) bad(field, "must be at least " + std::to_string(r.min));
    if (std::cmp_greater(v, r.max)) bad(field, "must be at most " + std::to_string(r.max));
  };
  if (c.backend == Backend::cpu && c.devices < 1) bad("devices", "the cpu backend needs at least 1 simulated device");
  in("devices", c.devices, limits::kDevices);
  in("workers_per_device", c.workers_per_device, limits::kWorkersPerDevice);
  in("max_batch_size", c.max_batch_size, limits::kMaxBatchSize);
  in("max_batch_wait_ms", c.max_batch_wait_ms, limits::kMaxBatchWaitMs);
  in("synthesis_concurrency", c.synthesis_concurrency, limits::kSynthesisConcurrency);
  in("pipeline_depth", c.pipeline_depth, limits::kPipelineDepth);
  if (c.host_budget_bytes == 0) bad("host_budget_bytes", "must be positive");
  in("max_retained_results", c.max_retained_results, limits::kMaxRetainedResults);
  if (c.cache_dir.empty()) bad("cache_dir", "empty");
  std::set<std::string> ids;
  for (std::size_t i = 0; i < c.circuits.size(); ++i)
    if (!ids.insert(c.circuits[i].id).second)
      bad("circuits[" + std::to_string(i) + "].id", "\"" + c.circuits[i].id + "\" is registered twice");
  for (const auto& id : c.preload)
    if (!ids.contains(id) && !is_post_circuit_id(id) && !is_porep_circuit_id(id) && !is_snap_circuit_id(id))
      bad("preload", "unknown circuit \"" + id + "\"");
  for (std::size_t i = 0; i < c.filecoin_circuits.size(); ++i) {
    const std::string& id = c.filecoin_circuits[i];
    if (!is_post_circuit_id(id) && !is_porep_circuit_id(id) && !is_snap_circuit_id(id))
      bad("filecoin_circuits[" + std::to_string(i) + "]",
          "\"" + id + "\" is not a Filecoin circuit (winning-post-<size>, window-post-<size>, porep-<size>, "
          "snap-<size>; sizes 2kib, 8mib, 512mib, 32gib, 64gib)");
  }
}

}  // namespace cuzk::engine
