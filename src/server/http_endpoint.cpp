#include "http_endpoint.hpp"

#include <httplib.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace cuzk::server {

struct HttpEndpoint::Impl {
  httplib::Server server;
  std::thread thread;
  int port = 0;
};

HttpEndpoint::HttpEndpoint(const HostPort& at, TextFn metrics, TextFn status_json, RpcMetrics& counters)
    : impl_(std::make_unique<Impl>()) {
  auto& s = impl_->server;
  // httplib's default sets SO_REUSEPORT, which lets a second daemon bind the same port and take
  // half of the first one's requests: address reuse only (a restart binds at once), one owner.
  s.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  s.Get("/metrics", [metrics, &counters](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics(), "text/plain; version=0.0.4; charset=utf-8");
    counters.http_request("/metrics", 200);
  });
  s.Get("/status", [status_json, &counters](const httplib::Request&, httplib::Response& res) {
    res.set_content(status_json(), "application/json");
    counters.http_request("/status", 200);
  });
  s.set_exception_handler([&counters](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "internal error";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    res.status = 500;
    res.set_content(what + "\n", "text/plain");
    counters.http_request(req.path, 500);
  });
  if (at.port == 0) {
    impl_->port = s.bind_to_any_port(at.host);
    if (impl_->port <= 0) throw std::runtime_error("http: cannot bind " + at.host + ":0");
  } else {
    if (!s.bind_to_port(at.host, at.port))
      throw std::runtime_error("http: cannot bind " + at.host + ":" + std::to_string(at.port) + " (in use?)");
    impl_->port = at.port;
  }
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
  // stop() only interrupts a server that is already in its accept loop (cpp-httplib 0.11):
  // wait until it is, so that an immediate stop() cannot be lost.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!s.is_running() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!s.is_running()) {
    stop();
    throw std::runtime_error("http: the server on " + at.host + ":" + std::to_string(impl_->port) + " did not start");
  }
}

HttpEndpoint::~HttpEndpoint() { stop(); }

int HttpEndpoint::port() const { return impl_->port; }

void HttpEndpoint::stop() {
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace cuzk::server
