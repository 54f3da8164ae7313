// cuzk-prover <circuit.zkey> <witness.wtns> <proof.json> <public.json>
//
// A drop-in for rapidsnark's `prover`: the same four arguments and exit status (0: the proof and
// public inputs were written; 1: wrong arguments, a missing or malformed file, or a witness that
// does not satisfy the circuit, with the reason on stderr). It proves through the proving engine
// in this process, the daemon's path: on the GPU when this build has CUDA and the machine a GPU it
// runs on, else on the CPU. The proof is verified before anything is written, and each file is
// written whole or not at all (a temporary file renamed over it).
//
// $CUZK_PROVER_BACKEND = auto (default) | cpu | cuda chooses the backend; cuda fails rather than
// fall back to the CPU. $CUZK_PROVER_VERBOSE = 1 prints the backend and the phase timings.
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "files.hpp"
#include "in_process_prove.hpp"

namespace {

constexpr const char* kUsage = "Usage: cuzk-prover <circuit.zkey> <witness.wtns> <proof.json> <public.json>\n";

std::ifstream open_input(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot open the ") + what + " " + path + ": " + std::strerror(errno));
  return in;
}

std::string read_file(const std::string& path, const char* what) {
  std::ifstream in = open_input(path, what);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")) {
    std::cout << kUsage;
    return EXIT_SUCCESS;
  }
  if (argc != 5) {
    std::cerr << "Invalid number of parameters:\n" << kUsage;
    return EXIT_FAILURE;
  }
  const std::string zkey = argv[1], wtns = argv[2], proof = argv[3], pub = argv[4];
  spdlog::set_level(spdlog::level::err);  // the engine's progress lines; errors come back in the result
  try {
    const auto backend = cuzk::prover::parse_backend_choice(env("CUZK_PROVER_BACKEND"), "CUZK_PROVER_BACKEND");
    const bool verbose = env("CUZK_PROVER_VERBOSE") == "1";
    (void)open_input(zkey, "proving key");  // the engine maps it
    cuzk::prover::InProcessProof p = cuzk::prover::prove_in_process(zkey, read_file(wtns, "witness"), wtns,
                                                                     cuzk::prover::plan_backend(backend));
    cuzk::cli::write_text_file(proof, p.proof_json + "\n");
    cuzk::cli::write_text_file(pub, p.public_json + "\n");
    if (!p.warning.empty()) std::cerr << "warning: " << p.warning << "\n";
    if (verbose) {
      for (const auto& n : p.notes) std::cerr << n << "\n";
      cuzk::prover::print_phases("proved and verified on the " + p.backend + " backend", p.timings);
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
