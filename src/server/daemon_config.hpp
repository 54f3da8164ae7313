// The daemon's configuration: where it listens and the engine it runs. Read from TOML through
// the schema (config_schema.hpp, which documents every key; config/cuzk-daemon.example.toml is
// generated from it); an embedded default serves when no file is given. Unknown keys and bad
// values are errors that name the key.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cuzk/engine/config.hpp"

namespace cuzk::server {

struct ServerConfig {
  std::string unix_socket = "/tmp/cuzk-daemon.sock";  // path of a unix socket (made 0660); "" = none
  std::string tcp_listen;           // "host:port" (port 0: any free port); "" = none (the default)
  std::string auth_token;           // required as "authorization: Bearer <token>" on TCP; "" = no auth
  bool auth_unix = false;           // also require the token on the unix socket
  bool allow_unauthenticated_tcp = false;  // TCP beyond loopback without a token (else refused at start)
  std::string tls_cert_file, tls_key_file;  // PEM: TLS on TCP when both are set
  std::string http_listen = "127.0.0.1:9821";  // "host:port" for /metrics and /status; "" = none
  int rpc_threads = 64;             // most gRPC handler threads (AwaitProof holds one while it waits)
  std::uint32_t max_await_ms = 600000;  // longest wait AwaitProof/Prove grant (longer requests are cut)
};

struct DaemonConfig {
  ServerConfig server;
  engine::EngineConfig engine;
  // [filecoin] parameter_dir was in the file (else the daemon's main takes
  // $FIL_PROOFS_PARAMETER_CACHE, or /var/tmp/filecoin-proof-parameters/, as filecoin-proofs does).
  bool filecoin_parameter_dir_given = false;
};


class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `source` names the text in errors; relative zkey paths resolve against `base_dir`.
DaemonConfig parse_daemon_config(std::string_view toml_text, std::string_view source,
                                 const std::filesystem::path& base_dir = {});
DaemonConfig load_daemon_config(const std::filesystem::path& path);

// The embedded default (CPU backend, small built-in circuits, local listeners), and it as the
// commented TOML that --print-default-config prints (config/cuzk-daemon.example.toml).
DaemonConfig default_daemon_config();
std::string default_config_toml();

// "host:port" -> {host, port}; throws ConfigError naming `key` when malformed.
struct HostPort {
  std::string host;
  int port = 0;
};
HostPort parse_host_port(std::string_view text, std::string_view key);

}  // namespace cuzk::server
