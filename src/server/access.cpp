// The listeners' access rules (access.hpp).
#include "access.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <grpcpp/security/server_credentials.h>

namespace cuzk::server {

namespace {

std::string read_pem(const std::string& path, std::string_view key) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("server." + std::string(key) + ": cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  if (s.str().find("-----BEGIN ") == std::string::npos)
    throw ConfigError("server." + std::string(key) + ": " + path + " is not a PEM file");
  return s.str();
}

}  // namespace

bool is_loopback_host(std::string_view host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  // 127.0.0.0/8 written as an address ("127.example.com" is a name, not loopback).
  return host.starts_with("127.") && host.find_first_not_of("0123456789.") == std::string_view::npos;
}

void check_access(const ServerConfig& s) {
  if (s.tls_cert_file.empty() != s.tls_key_file.empty())
    throw ConfigError("server.tls_cert_file and server.tls_key_file: give both or neither");
  if (s.tcp_listen.empty()) return;
  const HostPort hp = parse_host_port(s.tcp_listen, "server.tcp_listen");
  if (!is_loopback_host(hp.host) && s.auth_token.empty() && !s.allow_unauthenticated_tcp)
    throw ConfigError("server.tcp_listen: " + s.tcp_listen +
                      " is reachable from other hosts and no auth_token is set: anyone there could submit, cancel "
                      "and evict. Set server.auth_token (or auth_token_file, or $CUZK_TOKEN), listen on loopback, or "
                      "set server.allow_unauthenticated_tcp = true on a trusted network");
}

std::string read_token_file(const std::string& path, std::string_view key) {
  std::ifstream in(path);
  if (!in) throw ConfigError(std::string(key) + ": cannot read " + path);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
  if (line.empty()) throw ConfigError(std::string(key) + ": the first line of " + path + " is empty");
  return line;
}

std::shared_ptr<grpc::ServerCredentials> tcp_credentials(const ServerConfig& s) {
  if (s.tls_cert_file.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions opt;
  opt.pem_key_cert_pairs.push_back({read_pem(s.tls_key_file, "tls_key_file"), read_pem(s.tls_cert_file, "tls_cert_file")});
  return grpc::SslServerCredentials(opt);
}

void restrict_unix_socket(const std::string& path) {
  if (::chmod(path.c_str(), 0660) != 0)
    throw std::runtime_error("cannot make the unix socket " + path + " 0660: " + std::strerror(errno));
}

}  // namespace cuzk::server
