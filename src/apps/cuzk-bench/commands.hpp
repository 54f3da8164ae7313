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

// gen-vanilla porep: a synthetic C1 file (no daemon).
struct GenPorepArgs {
  std::string sector_size, proof;  // one of them at least
  std::uint64_t seed = 1;          // ticket, seed and data (porep_gen_params)
  std::uint64_t sector = 1;
  std::string prover_id = "1000";  // actor id or 64 hex digits
  std::string ticket, porep_seed;  // 64 hex digits each, overriding the seed's
  std::string out;                 // "" or "-": stdout
  std::string format = "json";     // json, curio, bincode
  std::string mode = "auto";       // auto, sealed, sparse
  bool no_check = false;
};

// gen-vanilla snap: synthetic SnapDeals vanilla proofs (no daemon).
struct GenSnapArgs {
  std::string sector_size, proof;  // one of them
  std::uint64_t seed = 1;          // the sealed sector (as porep_gen_params), the new data
  std::string out_dir;
};

int run_single(const Common& c, const SingleArgs& a);
int run_batch(const Common& c, const BatchArgs& a);
int run_stress(const Common& c, const StressArgs& a);
int run_status(const Common& c, bool json);
int run_preload(const Common& c, const std::string& circuit);
int run_evict(const Common& c, const std::string& circuit);
int run_cancel(const Common& c, const std::string& request_id);
int run_gen_vanilla_porep(const GenPorepArgs& a);
int run_gen_vanilla_snap(const GenSnapArgs& a);

}  // namespace cuzk::bench
