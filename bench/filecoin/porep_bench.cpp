// Filecoin PoRep C2 timings (a plain main; see bench/RESULTS.md). Arguments after the mode in any
// order: a sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB; default 32GiB), a repetition count,
// flags.
//   porep_bench synth [SIZE] [REPS] [--all] [--no-record]
//       the CPU side of a C2 from a SYNTHETIC sparse C1 of the size's interactive V1_1 proof
//       (porep_vanilla_gen.hpp): the C1's filecoin-ffi JSON decoded and checked (what the daemon
//       does at submit); the circuit's size and its recording (record_porep_circuit, what the
//       daemon pays once per key load) with the value index of A and B; partition 0's witness
//       synthesized on every core (porep_witness_full: challenge steps in parallel, TBB) with the
//       public-input check, best of REPS (default 3), then where its time goes (the circuit from
//       the C1, a plain zeroed vector, porep_witness_into a caller's buffer); with --all every
//       partition once. --no-record skips the recording (a 32 GiB partition's R1CS with its
//       values takes 27 GiB; its size is printed first).
//   porep_bench gpu [SIZE] [REPS]   (CUDA builds) one partition proved on the GPU, end to end but
//       for the key's points (porep_gpu_bench.cpp); REPS default 2.
// CUZK_BENCH_THREADS limits the threads; the GPU layer's CUZK_* variables (gpu::tuning_from_environment,
// read by main) tune the device work.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/c1_circuit.hpp"
#include "cuzk/filecoin/porep_record.hpp"
#include "cuzk/filecoin/porep_witness.hpp"
#include "cuzk/gpu/tuning.hpp"
#include "porep_bench_util.hpp"

namespace cuzk::bench {

void run_porep_gpu_bench(filecoin::RegisteredSealProof proof, int reps, const gpu::Tuning& tuning);

namespace {

namespace fc = filecoin;
constexpr double kGiB = double(std::size_t{1} << 30);
constexpr double kMiB = double(std::size_t{1} << 20);

struct Args {
  std::string mode = "synth";
  std::string size = "32GiB";
  std::optional<int> reps;
  bool all = false, record = true;
};

Args parse_args(int argc, char** argv) {
  Args a;
  if (argc > 1) a.mode = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string s = argv[i];
    if (s == "--all") a.all = true;
    else if (s == "--no-record") a.record = false;
    else if (s.find_first_not_of("0123456789") == std::string::npos) a.reps = std::max(1, std::stoi(s));
    else if (!s.empty() && s[0] != '-') a.size = s;
    else throw std::invalid_argument("unknown argument " + s);
  }
  return a;
}

// The R1CS's bytes with its values: per term a column and a 32-byte value, per row of each
// matrix a row pointer.
double r1cs_gib(const fc::PorepCircuitSize& n) {
  return ((n.a_nnz + n.b_nnz + n.c_nnz) * (sizeof(fc::Fr) + 4.0) + 3.0 * (n.constraints + 1) * 8) / kGiB;
}

fc::PorepCircuitSize time_size(const fc::PorepShape& shape) {
  const auto t0 = std::chrono::steady_clock::now();
  const fc::PorepCircuitSize n = fc::porep_circuit_size(shape);
  std::printf("  circuit: %llu constraints, %llu variables (%llu public inputs), A/B/C %llu/%llu/%llu terms, R1CS "
              "%.1f GiB (porep_circuit_size: header + one challenge recorded, %.0f ms)\n",
              (unsigned long long)n.constraints, (unsigned long long)n.vars, (unsigned long long)n.public_inputs,
              (unsigned long long)n.a_nnz, (unsigned long long)n.b_nnz, (unsigned long long)n.c_nnz, r1cs_gib(n),
              ms_since(t0));
  return n;
}

void time_recording(const fc::PorepShape& shape, const fc::PorepCircuitSize& n) {
  auto t0 = std::chrono::steady_clock::now();
  r1cs::R1CS<fc::Fr> r = fc::record_porep_circuit(shape);
  const double record_ms = ms_since(t0);
  if (r.num_constraints != n.constraints || r.num_vars != n.vars || r.A.nnz() != n.a_nnz || r.B.nnz() != n.b_nnz ||
      r.C.nnz() != n.c_nnz)
    throw std::runtime_error("the recorded circuit does not have porep_circuit_size's counts");
  std::printf("  recorded (record_porep_circuit: header + one challenge, replicated) %9.1f ms\n", record_ms);
  t0 = std::chrono::steady_clock::now();
  const IndexedQap q = indexed_qap(std::move(r));
  std::printf("  A and B value-indexed with the binding rows (%zu + %zu distinct values) %9.1f ms\n", q.a.val_table.size(),
              q.b.val_table.size(), ms_since(t0));
}

void run_synth(fc::RegisteredSealProof proof, const Args& a) {
  const auto& info = fc::seal_proof_info(proof);
  const int reps = a.reps.value_or(3);
  std::printf("%s (SYNTHETIC sparse C1: an all-zero sector, challenged nodes only), %d threads\n",
              std::string(info.name).c_str(), bench_threads());
  const PorepInput in = porep_input(proof);
  std::printf("  C1 generated in %.0f ms; filecoin-ffi JSON %.1f MiB encoded in %.0f ms\n", in.generate_ms,
              in.json.size() / kMiB, in.encode_ms);
  double decode = 1e30, check = 1e30;
  std::optional<CheckedC1> c;
  for (int r = 0; r < reps; ++r) {
    c = decode_and_check(in);
    decode = std::min(decode, c->decode_ms);
    check = std::min(check, c->verify_ms);
  }
  std::printf("  submit: decode_c1 (JSON) %9.1f ms + verify_c1 (replica id included) %9.1f ms = %9.1f ms\n", decode,
              check, decode + check);
  const fc::PorepShape shape = fc::porep_shape_of(fc::c1_shape(proof));
  const fc::PorepCircuitSize n = time_size(shape);
  if (a.record) time_recording(shape, n);

  double synth = 1e30, inputs = 1e30;
  std::size_t vars = 0;
  bool match = true;
  for (int r = 0; r < reps; ++r) {
    const PorepPartitionWitness pw = porep_partition_witness(c->c1, 0);
    synth = std::min(synth, pw.synth_ms);
    inputs = std::min(inputs, pw.inputs_ms);
    vars = pw.w.size();
    if (vars != n.vars) throw std::runtime_error("the witness does not have the circuit's variables");
    match = match && pw.inputs_match;
  }
  std::printf("  partition 0: witness synthesized (%zu wires, %.2f GiB) %9.1f ms; public inputs derived %.1f ms: %s\n",
              vars, vars * 32.0 / kGiB, synth, inputs, match ? "the witness's are the verifier's" : "DIFFER");
  {
    // Where the time goes: the circuit from the C1, the value-initialized vector porep_witness_full
    // returns, and the synthesis into a caller's buffer (first touched by the writing threads, then
    // reused as a pool of buffers would be).
    auto t0 = std::chrono::steady_clock::now();
    const fc::StackedCircuit circuit = fc::c1_partition_circuit(c->c1, 0);
    const double build = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    std::optional<std::vector<fc::Fr>> zeroed(std::in_place, vars);
    const double alloc = ms_since(t0);
    zeroed.reset();
    std::unique_ptr<fc::Fr, decltype(&std::free)> buf(static_cast<fc::Fr*>(std::malloc(vars * sizeof(fc::Fr))),
                                                      &std::free);
    if (!buf) throw std::bad_alloc();
    double into[2];
    for (double& ms : into) {
      t0 = std::chrono::steady_clock::now();
      fc::porep_witness_into(circuit, std::span<fc::Fr>(buf.get(), vars));
      ms = ms_since(t0);
    }
    std::printf("  where it goes: circuit from the C1 %.1f ms; a plain zeroed %.2f GiB std::vector %.1f ms (the one "
                "porep_witness_full returns asks for huge pages, faulted in on every thread); porep_witness_into a "
                "caller's buffer %.1f ms (fresh pages), %.1f ms (reused)\n",
                build, vars * 32.0 / kGiB, alloc, into[0], into[1]);
  }
  if (a.all) {
    double total = synth;
    for (std::size_t k = 1; k < c->c1.partitions.size(); ++k) {
      const PorepPartitionWitness pw = porep_partition_witness(c->c1, k);
      std::printf("  partition %zu: %9.1f ms%s\n", k, pw.synth_ms, pw.inputs_match ? "" : " (public inputs DIFFER)");
      total += pw.synth_ms;
      match = match && pw.inputs_match;
    }
    std::printf("  all %zu partitions synthesized one after another: %.1f s (partition 0 best of %d, others once)\n",
                c->c1.partitions.size(), total / 1e3, reps);
  }
  std::printf("(best of %d)\n", reps);
  if (!match) throw std::runtime_error("a partition's public inputs are not those a verifier derives");
}

}  // namespace
}  // namespace cuzk::bench

int main(int argc, char** argv) {
  using namespace cuzk;
  return bench::bench_main("porep_bench synth|gpu [sector size, default 32GiB] [reps] [--all] [--no-record]", [&] {
    const bench::Args a = bench::parse_args(argc, argv);
    const filecoin::RegisteredSealProof proof = bench::porep_proof_of_size(a.size);
    if (a.mode == "synth") bench::run_synth(proof, a);
#ifdef CUZK_POREP_BENCH_GPU
    else if (a.mode == "gpu")
      bench::run_porep_gpu_bench(proof, a.reps.value_or(2), gpu::tuning_from_environment());
#endif
    else return false;
    return true;
  });
}
