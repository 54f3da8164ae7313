// Groth16 keys and proofs, generic over a pairing engine E (see pairing_engine.hpp).
//
// One proving-key shape serves both conventions that real users have:
//  - snarkjs (.zkey): H points are L^{(2n)}_{2i+1}(tau)/delta (n of them) and the prover
//    feeds the odd-coset evaluations of A*B-C without dividing by Z;
//  - bellperson (.params): H points are tau^i Z(tau)/delta (n-1 of them) and the prover
//    feeds the coefficients of h = (A*B-C)/Z.
// Both add the "public input binding" rows (A = x_j, B = C = 0 for j = 0..num_public)
// after the circuit's constraints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::groth16 {

enum class HConvention : std::uint8_t {
  kOddCoset,   // snarkjs / rapidsnark
  kZDivided,   // bellperson / supraseal
};

template <class E>
struct VerifyingKey {
  using G1Affine = typename E::G1Affine;
  using G2Affine = typename E::G2Affine;
  G1Affine alpha_g1;
  G1Affine beta_g1;   // bellperson and snarkjs carry it; the verifier does not need it
  G2Affine beta_g2;
  G2Affine gamma_g2;
  G1Affine delta_g1;
  G2Affine delta_g2;
  std::vector<G1Affine> ic;  // num_public + 1 points: (beta*u_j + alpha*v_j + w_j)(tau)/gamma

  std::size_t num_public() const { return ic.empty() ? 0 : ic.size() - 1; }
  bool operator==(const VerifyingKey&) const = default;
};

// Why a verifying key must not be used, or "" when it may. With gamma_g2 or delta_g2 at
// infinity its term of the equation vanishes and a forger picks a proof that verifies for any
// inputs; alpha_g1 or beta_g2 at infinity, likewise for e(alpha, beta). snarkjs refuses such keys.
template <class E>
std::string degenerate_vk_reason(const VerifyingKey<E>& vk) {
  const char* at_infinity = vk.alpha_g1.is_infinity()   ? "vk_alpha_1"
                            : vk.beta_g2.is_infinity()  ? "vk_beta_2"
                            : vk.gamma_g2.is_infinity() ? "vk_gamma_2"
                            : vk.delta_g2.is_infinity() ? "vk_delta_2"
                                                        : nullptr;
  if (at_infinity == nullptr) return {};
  return std::string(at_infinity) + " is the point at infinity: a degenerate key, under which forged proofs verify";
}

template <class E>
struct ProvingKey {
  using Fr = typename E::Fr;
  using G1Affine = typename E::G1Affine;
  using G2Affine = typename E::G2Affine;

  VerifyingKey<E> vk;
  HConvention h_convention = HConvention::kOddCoset;
  std::size_t num_vars = 0;         // wires, including wire 0 (the constant one)
  std::size_t domain_size = 0;      // n, a power of two >= constraints + num_public + 1
  std::vector<G1Affine> a_query;    // num_vars: u_j(tau)
  std::vector<G1Affine> b_g1_query; // num_vars: v_j(tau)
  std::vector<G2Affine> b_g2_query; // num_vars: v_j(tau)
  std::vector<G1Affine> l_query;    // num_vars - num_public - 1: (beta*u_j + alpha*v_j + w_j)(tau)/delta
  std::vector<G1Affine> h_query;    // n (odd coset) or n - 1 (Z-divided)

  // The QAP rows the prover evaluates: the circuit's constraints followed by the
  // binding rows. `c_stored` is false for snarkjs keys, which keep only A and B; the
  // prover then takes c_i = a_i * b_i on the domain (valid exactly for satisfying
  // witnesses, and every proof is verified before it is returned).
  r1cs::CsrMatrix<Fr> a;
  r1cs::CsrMatrix<Fr> b;
  r1cs::CsrMatrix<Fr> c;
  bool c_stored = true;

  std::size_t num_public() const { return vk.num_public(); }
};

template <class E>
struct Proof {
  typename E::G1Affine a;
  typename E::G2Affine b;
  typename E::G1Affine c;
  bool operator==(const Proof&) const = default;
};

}  // namespace cuzk::groth16
