// The CPU prover backend: the reference every other backend is tested against. Its proofs
// run one after the other (nothing to share between them on the host).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/groth16/backend.hpp"
#include "cuzk/groth16/key_check.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/poly/h_poly.hpp"

namespace cuzk::groth16 {

template <class E>
class CpuBackend final : public Backend<E> {
 public:
  using Fr = typename E::Fr;
  std::string_view name() const override { return "cpu"; }

 private:
  void compute_proofs(const ProvingKey<E>& pk, std::span<const std::span<const Fr>> ws, std::span<PhaseTimings> ts,
                      std::span<ProofTerms<E>> out) override {
    check_key_shape(pk);
    for (std::size_t i = 0; i < ws.size(); ++i) out[i] = prove_one(pk, ws[i], ts[i]);
  }

  // One proof's terms; pk's shape checked (check_key_shape), w's by the caller.
  static ProofTerms<E> prove_one(const ProvingKey<E>& pk, std::span<const Fr> w, PhaseTimings& t) {
    const std::size_t n = pk.domain_size, rows = pk.a.num_rows(), np = pk.num_public();
    std::vector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), c(n, Fr::zero());
    // The classic H takes c = a.b itself (compute_h_classic_ab): no c here, c is its scratch.
    const bool classic = pk.h_convention == HConvention::kZDivided;
    {
      ScopedPhase p(t, "eval_abc");
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          a[i] = pk.a.dot_row(i, w);
          b[i] = pk.b.dot_row(i, w);
          if (!classic) c[i] = pk.c_stored ? pk.c.dot_row(i, w) : a[i] * b[i];
        }
      });
    }
    {
      ScopedPhase p(t, "h_poly");
      const poly::EvaluationDomain<Fr> d(n);
      if (classic) poly::compute_h_classic_ab_inplace(d, a, b, c);
      else poly::compute_h_snarkjs_inplace(d, a, b, c);
    }
    // Witnesses are mostly 0/1 (bits of hashes): the split path adds the points of
    // 1-scalars directly and runs Pippenger on the rest only.
    ProofTerms<E> out;
    {
      ScopedPhase p(t, "msm_h");
      out.h = msm::msm<typename E::G1Curve>(pk.h_query, std::span<const Fr>(a).first(pk.h_query.size()));
    }
    {
      ScopedPhase p(t, "msm_a");
      out.a = msm::msm_split01<typename E::G1Curve>(pk.a_query, w);
    }
    {
      ScopedPhase p(t, "msm_b_g1");
      out.b1 = msm::msm_split01<typename E::G1Curve>(pk.b_g1_query, w);
    }
    {
      ScopedPhase p(t, "msm_b_g2");
      out.b2 = msm::msm_split01<typename E::G2Curve>(pk.b_g2_query, w);
    }
    {
      ScopedPhase p(t, "msm_l");
      out.l = msm::msm_split01<typename E::G1Curve>(pk.l_query, w.subspan(np + 1));
    }
    return out;
  }
};

}  // namespace cuzk::groth16
