// cuzk-bench subcommands. Each returns the exit status: 0 every proof succeeded (and
// verified, with --verify), 1 some proofs failed, 2 bad usage or no connection.
#pragma once

#include <cstdint>
#include <string>

#include "bench.hpp"

namespace cuzk::bench {

struct SingleArgs {
  RequestTemplate req;
  std::string request_id, proof_out, public_out;
  std::string proof_bytes_out;  // the proof's bytes (BLS12-381: bellperson's 192-byte format)
};
struct BatchArgs {
  RequestTemplate req;
  int count = 8, concurrency = 4;
  bool progress = true;
};
struct StressArgs {
  double duration_s = 30;
  int concurrency = 4;
  int max_jobs = 1000;      // bound on submissions whatever the duration
  std::uint64_t seed = 1;   // of the kind/priority mix
  bool progress = true;
};

int run_single(const Common& c, const SingleArgs& a);
int run_batch(const Common& c, const BatchArgs& a);
int run_stress(const Common& c, const StressArgs& a);
int run_status(const Common& c, bool json);
int run_preload(const Common& c, const std::string& circuit);
int run_evict(const Common& c, const std::string& circuit);
int run_cancel(const Common& c, const std::string& request_id);

}  // namespace cuzk::bench
