#include "daemon.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>

#include <grpcpp/grpcpp.h>

#include "access.hpp"
#include "config_render.hpp"
#include "http_endpoint.hpp"
#include "proving_service.hpp"
#include "status_json.hpp"
#include "status_report.hpp"

namespace cuzk::server {

namespace {

// A socket file left by a daemon that died is removed; one that still answers is an error.
void clear_stale_socket(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return;
  if (!std::filesystem::is_socket(std::filesystem::symlink_status(path, ec)))
    throw std::runtime_error("unix socket path " + path + " exists and is not a socket");
  sockaddr_un addr{};
  if (path.size() >= sizeof addr.sun_path) throw std::runtime_error("unix socket path too long: " + path);
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  const bool live = fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
  if (fd >= 0) ::close(fd);
  if (live) throw std::runtime_error("another process is listening on " + path);
  std::filesystem::remove(path, ec);
}

// The largest message the daemon accepts: the largest request its circuits take (a .wtns of
// the largest .zkey circuit, a Filecoin request) and gRPC's default 4 MiB beside it for the
// rest. A larger message is refused by gRPC before it reaches a handler (RESOURCE_EXHAUSTED
// naming both sizes).
int max_message_bytes(const engine::Engine& e) {
  constexpr std::uint64_t kEnvelope = 4ull << 20;
  return static_cast<int>(std::min<std::uint64_t>(e.max_request_bytes() + kEnvelope, INT_MAX));
}

}  // namespace

struct Daemon::Impl {
  DaemonConfig config;
  RpcMetrics counters;
  std::unique_ptr<engine::Engine> engine;
  std::unique_ptr<ProvingService> service;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<HttpEndpoint> http;
  int tcp_port = 0;
  std::once_flag stopped;
};

Daemon::Daemon(DaemonConfig config) : impl_(std::make_unique<Impl>()) {
  auto& d = *impl_;
  d.config = std::move(config);
  const ServerConfig& sc = d.config.server;
  check_access(sc);
  d.engine = std::make_unique<engine::Engine>(d.config.engine);
  d.service = std::make_unique<ProvingService>(*d.engine, ServiceOptions{sc.auth_token, sc.auth_unix, sc.max_await_ms},
                                               d.counters);

  grpc::ServerBuilder builder;
  grpc::ResourceQuota quota("cuzk-daemon");
  quota.SetMaxThreads(sc.rpc_threads);
  builder.SetResourceQuota(quota);
  builder.SetMaxReceiveMessageSize(max_message_bytes(*d.engine));
  builder.SetMaxSendMessageSize(INT_MAX);
  // One owner per port: without SO_REUSEPORT a second daemon on a port in use fails to start
  // instead of taking half of the first one's connections.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  if (!sc.unix_socket.empty()) {
    clear_stale_socket(sc.unix_socket);
    builder.AddListeningPort("unix:" + sc.unix_socket, grpc::InsecureServerCredentials());
  }
  if (!sc.tcp_listen.empty()) {
    const HostPort hp = parse_host_port(sc.tcp_listen, "server.tcp_listen");
    const std::string host = hp.host.find(':') != std::string::npos ? "[" + hp.host + "]" : hp.host;
    builder.AddListeningPort(host + ":" + std::to_string(hp.port), tcp_credentials(sc), &d.tcp_port);
  }
  builder.RegisterService(d.service.get());
  d.server = builder.BuildAndStart();
  if (!d.server || (!sc.tcp_listen.empty() && d.tcp_port == 0))
    throw std::runtime_error("gRPC: cannot listen on " + (sc.unix_socket.empty() ? "" : "unix:" + sc.unix_socket + " ") +
                             sc.tcp_listen + " (address in use?)");
  if (!sc.unix_socket.empty()) restrict_unix_socket(sc.unix_socket);
  if (!sc.http_listen.empty()) {
    ProvingService* svc = d.service.get();
    engine::Engine* eng = d.engine.get();
    const DaemonConfig* cfg = &d.config;
    d.http = std::make_unique<HttpEndpoint>(
        parse_host_port(sc.http_listen, "server.http_listen"), [svc] { return svc->metrics_text(); },
        [eng, cfg] {
          v1::GetStatusResponse s;
          build_status(*eng, &s);
          nlohmann::json j = status_to_json(s);
          j["effective_config"] = effective_config_json(*cfg);
          return j.dump(1) + "\n";
        },
        d.counters);
  }
}

Daemon::~Daemon() { shutdown(); }

void Daemon::shutdown() {
  auto& d = *impl_;
  std::call_once(d.stopped, [&] {
    if (d.service) d.service->begin_shutdown();
    if (d.http) d.http->stop();
    if (d.server) {
      d.server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
      d.server->Wait();
    }
    d.engine.reset();
    if (!d.config.server.unix_socket.empty()) {
      std::error_code ec;
      std::filesystem::remove(d.config.server.unix_socket, ec);
    }
  });
}

int Daemon::tcp_port() const { return impl_->tcp_port; }
int Daemon::http_port() const { return impl_->http ? impl_->http->port() : 0; }
const DaemonConfig& Daemon::config() const { return impl_->config; }
engine::Engine& Daemon::engine() { return *impl_->engine; }

}  // namespace cuzk::server
