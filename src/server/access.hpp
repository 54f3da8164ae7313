// Who may reach the daemon: the listeners' access rules, checked before anything listens.
//  - TCP on an address other than loopback needs a bearer token (or TLS client auth is not
//    offered: the token it is), unless the config says allow_unauthenticated_tcp = true;
//  - the unix socket is made 0660 (owner and group), whatever the umask;
//  - a token may come from a file (auth_token_file: its first line), so that it is not on the
//    command line (/proc/PID/cmdline) nor in a world-readable config;
//  - TLS on TCP when tls_cert_file and tls_key_file are given (PEM).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <grpcpp/security/server_credentials.h>

#include "daemon_config.hpp"

namespace cuzk::server {

// 127.0.0.0/8, ::1 and "localhost".
bool is_loopback_host(std::string_view host);

// Throws ConfigError when the listeners break the rules above (naming the key and the way out).
void check_access(const ServerConfig& s);

// The first line of `path` (trailing CR/LF and spaces removed); ConfigError naming `key` when
// the file cannot be read or the line is empty.
std::string read_token_file(const std::string& path, std::string_view key);

// The credentials of the TCP listener: TLS from the PEM files when configured, else insecure.
std::shared_ptr<grpc::ServerCredentials> tcp_credentials(const ServerConfig& s);

// chmod 0660; throws std::runtime_error naming the path when it cannot.
void restrict_unix_socket(const std::string& path);

}  // namespace cuzk::server
