// In-process daemons for the server tests: real gRPC over loopback TCP (port 0) and a unix
// socket in a per-test directory, HTTP on a free port, small native circuits with TEST keys
// in a cache directory shared by the test binary. Helpers prove through the client stub and
// verify every returned proof with the circuit's verification key (GetVerifyingKey).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "client.hpp"
#include "daemon.hpp"
#include "proof_check.hpp"
#include "support/scratch_dir.hpp"

namespace cuzk::server::test {

namespace pb = ::cuzk::v1;

// A plain (no TLS) client's options for `target` with `token`.
inline ClientOptions plain_client(std::string target, std::string token = "") {
  ClientOptions o;
  o.target = std::move(target);
  o.token = std::move(token);
  return o;
}

// Per-test directories (tests/support).
using cuzk::test::ScratchDir;

// The key cache shared by every daemon of this test binary (keys are generated once).
std::filesystem::path shared_cache_dir();

// Circuits: "fast" (mul-chain 2^10, bls12_381), "fast-bn" (mul-chain 2^10, bn254) and "slow"
// (mul-chain large enough that a proof takes a noticeable time on 2 cores).
DaemonConfig test_config(const std::filesystem::path& dir, int workers = 2);

struct Running {
  std::unique_ptr<Daemon> daemon;
  std::unique_ptr<Client> tcp;   // with the right token (if any)
  std::unique_ptr<Client> unix_socket;
  std::string tcp_target() const;
};
Running start(DaemonConfig cfg);

pb::ProofRequest native_request(const std::string& circuit, std::uint64_t seed,
                                pb::Priority priority = pb::PRIORITY_UNSPECIFIED, const std::string& id = "");
grpc::Status submit(Client& c, const pb::ProofRequest& r, std::string* id = nullptr);
pb::AwaitProofResponse await(Client& c, const std::string& id, std::chrono::milliseconds timeout);
pb::AwaitProofResponse prove(Client& c, const pb::ProofRequest& r, std::chrono::milliseconds timeout = std::chrono::seconds(120));
pb::GetStatusResponse status(Client& c);
// Waits until the job reaches one of the running states (or a final one).
pb::JobState wait_running(Client& c, const std::string& id, std::chrono::milliseconds timeout);

// Fetches the circuit's verification key from the daemon and verifies the proof with it.
bool verifies(Client& c, const pb::ProofResult& r, std::string* why = nullptr);
// Success when the job is done, SUCCEEDED and its proof verifies.
::testing::AssertionResult proof_ok(Client& c, const pb::AwaitProofResponse& r);

}  // namespace cuzk::server::test
