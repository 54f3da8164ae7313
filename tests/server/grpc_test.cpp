// The daemon over real gRPC (loopback TCP and a unix socket): concurrent clients, idempotent
// submission, Filecoin kinds, zkey+wtns circuits, bad inputs and bad tokens (each a clear gRPC
// error, the daemon keeps serving), HTTP /metrics and /status. Every proof is verified here
// with the circuit's verification key.
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/r1cs/wtns.hpp"
#include "test_daemon.hpp"

namespace cuzk::server::test {
namespace {

using namespace std::chrono_literals;
using Fr = groth16::Bls12_381::Fr;


class GrpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DaemonConfig cfg = test_config(dir.path());
    cfg.server.auth_token = "t0ken";
    d = start(std::move(cfg));
  }
  ScratchDir dir{"grpc-test"};
  Running d;
};

TEST_F(GrpcTest, ConcurrentClientsOverTcpAndUnixSocketAllVerify) {
  constexpr int kThreads = 4, kPerThread = 3;
  std::vector<std::vector<pb::AwaitProofResponse>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Client& c = t % 2 ? *d.tcp : *d.unix_socket;
      for (int i = 0; i < kPerThread; ++i)
        got[t].push_back(prove(c, native_request(t % 3 == 2 ? "fast-bn" : "fast", 100 + t * kPerThread + i)));
    });
  for (auto& th : threads) th.join();
  std::set<std::string> ids, publics;
  for (const auto& v : got)
    for (const auto& r : v) {
      EXPECT_TRUE(proof_ok(*d.tcp, r));
      ids.insert(r.result().request_id());
      publics.insert(r.result().public_json());
      EXPECT_FALSE(r.result().timings().empty());
    }
  EXPECT_EQ(ids.size(), std::size_t{kThreads * kPerThread});
  EXPECT_GT(publics.size(), 1u);  // different seeds, different statements
  EXPECT_EQ(status(*d.tcp).succeeded(), std::uint64_t{kThreads * kPerThread});
}

TEST_F(GrpcTest, SubmitIsIdempotentOnRequestId) {
  std::string id;
  ASSERT_TRUE(submit(*d.tcp, native_request("fast", 7, pb::PRIORITY_UNSPECIFIED, "job-7"), &id).ok());
  EXPECT_EQ(id, "job-7");
  pb::SubmitProofRequest again;
  *again.mutable_request() = native_request("fast", 7, pb::PRIORITY_UNSPECIFIED, "job-7");
  pb::SubmitProofResponse resp;
  ASSERT_TRUE(d.tcp->stub().SubmitProof(d.tcp->context(10s).get(), again, &resp).ok());
  EXPECT_TRUE(resp.duplicate());
  *again.mutable_request() = native_request("fast", 8, pb::PRIORITY_UNSPECIFIED, "job-7");  // same id, other input
  EXPECT_EQ(d.tcp->stub().SubmitProof(d.tcp->context(10s).get(), again, &resp).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_TRUE(proof_ok(*d.tcp, await(*d.tcp, "job-7", 60s)));
  EXPECT_EQ(status(*d.tcp).succeeded(), 1u);
}

TEST_F(GrpcTest, FilecoinKindsWithoutTheirCircuitAreRefused) {
  // No parameter directory in this daemon: PoSt, PoRep and SnapDeals are not served, never by a stand-in.
  pb::ProofRequest r;
  r.set_kind(pb::PROOF_KIND_WINNING_POST);
  r.mutable_post()->set_registered_proof(0);
  pb::SubmitProofRequest req;
  *req.mutable_request() = r;
  pb::SubmitProofResponse resp;
  grpc::Status st = d.tcp->stub().SubmitProof(d.tcp->context(10s).get(), req, &resp);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << st.error_message();
  EXPECT_NE(st.error_message().find("winning-post-2kib is not served"), std::string::npos) << st.error_message();
  req.mutable_request()->set_kind(pb::PROOF_KIND_POREP);
  req.mutable_request()->clear_post();
  req.mutable_request()->set_circuit_id("fast");
  st = d.tcp->stub().SubmitProof(d.tcp->context(10s).get(), req, &resp);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();  // no C1: never circuit "fast"
  req.mutable_request()->clear_circuit_id();
  req.mutable_request()->mutable_porep()->set_c1("{}");
  req.mutable_request()->mutable_porep()->set_registered_proof(5);  // StackedDrg2KiBV1_1
  st = d.tcp->stub().SubmitProof(d.tcp->context(10s).get(), req, &resp);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << st.error_message();
  EXPECT_NE(st.error_message().find("porep-2kib is not served"), std::string::npos) << st.error_message();
  // SnapDeals likewise: without its inputs never circuit "fast"; with them, its circuit is named.
  req.mutable_request()->set_kind(pb::PROOF_KIND_SNAP_DEALS);
  req.mutable_request()->clear_porep();
  req.mutable_request()->set_circuit_id("fast");
  st = d.tcp->stub().SubmitProof(d.tcp->context(10s).get(), req, &resp);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
  EXPECT_NE(st.error_message().find("a snap_deals request carries"), std::string::npos) << st.error_message();
  req.mutable_request()->clear_circuit_id();
  req.mutable_request()->mutable_snap()->set_registered_proof(3);  // StackedDrg32GiBV1
  req.mutable_request()->mutable_snap()->add_partition_proofs("x");
  st = d.tcp->stub().SubmitProof(d.tcp->context(10s).get(), req, &resp);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << st.error_message();
  EXPECT_NE(st.error_message().find("snap-32gib is not served"), std::string::npos) << st.error_message();
}

TEST_F(GrpcTest, AwaitHonoursItsTimeoutAndUnknownIds) {
  std::string id;
  ASSERT_TRUE(submit(*d.tcp, native_request("slow", 1), &id).ok());
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = await(*d.tcp, id, 50ms);
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_FALSE(r.done());
  EXPECT_LT(waited, 2s);
  EXPECT_FALSE(r.result().state() == pb::JOB_STATE_SUCCEEDED);
  EXPECT_TRUE(proof_ok(*d.tcp, await(*d.tcp, id, 120s)));
  pb::AwaitProofRequest req;
  req.set_request_id("no-such-job");
  pb::AwaitProofResponse resp;
  EXPECT_EQ(d.tcp->stub().AwaitProof(d.tcp->context(10s).get(), req, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  // A 1 MiB id: refused at submit, and no answer echoes it whole.
  const std::string huge(1 << 20, 'z');
  req.set_request_id(huge);
  grpc::Status st = d.tcp->stub().AwaitProof(d.tcp->context(10s).get(), req, &resp);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_LT(st.error_message().size(), 200u);
  pb::ProofRequest named = native_request("fast", 1);
  named.set_request_id(huge);
  st = submit(*d.tcp, named);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("is longer than 128 bytes"), std::string::npos) << st.error_message().substr(0, 300);
  EXPECT_LT(st.error_message().size(), 200u);
}

TEST_F(GrpcTest, BadInputsAreClearErrorsAndTheDaemonKeepsServing) {
  pb::ProofRequest unknown = native_request("no-such-circuit", 1);
  grpc::Status st = submit(*d.tcp, unknown);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(st.error_message().find("no-such-circuit"), std::string::npos) << st.error_message();

  pb::ProofRequest no_seed;
  no_seed.set_circuit_id("fast");
  EXPECT_EQ(submit(*d.tcp, no_seed).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  pb::ProofRequest bad_enum = native_request("fast", 1);
  bad_enum.set_priority(static_cast<pb::Priority>(42));
  st = submit(*d.tcp, bad_enum);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("priority"), std::string::npos);

  // Wrong and missing tokens on TCP; the unix socket needs none.
  Client wrong(plain_client(d.tcp_target(), "not-the-token")), none(plain_client(d.tcp_target()));
  EXPECT_EQ(submit(wrong, native_request("fast", 1)).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  pb::GetStatusResponse s;
  EXPECT_EQ(none.stub().GetStatus(none.context(10s).get(), {}, &s).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(d.unix_socket->stub().GetStatus(d.unix_socket->context(10s).get(), {}, &s).ok());

  EXPECT_TRUE(proof_ok(*d.tcp, prove(*d.tcp, native_request("fast", 2))));
}

// A .zkey circuit (the daemon's own cached TEST key of "fast", registered again from its
// file) proved from .wtns bytes; malformed and wrong-length witnesses are INVALID_ARGUMENT.
TEST_F(GrpcTest, ZkeyCircuitWithWtns) {
  std::filesystem::path zkey;
  for (const auto& e : std::filesystem::directory_iterator(shared_cache_dir()))
    if (e.path().filename().string().starts_with("mul-chain-bls12_381-constraints=1024-")) zkey = e.path();
  ASSERT_FALSE(zkey.empty());
  d.daemon.reset();
  DaemonConfig cfg = test_config(dir.path());
  engine::CircuitSpec spec;
  spec.id = "mc-zkey";
  spec.zkey_path = zkey.string();
  cfg.engine.circuits.push_back(spec);
  d = start(std::move(cfg));

  const std::vector<Fr> w = cs::witness<Fr>(gadgets::circuits::MulChain<Fr>{1024, 77}).full();
  const std::vector<std::uint8_t> good = r1cs::write_wtns<Fr>(w);
  pb::ProofRequest r;
  r.set_circuit_id("mc-zkey");
  r.set_wtns(std::string(good.begin(), good.end()));
  const auto ok = prove(*d.tcp, r);
  EXPECT_TRUE(proof_ok(*d.tcp, ok));

  r.set_wtns("this is not a wtns file");
  grpc::Status st = submit(*d.tcp, r);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
  const std::vector<Fr> short_w(w.begin(), w.end() - 1);
  const std::vector<std::uint8_t> bad = r1cs::write_wtns<Fr>(short_w);
  r.set_wtns(std::string(bad.begin(), bad.end()));
  st = submit(*d.tcp, r);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_FALSE(st.error_message().empty());
  r.clear_wtns();
  r.set_native_seed(1);  // a zkey circuit takes a witness, not a seed
  EXPECT_EQ(submit(*d.tcp, r).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  EXPECT_TRUE(proof_ok(*d.tcp, prove(*d.tcp, native_request("fast", 3))));
}

TEST_F(GrpcTest, HttpMetricsAndStatusParse) {
  EXPECT_TRUE(proof_ok(*d.tcp, prove(*d.tcp, native_request("fast", 9))));
  pb::GetStatusResponse s;
  Client wrong(plain_client(d.tcp_target(), "bad"));
  (void)wrong.stub().GetStatus(wrong.context(5s).get(), {}, &s);

  httplib::Client http("127.0.0.1", d.daemon->http_port());
  const auto st = http.Get("/status");
  ASSERT_TRUE(st);
  ASSERT_EQ(st->status, 200);
  const nlohmann::json j = nlohmann::json::parse(st->body);
  EXPECT_EQ(j.at("backend"), "cpu");
  EXPECT_EQ(j.at("jobs").at("succeeded"), 1);
  EXPECT_GT(j.at("rss_bytes").get<std::uint64_t>(), 0u);
  EXPECT_EQ(j.at("devices").size(), 1u);
  EXPECT_EQ(j.at("devices")[0].at("device_faults"), 0);
  EXPECT_EQ(j.at("devices")[0].at("failed_verifications"), 0);
  EXPECT_EQ(j.at("circuits").size(), 3u);
  bool fast_key = false;
  for (const auto& k : j.at("keys")) fast_key = fast_key || (k.at("circuit_id") == "fast" && k.at("proofs") == 1);
  EXPECT_TRUE(fast_key) << j.dump();
  // The values the daemon runs with, the token redacted.
  const nlohmann::json& cfg = j.at("effective_config");
  EXPECT_EQ(cfg.at("server").at("auth_token"), "***");
  EXPECT_EQ(st->body.find("t0ken"), std::string::npos);
  EXPECT_EQ(cfg.at("server").at("tcp_listen"), "127.0.0.1:0");
  EXPECT_EQ(cfg.at("engine").at("backend"), "cpu");
  EXPECT_EQ(cfg.at("engine").at("workers_per_device"), 2);
  EXPECT_EQ(cfg.at("engine").at("host_budget_bytes"), engine::EngineConfig{}.host_budget_bytes);
  ASSERT_EQ(cfg.at("circuit").size(), 3u);
  EXPECT_EQ(cfg.at("circuit")[1].at("id"), "fast-bn");
  EXPECT_EQ(cfg.at("circuit")[1].at("curve"), "bn254");

  const auto m = http.Get("/metrics");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->status, 200);
  // Every sample line is `name{labels} value` in the text exposition format.
  const std::regex sample(R"(^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})? [-+0-9.eEnaNIf]+$)");
  std::map<std::string, double> values;
  std::istringstream lines(m->body);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    ASSERT_TRUE(std::regex_match(line, sample)) << line;
    values[line.substr(0, line.rfind(' '))] = std::stod(line.substr(line.rfind(' ') + 1));
  }
  EXPECT_EQ((values["cuzk_server_rpcs_total{method=\"Prove\",code=\"OK\"}"]), 1);
  EXPECT_EQ((values["cuzk_server_rpcs_total{method=\"GetStatus\",code=\"UNAUTHENTICATED\"}"]), 1);
  EXPECT_GE((values["cuzk_server_http_requests_total{path=\"/status\",status=\"200\"}"]), 1);
  bool engine_metric = false;
  for (const auto& [k, v] : values) engine_metric = engine_metric || k.starts_with("cuzk_memory_budget_bytes");
  EXPECT_TRUE(engine_metric);
  EXPECT_GT(values["cuzk_daemon_resident_bytes"], 0);
}

}  // namespace
}  // namespace cuzk::server::test
