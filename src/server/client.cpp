#include "client.hpp"

#include <climits>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cuzk::server {

Client::Client(ClientOptions options) : options_(std::move(options)) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(INT_MAX);
  args.SetMaxSendMessageSize(INT_MAX);
  std::shared_ptr<grpc::ChannelCredentials> creds = grpc::InsecureChannelCredentials();
  if (!options_.tls_ca_file.empty()) {
    std::ifstream in(options_.tls_ca_file, std::ios::binary);
    if (!in) throw std::invalid_argument("--tls-ca: cannot read " + options_.tls_ca_file);
    std::ostringstream pem;
    pem << in.rdbuf();
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = pem.str();
    creds = grpc::SslCredentials(ssl);
  }
  channel_ = grpc::CreateCustomChannel(options_.target, creds, args);
  stub_ = ::cuzk::v1::ProvingService::NewStub(channel_);
}

std::unique_ptr<grpc::ClientContext> Client::context(std::chrono::milliseconds timeout) const {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() + timeout);
  if (!options_.token.empty()) ctx->AddMetadata("authorization", "Bearer " + options_.token);
  return ctx;
}

bool Client::wait_connected(std::chrono::milliseconds timeout) {
  return channel_->WaitForConnected(std::chrono::system_clock::now() + timeout);
}

}  // namespace cuzk::server
