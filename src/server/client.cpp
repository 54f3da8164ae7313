#include "client.hpp"

#include <climits>

namespace cuzk::server {

Client::Client(ClientOptions options) : options_(std::move(options)) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(INT_MAX);
  args.SetMaxSendMessageSize(INT_MAX);
  channel_ = grpc::CreateCustomChannel(options_.target, grpc::InsecureChannelCredentials(), args);
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
