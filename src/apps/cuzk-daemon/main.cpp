// cuzk-daemon: the proving daemon. Reads a TOML config (or the embedded default), applies the
// command-line overrides, serves gRPC (unix socket / TCP) and HTTP /metrics + /status until
// SIGINT or SIGTERM, then shuts down gracefully.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <csignal>
#include <fstream>
#include <iostream>
#include <optional>

#include "access.hpp"
#include "daemon.hpp"
#include "cuzk/filecoin/parameter_names.hpp"
#include "daemon_config.hpp"

namespace {

struct Overrides {
  std::optional<std::string> unix_socket, tcp_listen, http_listen, token, token_file, backend, cache_dir;
  std::optional<std::string> env_token;  // $CUZK_TOKEN: used when neither the config nor a flag gives one
  bool allow_unauthenticated_tcp = false;
  std::optional<int> devices, workers;
};

void apply(const Overrides& o, cuzk::server::DaemonConfig& c) {
  if (o.unix_socket) c.server.unix_socket = *o.unix_socket;
  if (o.tcp_listen) c.server.tcp_listen = *o.tcp_listen;
  if (o.http_listen) c.server.http_listen = *o.http_listen;
  if (o.token && o.token_file) throw cuzk::server::ConfigError("--token and --token-file: give one");
  if (o.token) c.server.auth_token = *o.token;
  if (o.token_file) c.server.auth_token = cuzk::server::read_token_file(*o.token_file, "--token-file");
  if (c.server.auth_token.empty() && o.env_token) c.server.auth_token = *o.env_token;
  if (o.allow_unauthenticated_tcp) c.server.allow_unauthenticated_tcp = true;
  if (o.backend) c.engine.backend = cuzk::engine::parse_backend(*o.backend).value();  // checked by CLI11
  if (o.cache_dir) c.engine.cache_dir = *o.cache_dir;
  if (o.devices) c.engine.devices = *o.devices;
  if (o.workers) c.engine.workers_per_device = *o.workers;
  if (c.server.unix_socket.empty() && c.server.tcp_listen.empty())
    throw cuzk::server::ConfigError("--unix-socket and --tcp are both empty: the daemon would not listen");
  if (!c.server.tcp_listen.empty()) (void)cuzk::server::parse_host_port(c.server.tcp_listen, "--tcp");
  if (!c.server.http_listen.empty()) (void)cuzk::server::parse_host_port(c.server.http_listen, "--http");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzk-daemon: Groth16 proving daemon (gRPC + HTTP /metrics, /status)"};
  app.set_version_flag("--version", std::string("cuzk-daemon ") + CUZK_VERSION);
  std::string config_path, log_level = "info", ready_file;
  bool print_default = false;
  Overrides o;
  app.add_option("--config", config_path, "TOML config (default: the embedded one, see --print-default-config)")
      ->check(CLI::ExistingFile);
  app.add_flag("--print-default-config", print_default,
               "print the embedded default config, every key documented, and exit (config/cuzk-daemon.example.toml "
               "is this text)");
  app.add_option("--unix-socket", o.unix_socket, "gRPC unix socket path (\"\" = none)");
  app.add_option("--tcp", o.tcp_listen, "gRPC TCP host:port (\"\" = none; port 0 = any)");
  app.add_option("--http", o.http_listen, "HTTP host:port for /metrics and /status (\"\" = none)");
  app.add_option("--token", o.token,
                 "bearer token required on TCP (\"\" = no auth; visible to local users in the process list: prefer "
                 "--token-file or $CUZK_TOKEN)");
  app.add_option("--token-file", o.token_file, "read the bearer token from this file's first line");
  app.add_flag("--allow-unauthenticated-tcp", o.allow_unauthenticated_tcp,
               "allow --tcp on an address beyond loopback without a token (trusted networks only)");
  std::vector<std::string> backends;
  for (const auto b : cuzk::engine::kBackends) backends.emplace_back(cuzk::engine::backend_name(b));
  app.add_option("--backend", o.backend, "cpu or cuda")->check(CLI::IsMember(backends));
  app.add_option("--devices", o.devices, "devices (cpu: simulated; cuda: 0 = all)")->check(CLI::NonNegativeNumber);
  app.add_option("--workers", o.workers, "workers per device")->check(CLI::PositiveNumber);
  app.add_option("--cache-dir", o.cache_dir, "directory for cached test keys");
  std::string params_dir;
  app.add_option("--params-dir", params_dir,
                 "Filecoin parameter directory (default: [filecoin] parameter_dir, else $FIL_PROOFS_PARAMETER_CACHE, "
                 "else /var/tmp/filecoin-proof-parameters/)");
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error")->capture_default_str();
  app.add_option("--ready-file", ready_file,
                 "when serving, write {\"pid\", \"tcp_port\", \"http_port\", \"unix_socket\"} (JSON) here");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  if (const char* t = std::getenv("CUZK_TOKEN"); t != nullptr && *t != '\0') o.env_token = t;
  if (print_default) {
    std::cout << cuzk::server::default_config_toml();
    return 0;
  }
  spdlog::set_level(spdlog::level::from_str(log_level));

  // SIGINT/SIGTERM are blocked in every thread (threads inherit the mask) and taken by
  // sigwait below: no handler, no shared flag.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::optional<cuzk::server::Daemon> daemon;
  try {
    cuzk::server::DaemonConfig cfg =
        config_path.empty() ? cuzk::server::default_daemon_config() : cuzk::server::load_daemon_config(config_path);
    apply(o, cfg);
    if (!params_dir.empty())
      cfg.engine.filecoin_parameter_dir = params_dir;
    else if (!cfg.filecoin_parameter_dir_given)
      cfg.engine.filecoin_parameter_dir =
          cuzk::filecoin::parameter_cache_dir(std::getenv(std::string(cuzk::filecoin::kParameterCacheEnvVar).c_str())).string();
    if (!(cfg.engine.gpu == cuzk::gpu::Tuning{})) spdlog::warn("config: [gpu] tuning is not the defaults");
    spdlog::info("config: {}; backend {}, {} device(s) x {} worker(s), {} circuit(s), cache {}",
                 config_path.empty() ? "embedded default" : config_path, cuzk::engine::backend_name(cfg.engine.backend),
                 cfg.engine.devices,
                 cfg.engine.workers_per_device, cfg.engine.circuits.size(), cfg.engine.cache_dir);
    daemon.emplace(std::move(cfg));
  } catch (const cuzk::server::ConfigError& e) {
    spdlog::error("config: {}", e.what());
    return 2;
  } catch (const std::exception& e) {
    spdlog::error("cannot start: {}", e.what());
    return 2;
  }
  const auto& sc = daemon->config().server;
  if (!sc.unix_socket.empty()) spdlog::info("gRPC on unix:{}", sc.unix_socket);
  if (!sc.tcp_listen.empty()) {
    const std::string host = cuzk::server::parse_host_port(sc.tcp_listen, "tcp").host;
    spdlog::info("gRPC on {}:{}{}{}", host, daemon->tcp_port(), sc.auth_token.empty() ? "" : " (bearer token required)",
                 sc.tls_cert_file.empty() ? "" : " (TLS)");
    if (sc.auth_token.empty() && !cuzk::server::is_loopback_host(host))
      spdlog::warn("gRPC on {} accepts anyone who can reach it: no token (allow_unauthenticated_tcp)", sc.tcp_listen);
  }
  if (daemon->http_port())
    spdlog::info("HTTP /metrics and /status on {}:{}", cuzk::server::parse_host_port(sc.http_listen, "http").host,
                 daemon->http_port());
  for (const auto& id : daemon->engine().circuit_ids()) spdlog::info("circuit {}", id);
  if (!ready_file.empty()) {
    const nlohmann::json ready = {{"pid", static_cast<long>(::getpid())}, {"tcp_port", daemon->tcp_port()},
                                  {"http_port", daemon->http_port()}, {"unix_socket", sc.unix_socket}};
    std::ofstream(ready_file + ".tmp") << ready.dump() << "\n";
    std::rename((ready_file + ".tmp").c_str(), ready_file.c_str());
  }
  spdlog::info("ready (pid {})", static_cast<long>(::getpid()));

  int sig = 0;
  sigwait(&stop_signals, &sig);
  spdlog::info("{}: shutting down", sig == SIGINT ? "SIGINT" : "SIGTERM");
  daemon->shutdown();
  spdlog::info("stopped");
  return 0;
}
