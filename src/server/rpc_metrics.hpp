// The server's own counters: RPCs by method and status code with their latency, RPCs in
// flight, HTTP requests by path. Thread-safe; exported in the Prometheus text format next to
// the engine's metrics.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include <grpcpp/support/status_code_enum.h>

namespace cuzk::server {

class RpcMetrics {
 public:
  void begin() { inflight_.fetch_add(1, std::memory_order_relaxed); }
  void end(std::string_view method, grpc::StatusCode code, double seconds);
  void http_request(std::string_view path, int status);
  std::uint64_t count(std::string_view method, grpc::StatusCode code) const;
  std::string prometheus_text() const;

 private:
  struct Latency {
    std::uint64_t count = 0;
    double sum_s = 0;
  };
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int>, std::uint64_t, std::less<>> rpcs_;
  std::map<std::string, Latency, std::less<>> latency_;
  std::map<std::pair<std::string, int>, std::uint64_t, std::less<>> http_;
  std::atomic<int> inflight_{0};
};

}  // namespace cuzk::server
