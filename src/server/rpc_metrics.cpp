#include "rpc_metrics.hpp"

#include <cstdio>

#include "names.hpp"

namespace cuzk::server {

void RpcMetrics::end(std::string_view method, grpc::StatusCode code, double seconds) {
  inflight_.fetch_sub(1, std::memory_order_relaxed);
  std::lock_guard lock(mu_);
  ++rpcs_[{std::string(method), static_cast<int>(code)}];
  auto& l = latency_[std::string(method)];
  ++l.count;
  l.sum_s += seconds;
}

void RpcMetrics::http_request(std::string_view path, int status) {
  std::lock_guard lock(mu_);
  ++http_[{std::string(path), status}];
}

std::uint64_t RpcMetrics::count(std::string_view method, grpc::StatusCode code) const {
  std::lock_guard lock(mu_);
  const auto it = rpcs_.find(std::pair<std::string, int>{std::string(method), static_cast<int>(code)});
  return it == rpcs_.end() ? 0 : it->second;
}

std::string RpcMetrics::prometheus_text() const {
  std::string s;
  char buf[256];
  std::lock_guard lock(mu_);
  s += "# HELP cuzk_server_rpcs_total gRPC calls handled, by method and status code.\n";
  s += "# TYPE cuzk_server_rpcs_total counter\n";
  for (const auto& [k, n] : rpcs_) {
    std::snprintf(buf, sizeof buf, "cuzk_server_rpcs_total{method=\"%s\",code=\"%s\"} %llu\n", k.first.c_str(),
                  std::string(status_code_name(static_cast<grpc::StatusCode>(k.second))).c_str(),
                  static_cast<unsigned long long>(n));
    s += buf;
  }
  s += "# HELP cuzk_server_rpc_seconds Time spent in gRPC handlers, by method.\n";
  s += "# TYPE cuzk_server_rpc_seconds summary\n";
  for (const auto& [m, l] : latency_) {
    std::snprintf(buf, sizeof buf, "cuzk_server_rpc_seconds_sum{method=\"%s\"} %.6f\n", m.c_str(), l.sum_s);
    s += buf;
    std::snprintf(buf, sizeof buf, "cuzk_server_rpc_seconds_count{method=\"%s\"} %llu\n", m.c_str(),
                  static_cast<unsigned long long>(l.count));
    s += buf;
  }
  s += "# HELP cuzk_server_rpcs_in_flight gRPC calls being handled now.\n";
  s += "# TYPE cuzk_server_rpcs_in_flight gauge\n";
  s += "cuzk_server_rpcs_in_flight " + std::to_string(inflight_.load(std::memory_order_relaxed)) + "\n";
  s += "# HELP cuzk_server_http_requests_total HTTP requests served, by path and status.\n";
  s += "# TYPE cuzk_server_http_requests_total counter\n";
  for (const auto& [k, n] : http_) {
    std::snprintf(buf, sizeof buf, "cuzk_server_http_requests_total{path=\"%s\",status=\"%d\"} %llu\n", k.first.c_str(),
                  k.second, static_cast<unsigned long long>(n));
    s += buf;
  }
  return s;
}

}  // namespace cuzk::server
