// cuzk-bench single: one proof, its per-phase timings, optionally written out and verified.
// A PoSt proof (--post-proof) also prints its size and, with --verify, is checked as the
// 192-byte proof against the public inputs derived here (post_verify.hpp); a PoRep C2
// (--porep-c1) and a SnapDeals proof (--snap-vanilla) likewise, partition by partition
// (partition_verify.hpp).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "partition_verify.hpp"
#include "post_verify.hpp"

namespace cuzk::bench {

namespace {

// "proof: 192 bytes x 10 partitions; 327 public inputs each derived here".
void print_partition_proofs(const PartitionExpectation& e, const pb::ProofResult& r) {
  const std::size_t n = e.partition_inputs.size(), size = r.proof_bytes().size();
  if (n == 0 || size != n * groth16::kBellpersonProofSize) {
    std::printf("proof: %zu bytes\n", size);
    return;
  }
  std::printf("proof: %zu bytes x %zu partition%s; %zu public inputs each derived here\n",
              groth16::kBellpersonProofSize, n, n == 1 ? "" : "s", e.partition_inputs.front().size());
}

}  // namespace

int run_single(const Common& c, const SingleArgs& a) {
  server::Client client(c.client);
  if (!check_connection(client)) return kExitUsage;
  pb::ProofRequest req;
  std::shared_ptr<const PostExpectation> post;
  std::shared_ptr<const PartitionExpectation> parts;
  std::shared_ptr<const FilecoinExpectation> expect;
  if (a.req.post.enabled()) {
    const PostSource source(a.req.post);
    const PostJob job = source.make(a.req.seed);
    std::printf("post: %s\n", source.describe().c_str());
    req = make_post_request(a.req, job);
    expect = post = job.expect;
  } else if (a.req.partitioned()) {
    const PartitionedJob job = make_partitioned_job(a.req);
    std::printf("%s: %s\n", a.req.porep.enabled() ? "porep" : "snap", job.description.c_str());
    req = make_partitioned_request(a.req, job);
    expect = parts = job.expect;
  } else {
    const std::vector<char> wtns = a.req.wtns_path.empty() ? std::vector<char>{} : read_file_bytes(a.req.wtns_path);
    req = make_request(a.req, 0, wtns);
  }
  req.set_request_id(a.request_id);
  Verifier verifier(client);
  const Outcome o = prove_one(client, req, c.timeout_s, c.verify ? &verifier : nullptr, expect);
  if (!o.rpc.ok()) {
    std::cerr << "error: " << server::status_code_name(o.rpc.error_code()) << ": " << o.rpc.error_message() << "\n";
    return kExitProofsFailed;
  }
  const pb::ProofResult& r = o.result;
  std::printf("request %s: circuit %s (%s), kind %s, priority %s\n", r.request_id().c_str(), r.circuit_id().c_str(),
              r.curve().c_str(), kind_name(r.kind()).c_str(), priority_name(r.priority()).c_str());
  if (!o.done) {
    std::printf("not finished after %.0f s (state %s)\n", c.timeout_s, state_name(r.state()).c_str());
    return kExitProofsFailed;
  }
  std::printf("state %s", state_name(r.state()).c_str());
  if (r.code() != pb::ERROR_CODE_OK) std::printf(" (%s: %s)", server::error_code_name(r.code()).c_str(), r.error().c_str());
  std::printf("; device %d, worker %d, attempts %d, batch of %llu; latency %.1f ms\n", r.device(), r.worker(),
              r.attempts(), static_cast<unsigned long long>(r.batch_size()), o.latency_s * 1e3);
  print_timings(r);
  if (r.state() == pb::JOB_STATE_SUCCEEDED) {
    if (post) {
      std::printf("proof: %zu bytes", r.proof_bytes().size());
      if (post->underivable.empty()) std::printf("; %zu public inputs derived here", post->public_inputs.size());
      std::printf("\n");
    }
    if (parts) print_partition_proofs(*parts, r);
    if (!a.proof_out.empty()) std::ofstream(a.proof_out) << r.proof_json();
    if (!a.public_out.empty()) std::ofstream(a.public_out) << r.public_json();
    if (!a.proof_bytes_out.empty()) std::ofstream(a.proof_bytes_out, std::ios::binary) << r.proof_bytes();
    if (c.verify && o.verified && post)
      std::printf("verify: OK (the %zu-byte proof, with %s's verifying key from the daemon, against the inputs derived "
                  "here)\n", r.proof_bytes().size(), post->circuit_id.c_str());
    else if (c.verify && o.verified && parts)
      std::printf("verify: OK (the %zu partition proof%s, with %s's verifying key from the daemon, against the inputs "
                  "derived here)\n", parts->partition_inputs.size(), parts->partition_inputs.size() == 1 ? "" : "s",
                  parts->circuit_id.c_str());
    else if (c.verify)
      std::printf("verify: %s\n", o.verified ? "OK" : o.verify_error.c_str());
  }
  return o.ok() ? kExitOk : kExitProofsFailed;
}

}  // namespace cuzk::bench
