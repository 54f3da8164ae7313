// HTTP side of the daemon (cpp-httplib): GET /metrics (Prometheus text) and GET /status
// (JSON), served from one background thread set until stop() or destruction.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "daemon_config.hpp"
#include "rpc_metrics.hpp"

namespace cuzk::server {

class HttpEndpoint {
 public:
  using TextFn = std::function<std::string()>;
  // Binds at once (port 0: any free port) and throws std::runtime_error when it cannot.
  HttpEndpoint(const HostPort& at, TextFn metrics, TextFn status_json, RpcMetrics& counters);
  ~HttpEndpoint();
  HttpEndpoint(const HttpEndpoint&) = delete;
  HttpEndpoint& operator=(const HttpEndpoint&) = delete;

  int port() const;
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::server
