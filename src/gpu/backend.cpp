// CudaBackend and DeviceProvingKey (cuzk/gpu/backend.hpp). Plain C++ over the device
// APIs (msm.hpp, abc.hpp, ntt.hpp, field_ops.hpp).
#include "cuzk/gpu/backend.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/field_ops.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/groth16/key_check.hpp"
#include "cuzk/poly/generator.hpp"

namespace cuzk::gpu {

using groth16::HConvention;

template <class E>
struct DeviceKeyParts {
  using Fr = typename E::Fr;
  std::size_t num_vars = 0, num_public = 0, domain = 0, log_domain = 0, h_size = 0, l_size = 0, rows = 0;
  HConvention conv = HConvention::kOddCoset;
  bool c_stored = true;
  DeviceBuffer<typename E::G1Affine> a, b1, l, h;
  DeviceBuffer<typename E::G2Affine> b2;
  DeviceCsr<Fr> A, B, C;
  std::optional<NttPlan<Fr>> plan;
};

namespace {
std::size_t log2_of(std::size_t n) {
  std::size_t k = 0;
  while ((std::size_t{1} << k) < n) ++k;
  return k;
}
}  // namespace

template <class E>
std::size_t DeviceProvingKey<E>::estimate_bytes(const groth16::ProvingKey<E>& pk) {
  using Fr = typename E::Fr;
  std::size_t b = (pk.a_query.size() + pk.b_g1_query.size() + pk.l_query.size() + pk.h_query.size()) *
                      sizeof(typename E::G1Affine) +
                  pk.b_g2_query.size() * sizeof(typename E::G2Affine);
  b += DeviceCsr<Fr>::bytes(pk.a) + DeviceCsr<Fr>::bytes(pk.b) + (pk.c_stored ? DeviceCsr<Fr>::bytes(pk.c) : 0);
  b += std::max<std::size_t>(1, pk.domain_size / 2) * sizeof(Fr);  // NTT twiddles
  return b + (std::size_t{1} << 20);                                // allocation granularity
}

template <class E>
std::size_t DeviceProvingKey<E>::estimate_proof_scratch_bytes(const groth16::ProvingKey<E>& pk) {
  using Fr = typename E::Fr;
  using S = DeviceScalars<Fr>;
  const std::size_t nv = pk.num_vars, n = pk.domain_size, nh = pk.h_query.size(), nl = pk.l_query.size();
  const std::size_t tables = 8 * (2 * (std::size_t{1} << ((log2_of(n) + 1) / 2)) + 2) * sizeof(Fr);
  const std::size_t phase1 = 3 * n * sizeof(Fr) + tables + S::resident_bytes(nh) + S::build_scratch_bytes(n);
  const std::size_t msm = std::max({msm_scratch_bytes<typename E::G1Curve>(std::max(nh, nv)),
                                    msm_scratch_bytes<typename E::G2Curve>(nv)});
  const std::size_t phase2 = S::resident_bytes(nh) + S::resident_bytes(nv) + S::resident_bytes(nl) +
                             S::build_scratch_bytes(std::max(nv, nh)) + msm;
  return nv * sizeof(Fr) + std::max(phase1, phase2) + (std::size_t{16} << 20);
}

template <class E>
DeviceProvingKey<E>::DeviceProvingKey(const groth16::ProvingKey<E>& pk, int device)
    : device_(device), bytes_(estimate_bytes(pk)) {
  try {
    groth16::check_key_shape(pk);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("gpu: ") + e.what());
  }
  DeviceGuard guard(device);
  auto p = std::make_unique<DeviceKeyParts<E>>();
  p->num_vars = pk.num_vars;
  p->num_public = pk.num_public();
  p->domain = pk.domain_size;
  p->log_domain = log2_of(pk.domain_size);
  p->h_size = pk.h_query.size();
  p->l_size = pk.l_query.size();
  p->rows = pk.a.num_rows();
  p->conv = pk.h_convention;
  p->c_stored = pk.c_stored;
  using G1A = typename E::G1Affine;
  p->a = DeviceBuffer<G1A>(std::span<const G1A>(pk.a_query));
  p->b1 = DeviceBuffer<G1A>(std::span<const G1A>(pk.b_g1_query));
  p->l = DeviceBuffer<G1A>(std::span<const G1A>(pk.l_query));
  p->h = DeviceBuffer<G1A>(std::span<const G1A>(pk.h_query));
  p->b2 = DeviceBuffer<typename E::G2Affine>(std::span<const typename E::G2Affine>(pk.b_g2_query));
  p->A = DeviceCsr<typename E::Fr>(pk.a);
  p->B = DeviceCsr<typename E::Fr>(pk.b);
  if (pk.c_stored) p->C = DeviceCsr<typename E::Fr>(pk.c);
  p->plan.emplace(p->log_domain);
  device_synchronize();
  parts_ = std::move(p);
}

template <class E>
DeviceProvingKey<E>::~DeviceProvingKey() {
  try {
    DeviceGuard guard(device_);
    parts_.reset();
  } catch (...) {
    parts_.reset();
  }
}

template <class E>
bool DeviceProvingKey<E>::matches(const groth16::ProvingKey<E>& pk) const {
  const auto& p = *parts_;
  return p.num_vars == pk.num_vars && p.num_public == pk.num_public() && p.domain == pk.domain_size &&
         p.h_size == pk.h_query.size() && p.l_size == pk.l_query.size() && p.rows == pk.a.num_rows() &&
         p.conv == pk.h_convention && p.c_stored == pk.c_stored;
}

template <class E>
groth16::ProofTerms<E> CudaBackend<E>::compute(const groth16::ProvingKey<E>& pk, std::span<const Fr> w,
                                               groth16::PhaseTimings& t) {
  using groth16::ScopedPhase;
  using G1C = typename E::G1Curve;
  using G2C = typename E::G2Curve;
  std::unique_ptr<DeviceProvingKey<E>> own;
  const DeviceProvingKey<E>* key = key_;
  if (key == nullptr) {
    ScopedPhase p(t, "upload_key");
    own = std::make_unique<DeviceProvingKey<E>>(pk, device_);
    key = own.get();
  } else if (!key->matches(pk)) {
    throw std::invalid_argument("gpu: CudaBackend: the proving key differs from the resident key");
  }
  if (w.size() != pk.num_vars)
    throw std::invalid_argument("gpu: witness has " + std::to_string(w.size()) + " values but the key expects " +
                                std::to_string(pk.num_vars));
  DeviceGuard guard(key->device());
  const DeviceKeyParts<E>& K = key->parts();
  const std::size_t n = K.domain;
  groth16::ProofTerms<E> out;
  DeviceBuffer<Fr> dw;
  std::optional<DeviceScalars<Fr>> hs;
  {
    DeviceBuffer<Fr> abc(3 * n);
    Fr* a = abc.data();
    Fr* b = a + n;
    Fr* c = b + n;
    {
      ScopedPhase p(t, "transfer_witness");  // host -> device, synchronous
      dw = DeviceBuffer<Fr>(w);
    }
    {
      ScopedPhase p(t, "eval_abc");
      eval_rows_device<Fr>(K.A, dw.data(), a, n);
      eval_rows_device<Fr>(K.B, dw.data(), b, n);
      if (K.c_stored) eval_rows_device<Fr>(K.C, dw.data(), c, n);
      else field_op_device<Fr>(FieldOp::kMul, a, b, c, n);
      device_synchronize();
    }
    {
      ScopedPhase p(t, "h_poly");
      if (K.conv == HConvention::kOddCoset) compute_h_snarkjs_device<Fr>(*K.plan, a, b, c);
      else compute_h_classic_device<Fr>(*K.plan, a, b, c, poly::multiplicative_generator<Fr>());
      hs.emplace(DeviceScalars<Fr>::from_device(a, K.h_size));
    }
  }
  {
    ScopedPhase p(t, "msm_h");
    out.h = msm<G1C>(K.h, *hs);
  }
  hs.reset();
  {
    const auto ws = DeviceScalars<Fr>::from_device(dw.data(), K.num_vars);
    {
      ScopedPhase p(t, "msm_a");
      out.a = msm<G1C>(K.a, ws);
    }
    {
      ScopedPhase p(t, "msm_b_g1");
      out.b1 = msm<G1C>(K.b1, ws);
    }
    {
      ScopedPhase p(t, "msm_b_g2");
      out.b2 = msm<G2C>(K.b2, ws);
    }
  }
  {
    ScopedPhase p(t, "msm_l");
    const auto ls = DeviceScalars<Fr>::from_device(dw.data() + K.num_public + 1, K.l_size);
    out.l = msm<G1C>(K.l, ls);
  }
  return out;
}

template class DeviceProvingKey<groth16::Bls12_381>;
template class DeviceProvingKey<groth16::Bn254>;
template class CudaBackend<groth16::Bls12_381>;
template class CudaBackend<groth16::Bn254>;

}  // namespace cuzk::gpu
