// groth16_fixture: writes a benchmark circuit's .r1cs, .wtns and a test-setup .zkey, so
// that cuzk and snarkjs can prove the same statement with the same key.
//   groth16_fixture <bn128|bls12381> <log2 domain> <out dir> [mulchain|sha256]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/r1cs/circom_r1cs.hpp"
#include "cuzk/r1cs/wtns.hpp"

namespace {
using namespace cuzk;

double secs_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class E>
int make(std::size_t log_n, const std::filesystem::path& dir) {
  using Fr = typename E::Fr;
  // MulChain(n) has n + 1 constraints and 1 public input: n + 1 + 1 + 1 rows fit 2^log_n.
  const std::size_t n = (std::size_t{1} << log_n) - 3;
  const gadgets::circuits::MulChain<Fr> circuit{n, 2026};
  auto t0 = std::chrono::steady_clock::now();
  const r1cs::R1CS<Fr> cs = cs::record<Fr>(circuit);
  const std::vector<Fr> w = cs::witness<Fr>(circuit).full();
  std::fprintf(stderr, "circuit: %u constraints, %u wires (%.1f s)\n", cs.num_constraints, cs.num_vars, secs_since(t0));
  t0 = std::chrono::steady_clock::now();
  const groth16::ProvingKey<E> pk = groth16::setup<E>(cs, groth16::HConvention::kOddCoset, 7);
  std::fprintf(stderr, "setup: domain %zu (%.1f s)\n", pk.domain_size, secs_since(t0));
  std::filesystem::create_directories(dir);
  r1cs::write_r1cs_file(dir / "circuit.r1cs", cs);
  r1cs::write_wtns_file<Fr>(dir / "circuit.wtns", std::span<const Fr>(w));
  groth16::write_zkey_file<E>(dir / "circuit.zkey", pk);
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s <bn128|bls12381> <log2 domain> <out dir>\n", argv[0]);
    return 2;
  }
  const std::string curve = argv[1];
  const std::size_t log_n = std::stoul(argv[2]);
  if (log_n < 3 || log_n > 26) {
    std::fprintf(stderr, "log2 domain must be in 3..26\n");
    return 2;
  }
  if (curve == "bn128") return make<groth16::Bn254>(log_n, argv[3]);
  if (curve == "bls12381") return make<groth16::Bls12_381>(log_n, argv[3]);
  std::fprintf(stderr, "unknown curve %s\n", curve.c_str());
  return 2;
}
