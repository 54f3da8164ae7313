#include "test_daemon.hpp"

#include <thread>

namespace cuzk::server::test {

std::filesystem::path shared_cache_dir() {
  static const ScratchDir dir("server-test-cache");
  return dir.path();
}

namespace {
engine::CircuitSpec mul_chain(const std::string& id, const std::string& curve, std::uint64_t constraints) {
  engine::CircuitSpec c;
  c.id = id;
  c.native = "mul-chain";
  c.curve = r1cs::parse_curve_name(curve).value();
  c.params = {{"constraints", constraints}};
  return c;
}
}  // namespace

DaemonConfig test_config(const std::filesystem::path& dir, int workers) {
  DaemonConfig c;
  c.server.unix_socket = (dir / "d.sock").string();
  c.server.tcp_listen = "127.0.0.1:0";
  c.server.http_listen = "127.0.0.1:0";
  c.engine.backend = engine::Backend::cpu;
  c.engine.devices = 1;
  c.engine.workers_per_device = workers;
  c.engine.synthesis_concurrency = 2;
  c.engine.cache_dir = shared_cache_dir().string();
  c.engine.circuits.push_back(mul_chain("fast", "bls12_381", 1024));
  c.engine.circuits.push_back(mul_chain("fast-bn", "bn254", 1024));
  c.engine.circuits.push_back(mul_chain("slow", "bls12_381", 1 << 15));
  return c;
}

std::string Running::tcp_target() const { return "127.0.0.1:" + std::to_string(daemon->tcp_port()); }

Running start(DaemonConfig cfg) {
  Running r;
  const std::string token = cfg.server.auth_token;
  const std::string sock = cfg.server.unix_socket;
  r.daemon = std::make_unique<Daemon>(std::move(cfg));
  r.tcp = std::make_unique<Client>(plain_client(r.tcp_target(), token));
  if (!sock.empty()) r.unix_socket = std::make_unique<Client>(plain_client("unix:" + sock));
  return r;
}

pb::ProofRequest native_request(const std::string& circuit, std::uint64_t seed, pb::Priority priority, const std::string& id) {
  pb::ProofRequest r;
  r.set_circuit_id(circuit);
  r.set_native_seed(seed);
  r.set_priority(priority);
  r.set_request_id(id);
  return r;
}

grpc::Status submit(Client& c, const pb::ProofRequest& r, std::string* id) {
  pb::SubmitProofRequest req;
  *req.mutable_request() = r;
  pb::SubmitProofResponse resp;
  grpc::Status st = c.stub().SubmitProof(c.context(std::chrono::seconds(30)).get(), req, &resp);
  if (id) *id = resp.request_id();
  return st;
}

pb::AwaitProofResponse await(Client& c, const std::string& id, std::chrono::milliseconds timeout) {
  pb::AwaitProofRequest req;
  req.set_request_id(id);
  req.set_timeout_ms(static_cast<std::uint32_t>(timeout.count()));
  pb::AwaitProofResponse resp;
  const grpc::Status st = c.stub().AwaitProof(c.context(timeout + std::chrono::seconds(10)).get(), req, &resp);
  if (!st.ok()) throw std::runtime_error("AwaitProof(" + id + "): " + st.error_message());
  return resp;
}

pb::AwaitProofResponse prove(Client& c, const pb::ProofRequest& r, std::chrono::milliseconds timeout) {
  pb::ProveRequest req;
  *req.mutable_request() = r;
  req.set_timeout_ms(static_cast<std::uint32_t>(timeout.count()));
  pb::AwaitProofResponse resp;
  const grpc::Status st = c.stub().Prove(c.context(timeout + std::chrono::seconds(10)).get(), req, &resp);
  if (!st.ok()) throw std::runtime_error("Prove: " + st.error_message());
  return resp;
}

pb::GetStatusResponse status(Client& c) {
  pb::GetStatusResponse s;
  const grpc::Status st = c.stub().GetStatus(c.context(std::chrono::seconds(10)).get(), {}, &s);
  if (!st.ok()) throw std::runtime_error("GetStatus: " + st.error_message());
  return s;
}

pb::JobState wait_running(Client& c, const std::string& id, std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  pb::JobState s = pb::JOB_STATE_UNSPECIFIED;
  while (std::chrono::steady_clock::now() < until) {
    s = await(c, id, std::chrono::milliseconds(0)).result().state();
    if (s != pb::JOB_STATE_QUEUED) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return s;
}

bool verifies(Client& c, const pb::ProofResult& r, std::string* why) {
  pb::GetVerifyingKeyRequest req;
  req.set_circuit_id(r.circuit_id());
  pb::GetVerifyingKeyResponse resp;
  const grpc::Status st = c.stub().GetVerifyingKey(c.context(std::chrono::seconds(60)).get(), req, &resp);
  if (!st.ok()) {
    if (why) *why = "GetVerifyingKey: " + st.error_message();
    return false;
  }
  return ProofChecker(resp.verification_key_json()).verify(r.proof_json(), r.public_json(), why);
}

::testing::AssertionResult proof_ok(Client& c, const pb::AwaitProofResponse& r) {
  if (!r.done()) return ::testing::AssertionFailure() << r.result().request_id() << " not done";
  if (r.result().state() != pb::JOB_STATE_SUCCEEDED)
    return ::testing::AssertionFailure() << r.result().request_id() << " " << pb::JobState_Name(r.result().state()) << ": "
                                         << r.result().error();
  std::string why;
  if (!verifies(c, r.result(), &why)) return ::testing::AssertionFailure() << r.result().request_id() << ": " << why;
  return ::testing::AssertionSuccess();
}

}  // namespace cuzk::server::test
