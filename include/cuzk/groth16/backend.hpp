// The prover backend interface. A backend computes the expensive, randomness-free part
// of a proof (a/b/c evaluation, the H polynomial, and the five MSMs); the assembly with
// alpha, beta, delta, r and s is shared (prover.hpp). The CUDA backend implements the
// same interface, so its results can be compared bit for bit with the CPU backend's.
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
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // `witness` is the full assignment (w[0] = 1), already checked for length.
  virtual ProofTerms<E> compute(const ProvingKey<E>& pk, std::span<const typename E::Fr> witness,
                                PhaseTimings& timings) = 0;
  // Several proofs with one key (a sector's partitions): out[i] = the terms of witnesses[i],
  // timed into timings[i] (all three spans of one length). The same results as compute() one
  // by one, which is what this default does; a backend may share work between them (the CUDA
  // backend uploads each chunk of a streamed key's points once for the whole batch). A set
  // cancel flag of any proof ends the batch (Cancelled).
  virtual void compute_batch(const ProvingKey<E>& pk, std::span<const std::span<const typename E::Fr>> witnesses,
                             std::span<PhaseTimings> timings, std::span<ProofTerms<E>> out) {
    if (witnesses.size() != timings.size() || witnesses.size() != out.size())
      throw std::invalid_argument("compute_batch takes one timings and one result per witness");
    for (std::size_t i = 0; i < witnesses.size(); ++i) out[i] = compute(pk, witnesses[i], timings[i]);
  }
};

}  // namespace cuzk::groth16
