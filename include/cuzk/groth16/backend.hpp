// The prover backend interface. A backend computes the expensive, randomness-free part
// of a proof (a/b/c evaluation, the H polynomial, and the five MSMs); the assembly with
// alpha, beta, delta, r and s is shared (prover.hpp). The CUDA backend implements the
// same interface, so its results can be compared bit for bit with the CPU backend's.
//
// One proving path: a backend computes k >= 1 proofs with one key in one call (a sector's
// partitions; a single proof is a batch of one), and implements only that call
// (compute_proofs). The witnesses' shape is checked once, at the library's boundary
// (check_witness_shape in groth16::prove and prove_batch); a backend never checks it again.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
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
  using Fr = typename E::Fr;
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;

  // k >= 1 proofs with one key: out[i] = the terms of witnesses[i], timed into timings[i].
  // All three spans have length k (otherwise, or for k = 0, std::invalid_argument). Each
  // witness is a full assignment (w[0] = 1) of pk's shape: the caller checked it
  // (check_witness_shape; groth16::prove and prove_batch do). The results are those of the
  // proofs one by one; a backend may share work between them (the CUDA backend uploads each
  // chunk of a streamed key's points once for the whole batch). A set cancel flag of any
  // proof ends the call (Cancelled).
  void compute(const ProvingKey<E>& pk, std::span<const std::span<const Fr>> witnesses,
               std::span<PhaseTimings> timings, std::span<ProofTerms<E>> out) {
    if (witnesses.empty()) throw std::invalid_argument("Backend::compute takes at least one witness");
    if (witnesses.size() != timings.size() || witnesses.size() != out.size())
      throw std::invalid_argument("Backend::compute takes one timings and one result per witness");
    compute_proofs(pk, witnesses, timings, out);
  }

  // One proof: the batch of one.
  ProofTerms<E> compute(const ProvingKey<E>& pk, std::span<const Fr> witness, PhaseTimings& timings) {
    ProofTerms<E> out;
    const std::span<const Fr> witnesses[1] = {witness};
    compute(pk, witnesses, std::span<PhaseTimings>(&timings, 1), std::span<ProofTerms<E>>(&out, 1));
    return out;
  }

 private:
  // What a backend implements: compute() once its spans are checked (k >= 1, one length).
  virtual void compute_proofs(const ProvingKey<E>& pk, std::span<const std::span<const Fr>> witnesses,
                              std::span<PhaseTimings> timings, std::span<ProofTerms<E>> out) = 0;
};

}  // namespace cuzk::groth16
