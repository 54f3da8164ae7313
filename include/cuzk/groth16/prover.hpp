// Groth16 prove: checks the inputs, lets a backend compute the proof terms, and
// assembles the proof with fresh randomness r, s.
//   A  = alpha1 + sum w_j A_j + r delta1
//   B  = beta2  + sum w_j B2_j + s delta2        (B1 likewise in G1)
//   C  = sum_{j>l} w_j L_j + sum h_i H_i + s A + r B1 - r s delta1
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/groth16/backend.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::groth16 {

// The library's one check of a witness against its key (prove, prove_batch; the backends
// below rely on it and do not check again).
template <class E>
void check_witness_shape(const ProvingKey<E>& pk, std::span<const typename E::Fr> witness) {
  if (witness.size() != pk.num_vars)
    throw std::invalid_argument("witness has " + std::to_string(witness.size()) + " values but the key expects " +
                                std::to_string(pk.num_vars));
  if (witness.empty() || !witness[0].is_one()) throw std::invalid_argument("witness[0] must be 1 (the constant wire)");
}

template <class E>
Proof<E> assemble_proof(const ProvingKey<E>& pk, const ProofTerms<E>& t, const typename E::Fr& r,
                        const typename E::Fr& s) {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  const auto& vk = pk.vk;
  const G1 delta1 = G1::from_affine(vk.delta_g1);
  const G1 a = t.a.add_mixed(vk.alpha_g1) + delta1 * r;
  const G2 b = t.b2.add_mixed(vk.beta_g2) + G2::from_affine(vk.delta_g2) * s;
  const G1 b1 = t.b1.add_mixed(vk.beta_g1) + delta1 * s;
  const G1 c = t.l + t.h + a * s + b1 * r - delta1 * (r * s);
  return Proof<E>{a.to_affine(), b.to_affine(), c.to_affine()};
}

// Proves with the given randomness (tests and reproducible benchmarks).
template <class E>
Proof<E> prove_with_randomness(const ProvingKey<E>& pk, std::span<const typename E::Fr> witness, Backend<E>& backend,
                               const typename E::Fr& r, const typename E::Fr& s, PhaseTimings& timings) {
  check_witness_shape(pk, witness);
  ProofTerms<E> terms = backend.compute(pk, witness, timings);
  ScopedPhase phase(timings, "assemble");
  return assemble_proof(pk, terms, r, s);
}

// A scalar drawn from the operating system's random source (getrandom(2) on Linux).
template <class Fr>
Fr os_random_scalar() {
  std::random_device dev;
  struct DevRng {
    std::random_device& d;
    using result_type = std::uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type{0}; }
    result_type operator()() { return (std::uint64_t{d()} << 32) | d(); }
  } rng{dev};
  return Fr::random(rng);
}

// Proves with r, s drawn from the operating system's random source.
template <class E>
Proof<E> prove(const ProvingKey<E>& pk, std::span<const typename E::Fr> witness, Backend<E>& backend,
               PhaseTimings& timings) {
  using Fr = typename E::Fr;
  const Fr r = os_random_scalar<Fr>();
  const Fr s = os_random_scalar<Fr>();
  return prove_with_randomness(pk, witness, backend, r, s, timings);
}

// Several proofs with one key (one Backend::compute: a backend may share work between
// them), each with its own r, s; proof i of witnesses[i], timed into timings[i]. Not verified.
// No witnesses (and no timings): no proofs, the backend is not called.
template <class E>
std::vector<Proof<E>> prove_batch(const ProvingKey<E>& pk, std::span<const std::span<const typename E::Fr>> witnesses,
                                  Backend<E>& backend, std::span<PhaseTimings> timings) {
  using Fr = typename E::Fr;
  for (const auto& w : witnesses) check_witness_shape(pk, w);
  if (witnesses.empty() && timings.empty()) return {};
  std::vector<ProofTerms<E>> terms(witnesses.size());
  backend.compute(pk, witnesses, timings, terms);
  std::vector<Proof<E>> proofs;
  proofs.reserve(terms.size());
  for (std::size_t i = 0; i < terms.size(); ++i) {
    ScopedPhase phase(timings[i], "assemble");
    proofs.push_back(assemble_proof(pk, terms[i], os_random_scalar<Fr>(), os_random_scalar<Fr>()));
  }
  return proofs;
}

// Proves and verifies before returning: a proof that fails verification (an unsatisfied
// witness, a corrupt key, a faulty device) is an error, never a result.
template <class E>
Proof<E> prove_verified(const ProvingKey<E>& pk, std::span<const typename E::Fr> witness, Backend<E>& backend,
                        PhaseTimings& timings) {
  Proof<E> proof = prove(pk, witness, backend, timings);
  ScopedPhase phase(timings, "verify");
  const std::size_t np = pk.num_public();
  if (!verify(pk.vk, proof, witness.subspan(1, np)))
    throw std::runtime_error("the proof does not verify: the witness does not satisfy the circuit, or the key is corrupt");
  return proof;
}

}  // namespace cuzk::groth16
