// One running daemon: the engine, the gRPC server on a unix socket and/or TCP, and the HTTP
// endpoint. Construction starts everything (throws if a listener cannot bind); shutdown()
// (also run by the destructor) stops accepting calls, releases waiting handlers, stops the
// listeners and then the engine (queued jobs are cancelled, running ones stop at a phase
// boundary). Tests run it in-process; cuzk-daemon wraps it with signals and logs.
#pragma once

#include <memory>
#include <string>

#include "cuzk/engine/engine.hpp"
#include "daemon_config.hpp"

namespace cuzk::server {

class Daemon {
 public:
  explicit Daemon(DaemonConfig config);
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  void shutdown();  // idempotent

  int tcp_port() const;   // 0 when not listening on TCP
  int http_port() const;  // 0 without HTTP
  const DaemonConfig& config() const;
  engine::Engine& engine();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::server
