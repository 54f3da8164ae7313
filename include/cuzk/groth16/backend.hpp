// The prover backend interface. A backend computes the expensive, randomness-free part
// of a proof (a/b/c evaluation, the H polynomial, and the five MSMs); the assembly with
// alpha, beta, delta, r and s is shared (prover.hpp). The CUDA backend implements the
// same interface, so its results can be compared bit for bit with the CPU backend's.
#pragma once

#include <span>
#include <string_view>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/timings.hpp"

namespace cuzk::groth16 {

template <class E>
struct ProofTerms {
  typename E::G1 a;    // sum_j w_j * A_j
  typename E::G1 b1;   // sum_j w_j * B1_j
  typename E::G2 b2;   // sum_j w_j * B2_j
  typename E::G1 l;    // sum_{j > num_public} w_j * L_j
  typename E::G1 h;    // sum_i h_i * H_i
};

template <class E>
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // `witness` is the full assignment (w[0] = 1), already checked for length.
  virtual ProofTerms<E> compute(const ProvingKey<E>& pk, std::span<const typename E::Fr> witness,
                                PhaseTimings& timings) = 0;
};

}  // namespace cuzk::groth16
