// The embedded default configuration: what `cuzk-daemon` runs without --config, and what
// `cuzk-daemon --print-default-config` prints. Small built-in circuits with TEST keys, the CPU
// backend, local listeners only.
#include "daemon_config.hpp"

namespace cuzk::server {

std::string_view default_config_toml() {
  return R"toml(# cuzk-daemon embedded default configuration (cuzk-daemon --print-default-config).
# Every key is documented in config/cuzk-daemon.example.toml.

[server]
unix_socket = "/tmp/cuzk-daemon.sock"
tcp_listen = ""
auth_token = ""
http_listen = "127.0.0.1:9821"

[engine]
backend = "cpu"
devices = 1
workers_per_device = 2
max_batch_size = 4
max_batch_wait_ms = 10
synthesis_concurrency = 2
pipeline_depth = 2
host_budget_bytes = "4GiB"
cache_dir = "/tmp/cuzk-cache"
preload = ["mul-chain"]

# Built-in circuits with TEST keys from a seeded setup (never for production).
[[circuit]]
id = "mul-chain"
native = "mul-chain"
curve = "bls12_381"
params = { constraints = 4096 }

[[circuit]]
id = "mul-chain-bn254"
native = "mul-chain"
curve = "bn254"
params = { constraints = 2048 }

[[circuit]]
id = "poseidon-merkle"
native = "poseidon-merkle"
curve = "bls12_381"
params = { depth = 2, challenges = 2 }

# Filecoin: WinningPoSt, WindowPoSt, PoRep C2 and SnapDeals are served by their real circuits, for the
# sector sizes whose key files (.params and .vk under their official names) are in parameter_dir. Unset, it is
# $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters/ (as filecoin-proofs).
[filecoin]
preload_winning_post = true
)toml";
}

}  // namespace cuzk::server
