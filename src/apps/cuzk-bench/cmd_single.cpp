// cuzk-bench single: one proof, its per-phase timings, optionally written out and verified.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "commands.hpp"

namespace cuzk::bench {

int run_single(const Common& c, const SingleArgs& a) {
  server::Client client(c.client);
  if (!check_connection(client)) return kExitUsage;
  const std::vector<char> wtns = a.req.wtns_path.empty() ? std::vector<char>{} : read_file_bytes(a.req.wtns_path);
  pb::ProofRequest req = make_request(a.req, 0, wtns);
  req.set_request_id(a.request_id);
  Verifier verifier(client);
  const Outcome o = prove_one(client, req, c.timeout_s, c.verify ? &verifier : nullptr);
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
    if (!a.proof_out.empty()) std::ofstream(a.proof_out) << r.proof_json();
    if (!a.public_out.empty()) std::ofstream(a.public_out) << r.public_json();
    if (c.verify) std::printf("verify: %s\n", o.verified ? "OK" : o.verify_error.c_str());
  }
  return o.ok() ? kExitOk : kExitProofsFailed;
}

}  // namespace cuzk::bench
