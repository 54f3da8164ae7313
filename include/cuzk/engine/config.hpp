// Engine configuration: backend and devices, workers, batching, memory budgets, the
// registered circuits and the Filecoin parameter directory (the PoSt kinds are served by their
// real circuits from it). The daemon reads it from TOML (src/server) through its schema
// (src/server/config_schema.cpp: each key's name, range and doc); the defaults here are the
// only ones (the schema, the generated example config and the embedded default take them).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/engine/types.hpp"
#include "cuzk/gpu/tuning.hpp"
#include "cuzk/r1cs/curve_id.hpp"

namespace cuzk::engine {

// Where proofs run: on the CPU (devices are simulated) or on CUDA GPUs.
enum class Backend { cpu, cuda };
inline constexpr std::array kBackends{Backend::cpu, Backend::cuda};
constexpr std::string_view backend_name(Backend b) { return b == Backend::cuda ? "cuda" : "cpu"; }
// "cpu" / "cuda"; nullopt for another spelling.
constexpr std::optional<Backend> parse_backend(std::string_view name) {
  for (Backend b : kBackends)
    if (backend_name(b) == name) return b;
  return std::nullopt;
}

// cuda: where a key's points live on the device (EngineConfig::key_placement); spelled "auto",
// "resident", "stream".
enum class KeyPlacement { automatic, resident, stream };
inline constexpr std::array kKeyPlacements{KeyPlacement::automatic, KeyPlacement::resident, KeyPlacement::stream};
constexpr std::string_view key_placement_name(KeyPlacement p) {
  return p == KeyPlacement::resident ? "resident" : p == KeyPlacement::stream ? "stream" : "auto";
}
constexpr std::optional<KeyPlacement> parse_key_placement(std::string_view name) {
  for (KeyPlacement p : kKeyPlacements)
    if (key_placement_name(p) == name) return p;
  return std::nullopt;
}

struct CircuitSpec {
  std::string id;
  // Exactly one source.
  std::string zkey_path;                       // snarkjs .zkey (curve from its header); requests carry a .wtns
  std::string native;                          // built-in circuit: "mul-chain", "sha256-merkle",
                                               // "poseidon-merkle", "porep-like"; requests carry a seed
  // Native circuits only.
  r1cs::Curve curve = r1cs::Curve::bls12_381;  // porep-like: bls12_381 only
  std::map<std::string, std::uint64_t> params; // e.g. {"constraints": 4096}, {"log2_nodes": 20, "challenges": 2}
  std::uint64_t setup_seed = 1;                // TEST key from a seeded setup: never for production
};

struct FaultInjection {                        // tests only
  int device = -1;                             // the first `failures` proofs on this device throw a device fault
  int failures = 0;
  std::uint32_t witness_unlock_ms = 0;         // cpu: releasing a pinned witness takes this long (as
                                               // cudaHostUnregister waits for the device's other work)
  int wrong_proofs = 0;                        // after those, the next `wrong_proofs` proofs on this
                                               // device come back wrong (a silent fault: verification catches it)
  int corrupt_keys = 0;                        // cpu: the first `corrupt_keys` key loads get two H points swapped in
                                               // memory after parsing (a memory fault: the key file stays sound)
};

// The ranges of EngineConfig's integer settings: validate_config (src/engine/config_check.cpp)
// refuses a value outside them, and the daemon's config schema (src/server/config_schema.cpp)
// shows and checks the same ranges.
struct IntRange {
  std::int64_t min, max;
};
namespace limits {
inline constexpr IntRange kDevices{0, 1024};
inline constexpr IntRange kWorkersPerDevice{1, 1024};
inline constexpr IntRange kMaxBatchSize{1, 1 << 20};
inline constexpr IntRange kMaxBatchWaitMs{0, INT32_MAX};
inline constexpr IntRange kSynthesisConcurrency{1, 1024};
inline constexpr IntRange kPipelineDepth{1, 1 << 20};
inline constexpr IntRange kMaxRetainedResults{1, INT64_MAX};
}  // namespace limits

struct EngineConfig {
  Backend backend = Backend::cpu;
  int devices = 1;                             // cpu: simulated devices; cuda: 0 = every visible GPU
  int workers_per_device = 2;
  std::size_t max_batch_size = 4;              // jobs of one circuit proved together on one worker (src/engine/README.md)
  std::uint32_t max_batch_wait_ms = 10;        // flush a partial batch after this long (or at once on a higher-priority arrival)
  int synthesis_concurrency = 2;               // witness syntheses at once (also bounded by host_budget_bytes)
  std::size_t pipeline_depth = 2;              // synthesized jobs waiting for a device, per device (backpressure)
  std::uint64_t host_budget_bytes = 8ull << 30;    // keys in host memory + per-job working memory
  std::uint64_t pinned_budget_bytes = 2ull << 30;  // pinned staging buffers, then pinned keys (cuda)
  // Witnesses of at least this many bytes are page-locked once synthesized (cuda: registered
  // with the driver, so the proof uploads them at full link speed instead of through its
  // staging buffers), when pinned_budget_bytes has room for them beside the staging buffers;
  // never evicting a key's pin and never waiting. The cpu backend accounts them the same way.
  std::uint64_t pinned_witness_min_bytes = 64ull << 20;
  std::uint64_t vram_budget_bytes = 0;         // per device; 0 = (cuda) free memory minus 1 GiB, (cpu sim) 4 GiB
  // cuda: where a key's points live on the device. "resident" (in VRAM), "stream" (points and
  // constraint matrices kept in host memory, streamed in chunks to every proof: cards smaller
  // than the key; a 2^27 PoRep-size proof needs about 15.5 GiB), "auto" (resident when key +
  // one proof fit the VRAM budget; else the largest chunks that fit (up to 2^24 points), then the
  // parts that save the most copying per proof resident, the rest streamed:
  // gpu::DeviceProvingKey::choose_layout; sized for one proof: further workers' proofs run
  // beside it only when their scratch fits, else they wait). "stream" and "auto" keep the NTT's
  // twiddle table compact (256 MiB instead of 2 GiB at 2^27) where that buys a larger chunk or
  // another resident part; the key's layout in the status says "compact twiddles". cpu: ignored.
  KeyPlacement key_placement = KeyPlacement::automatic;
  std::string cache_dir = "/tmp/cuzk-cache";   // test keys of native circuits are written here (.zkey)
  std::vector<std::string> preload;            // circuit ids loaded at start (PoSt ids too: "window-post-32gib")
  std::vector<CircuitSpec> circuits;
  // Filecoin: the parameter directory (v28-*.params / .vk under their official names). Every
  // PoSt, PoRep and SnapDeals circuit whose two files are there is served; empty: none.
  std::string filecoin_parameter_dir;
  // The Filecoin circuits to serve, by id ("window-post-32gib", "porep-32gib", "snap-32gib"):
  // only these, when their files are there; empty: every one. Each one served costs seconds at
  // start (its circuit's counts are recorded: ~10 s for a 32 GiB PoRep on 2 cores).
  std::vector<std::string> filecoin_circuits;
  // Load the served WinningPoSt keys at start (as if listed in `preload`): a WinningPoSt has a
  // deadline of seconds, and a cold key load would take part of it.
  bool filecoin_preload_winning_post = true;
  std::size_t max_retained_results = 10000;    // finished results kept for AwaitProof (oldest dropped first)
  // cuda: the GPU layer's tuning (kernel and table choices, memory diagnostics; the defaults are
  // cuzk's normal behaviour): the daemon's [gpu] section.
  gpu::Tuning gpu;
  FaultInjection fault;
};

// The engine's own list of built-in circuit names (a CircuitSpec's `native`), so a config
// reader accepts exactly what the engine accepts.
const std::vector<std::string>& native_circuit_names();
// Whether `id` names a Filecoin PoSt circuit, served or not: "winning-post-2kib" ... "window-post-64gib"
// (the engine serves those whose keys are in filecoin_parameter_dir).
bool is_post_circuit_id(const std::string& id);
// The same for the PoRep circuits: "porep-2kib" ... "porep-64gib", "porep-32gib-ni" ...
bool is_porep_circuit_id(const std::string& id);
// The same for the SnapDeals circuits: "snap-2kib", "snap-8mib", "snap-512mib", "snap-32gib", "snap-64gib".
bool is_snap_circuit_id(const std::string& id);
// "a, b, c": the list for messages.
std::string join_names(const std::vector<std::string>& names);

}  // namespace cuzk::engine
