// cuzk-bench: shared pieces of the subcommands. A proof request template, one proof's round
// trip through the daemon (SubmitProof, then AwaitProof until done), client-side
// verification with the circuit's verification key (Filecoin proofs: filecoin_verify.hpp), and
// latency statistics.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "client.hpp"
#include "names.hpp"
#include "porep_request.hpp"
#include "snap_job.hpp"
#include "post_request.hpp"
#include "proof_check.hpp"

namespace cuzk::bench {

namespace pb = ::cuzk::v1;
using server::kind_name;
using server::priority_name;
using server::state_name;

// Exit statuses of every subcommand.
inline constexpr int kExitOk = 0, kExitProofsFailed = 1, kExitUsage = 2;

struct Common {
  server::ClientOptions client;
  double timeout_s = 600;  // per proof, client side
  bool verify = false;     // check every returned proof with the circuit's verification key
};

struct RequestTemplate {
  std::string circuit;          // circuit id; empty with a Filecoin kind = the kind's circuit
  std::string kind = "groth16"; // groth16, winning_post, window_post, porep, snap_deals
  std::string priority;         // "" = the kind's default; low, normal, high, critical
  std::uint64_t seed = 1;       // first seed (proof i uses seed + i): a native circuit's witness, synthetic PoSt data
  std::string wtns_path;        // .zkey circuits: the witness
  PostOptions post;             // Filecoin PoSt (--post-proof): the kind follows from the proof; seed as above
  PorepOptions porep;           // Filecoin PoRep C2 (--porep-c1): kind porep
  SnapOptions snap;             // Filecoin SnapDeals (--snap-vanilla): kind snap_deals
  // The partitioned Filecoin request of the options (PoRep or SnapDeals), if any.
  bool partitioned() const { return porep.enabled() || snap.enabled(); }
};

// Throws std::invalid_argument for unknown kind/priority or an unreadable .wtns.
pb::ProofRequest make_request(const RequestTemplate& t, std::uint64_t index, const std::vector<char>& wtns);
// A PoSt request: the template's priority and circuit (usually empty), the job's kind and inputs.
pb::ProofRequest make_post_request(const RequestTemplate& t, const PostJob& job);
// A PoRep or SnapDeals request: the job's kind and Filecoin fields, the template's priority and
// circuit (usually empty).
pb::ProofRequest make_partitioned_request(const RequestTemplate& t, const PartitionedJob& job);
// The template's PoRep or SnapDeals job (partitioned() must hold).
PartitionedJob make_partitioned_job(const RequestTemplate& t);
std::vector<char> read_file_bytes(const std::string& path);

struct FilecoinExpectation;  // filecoin_verify.hpp

struct Outcome {
  grpc::Status rpc;          // an RPC-level failure (the request was refused), or OK
  bool done = false;         // the job reached a final state
  pb::ProofResult result;
  double latency_s = 0;      // submit -> final, client side
  bool verified = false;     // only with Common::verify
  std::string verify_error;
  std::shared_ptr<const FilecoinExpectation> expect;  // Filecoin: what the proofs must verify against
  bool ok() const { return rpc.ok() && done && result.state() == pb::JOB_STATE_SUCCEEDED && verify_error.empty(); }
};

class FilecoinVerifyingKey;

// Fetches and parses each circuit's verification key once (thread-safe). Filecoin proofs are
// checked as 192-byte proofs against the inputs derived here (Outcome::expect), the others as
// proof.json + public.json.
class Verifier {
 public:
  explicit Verifier(server::Client& client) : client_(client) {}
  // Fills out.verified / out.verify_error.
  void check(Outcome& out);

 private:
  // GetVerifyingKey's JSON, or "" with out.verify_error set.
  std::string fetch(const std::string& circuit_id, Outcome& out);
  void check_filecoin(Outcome& out);

  server::Client& client_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const server::ProofChecker>> checkers_;
  std::map<std::string, std::shared_ptr<const FilecoinVerifyingKey>> filecoin_keys_;
};

// `expect`: a Filecoin request's expectation (kept in the outcome; checked with --verify).
Outcome prove_one(server::Client& client, const pb::ProofRequest& req, double timeout_s, Verifier* verifier,
                  std::shared_ptr<const FilecoinExpectation> expect = nullptr);

// Reachability check before a run: false (and a message on stderr) when the daemon does not answer.
bool check_connection(server::Client& client, pb::GetStatusResponse* status = nullptr);

double percentile(std::vector<double> v, double p);  // p in [0, 100]; 0 for an empty vector
std::string fmt_bytes(std::uint64_t b);
void print_timings(const pb::ProofResult& r);

}  // namespace cuzk::bench
