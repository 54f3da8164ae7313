// Client side of the daemon's gRPC API: a channel to "unix:/path" or "host:port" and call
// contexts that carry the bearer token and a deadline.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "cuzk/v1/proving.grpc.pb.h"

namespace cuzk::server {

struct ClientOptions {
  std::string target = "unix:/tmp/cuzk-daemon.sock";  // "unix:/path" or "host:port"
  std::string token;                                   // sent as "authorization: Bearer <token>"
  std::string tls_ca_file;  // PEM: TLS to a TCP target, trusting these certificates; "" = plain
};

class Client {
 public:
  explicit Client(ClientOptions options);

  ::cuzk::v1::ProvingService::Stub& stub() { return *stub_; }
  // A context with the token and a deadline `timeout` from now.
  std::unique_ptr<grpc::ClientContext> context(std::chrono::milliseconds timeout) const;
  // True once the channel is connected (false after `timeout`).
  bool wait_connected(std::chrono::milliseconds timeout);
  const ClientOptions& options() const { return options_; }

 private:
  ClientOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<::cuzk::v1::ProvingService::Stub> stub_;
};

}  // namespace cuzk::server
