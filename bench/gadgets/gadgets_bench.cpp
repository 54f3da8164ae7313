// Benchmark of the constraint-system layer on the four benchmark circuits (issue 4):
// constraints, wires, fraction of 0/1 witness values, synthesis time in every mode (record,
// witness-only on 1 thread and on all threads across challenges, check), CSR bytes, and the
// on-disk CSR cache (write size, load time). Also prints how porep-like maps onto a 2^27 domain.
//
//   gadgets_bench [--max-log K] [--min-log K] [--threads T] [--cache-dir DIR] [--only NAME] [--reps R]
//                 [--porep-nodes N] [--porep-layers L] [--porep-parents P]
// Times are the best of --reps runs (at least 3 for rows whose record takes < 0.5 s).
//
// Sizes are targets 2^min-log .. 2^max-log constraints (step 2); a circuit's parameters are chosen
// (with a counting pass, no values) to come as close as its granularity allows. Defaults run in
// well under a minute on a 2-core machine; --max-log 27 generates the full-size systems.
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "count_cs.hpp"
#include "cuzk/cs/r1cs_cache.hpp"
#include "cuzk/ff/fields.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "cuzk/gadgets/circuits/porep_like.hpp"
#include "cuzk/gadgets/circuits/poseidon_merkle.hpp"
#include "cuzk/gadgets/circuits/sha256_merkle.hpp"

namespace {
using namespace cuzk;
using F = ff::bls12_381::Fr;
using namespace gadgets::circuits;
namespace fs = std::filesystem;

struct Opts {
  int min_log = 12, max_log = 18, threads = 0, reps = 1;
  std::string only;
  fs::path cache_dir = fs::temp_directory_path() / "cuzk_csr_cache";
  // porep-like full shape: 32 GiB sector (2^30 nodes), 11 layers, 6 base + 8 expander parents.
  std::size_t porep_nodes = 30, porep_layers = 11, porep_parents = 14;
};

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
template <class Fn>
double best_of(int reps, Fn&& fn) {
  double best = 1e300;
  for (int i = 0; i < reps; ++i) {
    const double t0 = now_s();
    fn();
    best = std::min(best, now_s() - t0);
  }
  return best;
}

std::size_t csr_bytes(const r1cs::R1CS<F>& r) {
  std::size_t b = 0;
  for (const auto* m : {&r.A, &r.B, &r.C}) b += m->row_ptr.size() * 8 + m->nnz() * (4 + sizeof(F));
  return b;
}
std::size_t nnz(const r1cs::R1CS<F>& r) { return r.A.nnz() + r.B.nnz() + r.C.nnz(); }

double frac01(const cs::Assignment<F>& a) {
  std::size_t n = 0, k = 0;
  for (const auto* v : {&a.inputs, &a.aux})
    for (const auto& x : *v) {
      ++n;
      k += x.is_zero() || x.is_one();
    }
  return n ? double(k) / double(n) : 0.0;
}

std::string human(double b) {
  const char* u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (b >= 1024 && i < 4) b /= 1024, ++i;
  char s[32];
  std::snprintf(s, sizeof s, "%.1f %s", b, u[i]);
  return s;
}

void header() {
  std::printf("| circuit | shape | constraints | wires | nnz | 0/1 frac | record s | witness 1T s | witness %dT s | check s "
              "| cache write s | cache load s (CPU s) | CSR bytes | cache file | rec/wit 1T | rec/wit %dT |\n",
              tbb::info::default_concurrency(), tbb::info::default_concurrency());
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
}

// Runs every mode on one circuit instance and prints a Markdown table row.
template <class Circuit>
void measure(const Opts& o, const char* name, const std::string& shape, const Circuit& c) {
  std::fflush(stdout);
  r1cs::R1CS<F> r;
  double t_rec = best_of(1, [&] { r = cs::record<F>(c); });
  const int reps = t_rec < 0.5 ? std::max(o.reps, 3) : o.reps;  // small rows: best of 3
  if (reps > 1) t_rec = std::min(t_rec, best_of(reps - 1, [&] { r = cs::record<F>(c); }));
  cs::Assignment<F> w1, wn;
  const double t_w1 = best_of(reps, [&] { w1 = cs::witness<F>(c); });
  double t_wn = t_w1;
  if constexpr (ChallengeCircuit<Circuit, F>) t_wn = best_of(reps, [&] { wn = parallel_witness<F>(c); });
  else wn = w1;
  const double t_chk = best_of(reps, [&] {
    if (cs::check<F>(c)) std::printf("!! %s: check mode found an unsatisfied constraint\n", name);
  });
  if (!(w1.inputs == wn.inputs && w1.aux == wn.aux)) std::printf("!! %s: parallel witness differs\n", name);
  if (w1.inputs.size() + w1.aux.size() != r.num_vars) std::printf("!! %s: wire count mismatch\n", name);
  // Cache: write once (miss), then time a hit.
  const std::string id = std::string(name) + "/" + shape;
  fs::create_directories(o.cache_dir);
  const double t_write = best_of(1, [&] { cs::write_csr_cache<F>(cs::csr_cache_path<F>(o.cache_dir, id), id, r); });
  cs::CacheOutcome oc;
  r1cs::R1CS<F> loaded;
  const std::clock_t cpu0 = std::clock();
  const double t_load = best_of(reps, [&] { loaded = cs::cached_record<F>(o.cache_dir, id, c, &oc); });
  const double cpu_load = double(std::clock() - cpu0) / CLOCKS_PER_SEC / reps;  // wall may be disk-bound
  if (!oc.hit || !(loaded.A == r.A && loaded.B == r.B && loaded.C == r.C)) std::printf("!! %s: cache mismatch\n", name);
  const auto file = fs::file_size(oc.path);
  fs::remove(oc.path);
  std::printf("| %s | %s | %u (2^%.2f) | %u | %zu | %.4f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f (%.3f) | %s | %s | %.1f | %.1f |\n", name,
              shape.c_str(), r.num_constraints, std::log2(double(r.num_constraints)), r.num_vars, nnz(r), frac01(w1),
              t_rec, t_w1, t_wn, t_chk, t_write, t_load, cpu_load, human(double(csr_bytes(r))).c_str(), human(double(file)).c_str(),
              t_rec / t_w1, t_rec / t_wn);
  std::fflush(stdout);
}

template <bool kTerms = false, class Circuit>
bench::Count count_of(const Circuit& c) {
  bench::CountCS<F, kTerms> k;
  c.synthesize(k);
  return k.count();
}

// The most challenges (at least 1) whose constraints + public inputs fit a domain of `target`.
std::size_t challenges_for(double target, const bench::Count& one) {
  return std::max<std::size_t>(1, static_cast<std::size_t>((target - 1) / double(one.constraints + one.inputs - 1)));
}

void run_mul_chain(const Opts& o, int k) {
  const std::size_t n = (std::size_t{1} << k) - 3;  // n + 1 constraints + 2 inputs = 2^k
  measure(o, "mul-chain", "n=" + std::to_string(n), MulChain<F>{n, 1});
}
void run_poseidon(const Opts& o, int k) {
  // depth 10 = 8^10 = 2^30 leaves (a 32 GiB sector's octree), smaller for tiny targets.
  const double target = std::ldexp(1.0, k);
  std::size_t depth = 10;
  while (depth > 1 && double(count_of(PoseidonMerkle<F>(depth, 1, 1)).constraints) > target) --depth;
  const auto ch = challenges_for(target, count_of(PoseidonMerkle<F>(depth, 1, 1)));
  measure(o, "poseidon-merkle", "depth=" + std::to_string(depth) + ",challenges=" + std::to_string(ch),
          PoseidonMerkle<F>(depth, ch, 1));
}
void run_sha(const Opts& o, int k) {
  const double target = std::ldexp(1.0, k);
  std::size_t depth = 30;  // 2^30 leaves
  while (depth > 1 && double(count_of(Sha256Merkle<F>(depth, 1, 1)).constraints) > target) --depth;
  const auto ch = challenges_for(target, count_of(Sha256Merkle<F>(depth, 1, 1)));
  measure(o, "sha256-merkle", "depth=" + std::to_string(depth) + ",challenges=" + std::to_string(ch),
          Sha256Merkle<F>(depth, ch, 1));
}
std::string porep_shape(std::size_t nodes, std::size_t ch, std::size_t layers, std::size_t parents) {
  return "log2_nodes=" + std::to_string(nodes) + ",challenges=" + std::to_string(ch) + ",layers=" + std::to_string(layers) +
         ",parents=" + std::to_string(parents);
}
void run_porep(const Opts& o, int k) {
  // The full shape when four challenges fit the target (so that there is something to run in
  // parallel), else a reduced one (fewer parents, then layers, then nodes).
  const double target = std::ldexp(1.0, k);
  const double per_target = k >= 26 ? target : target / 4;
  std::size_t nodes = o.porep_nodes, layers = o.porep_layers, parents = o.porep_parents;
  auto per = [&] { return count_of(PorepLike<F>(nodes, 1, layers, parents, 1)).constraints; };
  const std::size_t kLayers[] = {11, 8, 4, 2};
  for (std::size_t li = 0; double(per()) > per_target && li < 4;) {
    if (parents > 1) parents = std::max<std::size_t>(1, parents / 2);
    else if (layers > 2) layers = kLayers[++li];
    else if (nodes > 1) nodes = std::max<std::size_t>(1, nodes / 2);
    else break;
  }
  const auto ch = challenges_for(target, count_of(PorepLike<F>(nodes, 1, layers, parents, 1)));
  measure(o, "porep-like", porep_shape(nodes, ch, layers, parents), PorepLike<F>(nodes, ch, layers, parents, 1));
}

// How the full porep-like shape fills a 2^27 domain (constraints + public inputs <= 2^27).
void porep_plan(const Opts& o) {
  const auto one = count_of<true>(PorepLike<F>(o.porep_nodes, 1, o.porep_layers, o.porep_parents, 1));
  const auto two = count_of<true>(PorepLike<F>(o.porep_nodes, 2, o.porep_layers, o.porep_parents, 1));
  const std::size_t per_c = two.constraints - one.constraints, per_in = two.inputs - one.inputs;
  const std::size_t domain = std::size_t{1} << 27;
  const std::size_t ch = domain / (per_c + per_in);
  std::printf("porep-like full shape (%s): %zu constraints, %zu aux, %zu public inputs per challenge\n",
              porep_shape(o.porep_nodes, 1, o.porep_layers, o.porep_parents).c_str(), per_c, two.aux - one.aux, per_in);
  std::printf("  2^27 domain (%zu): %zu challenges -> %zu constraints + %zu inputs (%.1f%% of the domain), "
              "~%zu wires, witness %s, CSR <= %s\n",
              domain, ch, ch * per_c, 1 + ch * per_in, 100.0 * double(ch * (per_c + per_in)) / double(domain),
              1 + ch * (two.aux - one.aux + per_in), human(double(ch * (two.aux - one.aux + per_in) * sizeof(F))).c_str(),
              human(double(ch * (per_c * 3 * 8 + (two.nnz - one.nnz) * (4 + sizeof(F))))).c_str());
  std::printf("  (Filecoin 32 GiB PoRep partition: 18 challenges, ~130M constraints)\n\n");
  std::fflush(stdout);
}

Opts parse(int argc, char** argv) {
  Opts o;
  for (int i = 1; i < argc; ++i) {
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(std::string("missing value after ") + argv[i]);
      return argv[++i];
    };
    const std::string a = argv[i];
    if (a == "--max-log") o.max_log = std::stoi(val());
    else if (a == "--min-log") o.min_log = std::stoi(val());
    else if (a == "--threads") o.threads = std::stoi(val());
    else if (a == "--reps") o.reps = std::stoi(val());
    else if (a == "--only") o.only = val();
    else if (a == "--cache-dir") o.cache_dir = val();
    else if (a == "--porep-nodes") o.porep_nodes = std::stoul(val());
    else if (a == "--porep-layers") o.porep_layers = std::stoul(val());
    else if (a == "--porep-parents") o.porep_parents = std::stoul(val());
    else throw std::invalid_argument("unknown option " + a + " (see the comment at the top of gadgets_bench.cpp)");
  }
  if (o.min_log < 1 || o.max_log > 28 || o.min_log > o.max_log) throw std::invalid_argument("need 1 <= --min-log <= --max-log <= 28");
  return o;
}
}  // namespace

int main(int argc, char** argv) try {
  const Opts o = parse(argc, argv);
  std::unique_ptr<tbb::global_control> gc;
  if (o.threads > 0) gc = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, o.threads);
  std::printf("BLS12-381 Fr, %d threads, sizes 2^%d..2^%d, cache %s\n\n", tbb::info::default_concurrency(), o.min_log,
              o.max_log, o.cache_dir.string().c_str());
  porep_plan(o);
  header();
  struct C {
    const char* name;
    void (*run)(const Opts&, int);
    int min_k;  // smallest meaningful target (one SHA-256 compression is ~45k constraints)
  };
  const C circuits[] = {{"mul-chain", run_mul_chain, 2},
                        {"poseidon-merkle", run_poseidon, 12},
                        {"sha256-merkle", run_sha, 17},
                        {"porep-like", run_porep, 18}};
  for (const auto& c : circuits) {
    if (!o.only.empty() && o.only != c.name) continue;
    for (int k = std::max(o.min_log, c.min_k); k <= o.max_log; k += 2) c.run(o, k);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "gadgets_bench: %s\n", e.what());
  return 1;
}
