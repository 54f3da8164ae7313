// DeviceProvingKey (cuzk/gpu/backend.hpp): VRAM estimates, the upload in either placement,
// the streamed chunk size for a VRAM figure.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/staged_upload.hpp"
#include "cuzk/groth16/key_check.hpp"
#include "device_key_parts.hpp"

namespace cuzk::gpu {

namespace {
std::size_t log2_of(std::size_t n) {
  std::size_t k = 0;
  while ((std::size_t{1} << k) < n) ++k;
  return k;
}

template <class E>
std::size_t longest_points(const groth16::ProvingKey<E>& pk) {
  return std::max({pk.a_query.size(), pk.b_g1_query.size(), pk.b_g2_query.size(), pk.l_query.size(),
                   pk.h_query.size(), std::size_t{1}});
}

template <class E>
std::size_t resolve_chunk(const groth16::ProvingKey<E>& pk, std::size_t chunk) {
  const std::size_t c = chunk == 0 ? DeviceProvingKey<E>::kDefaultStreamChunk : chunk;
  return std::min(c, longest_points(pk));
}

// A device copy of host points, through the uploader (straight from registered memory,
// else staged); complete once the uploader is synchronised.
template <class T>
DeviceBuffer<T> upload_points(const std::vector<T>& host, StagedUploader& up) {
  DeviceBuffer<T> d(host.size());
  up.upload(d.data(), host.data(), host.size() * sizeof(T));
  return d;
}

void check_placement(KeyPlacement p) {
  if (p != KeyPlacement::kResident && p != KeyPlacement::kStreamPoints)
    throw std::invalid_argument("gpu: unknown key placement " + std::to_string(static_cast<int>(p)));
}
}  // namespace

template <class E>
std::size_t DeviceProvingKey<E>::estimate_bytes(const groth16::ProvingKey<E>& pk, KeyPlacement p, std::size_t) {
  using Fr = typename E::Fr;
  check_placement(p);
  std::size_t b = std::max<std::size_t>(1, pk.domain_size / 2) * sizeof(Fr);  // NTT twiddles
  if (p == KeyPlacement::kResident)  // streamed: the matrices and points stay in host memory
    b += DeviceCsr<Fr>::bytes(pk.a) + DeviceCsr<Fr>::bytes(pk.b) +
         (c_resident_for(pk) ? DeviceCsr<Fr>::bytes(pk.c) : 0) +
         (pk.a_query.size() + pk.b_g1_query.size() + pk.l_query.size() + pk.h_query.size()) *
             sizeof(typename E::G1Affine) +
         pk.b_g2_query.size() * sizeof(typename E::G2Affine);
  return b + (std::size_t{1} << 20);  // allocation granularity
}

namespace {
// The MSM scratch of one streamed chunk of c points (either group).
template <class E>
std::size_t chunk_msm_scratch_bytes(std::size_t c) {
  return std::max(msm_scratch_bytes<typename E::G1Curve>(c), msm_scratch_bytes<typename E::G2Curve>(c));
}
}  // namespace

template <class E>
std::size_t DeviceProvingKey<E>::stream_chunk_bytes(std::size_t c) {
  return 2 * stream_buffer_bytes<E>(c) + chunk_msm_scratch_bytes<E>(c);
}

template <class E>
std::vector<const r1cs::CsrMatrix<typename E::Fr>*> DeviceProvingKey<E>::streamed_matrices(
    const groth16::ProvingKey<E>& pk) {
  std::vector<const r1cs::CsrMatrix<typename E::Fr>*> m{&pk.a, &pk.b};
  if (c_resident_for(pk)) m.push_back(&pk.c);
  return m;
}

template <class E>
std::size_t DeviceProvingKey<E>::stream_chunk_points(const groth16::ProvingKey<E>& pk, std::size_t vram_bytes) {
  if (stream_chunk_bytes(1) > vram_bytes)
    throw std::invalid_argument("gpu: " + std::to_string(vram_bytes) + " bytes of VRAM cannot hold even one streamed " +
                                "chunk (" + std::to_string(stream_chunk_bytes(1)) + " bytes for one point)");
  std::size_t lo = 1, hi = longest_points(pk);  // invariant: lo fits
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    if (stream_chunk_bytes(mid) <= vram_bytes) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

template <class E>
std::size_t DeviceProvingKey<E>::estimate_proof_scratch_bytes(const groth16::ProvingKey<E>& pk, KeyPlacement p,
                                                              std::size_t chunk_points) {
  using Fr = typename E::Fr;
  using S = DeviceScalars<Fr>;
  check_placement(p);
  const std::size_t nv = pk.num_vars, n = pk.domain_size, nh = pk.h_query.size(), nl = pk.l_query.size();
  const std::size_t tables = 8 * (2 * (std::size_t{1} << ((log2_of(n) + 1) / 2)) + 2) * sizeof(Fr);
  if (p == KeyPlacement::kStreamPoints) {
    // Cards with little memory: the matrices pass through the chunk buffers, H runs in two
    // arrays (compute_h_*_lean_device; then h alone through MSM H), and each chunk's scalars
    // are classified just before its MSM.
    // The MSM scratch exists only in the MSM phase, after the second array is freed.
    const std::size_t c = resolve_chunk(pk, chunk_points);
    const std::size_t h_phase = 2 * n * sizeof(Fr) + tables + 2 * sizeof(Fr);
    const std::size_t msm_phase =
        n * sizeof(Fr) + S::resident_bytes(c) + S::build_scratch_bytes(c) + chunk_msm_scratch_bytes<E>(c);
    return nv * sizeof(Fr) + 2 * stream_buffer_bytes<E>(c) + std::max(h_phase, msm_phase) + (std::size_t{16} << 20);
  }
  const std::size_t scalars = S::resident_bytes(nh) + S::resident_bytes(nv) + S::resident_bytes(nl);
  std::size_t phase1 = 3 * n * sizeof(Fr) + tables + S::resident_bytes(nh), phase2 = scalars;
  const std::size_t msm = std::max(
      {msm_scratch_bytes<typename E::G1Curve>(std::max(nh, nv)), msm_scratch_bytes<typename E::G2Curve>(nv)});
  phase1 += S::build_scratch_bytes(n);
  phase2 += S::build_scratch_bytes(std::max(nv, nh)) + msm;
  // The witness MSMs beside the H chain (CudaBackend::compute) hold one MSM scratch per side
  // thread through both phases, and their scalars from phase 1 on (phase 2 counts them).
  if (concurrent_witness_msms(nv, n, p)) {
    phase1 += S::resident_bytes(nv) + S::resident_bytes(nl) + kSideMsmThreads * msm;
    phase2 += kSideMsmThreads * msm;
  }
  return nv * sizeof(Fr) + std::max(phase1, phase2) + (std::size_t{16} << 20);
}

template <class E>
DeviceProvingKey<E>::DeviceProvingKey(const groth16::ProvingKey<E>& pk, int device, KeyPlacement placement,
                                      std::size_t chunk_points)
    : device_(device), bytes_(estimate_bytes(pk, placement, chunk_points)) {
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
  p->c_resident = c_resident_for(pk);
  p->placement = placement;
  if (placement == KeyPlacement::kResident) {
    StagedUploader up;
    p->a = upload_points(pk.a_query, up);
    p->b1 = upload_points(pk.b_g1_query, up);
    p->l = upload_points(pk.l_query, up);
    p->h = upload_points(pk.h_query, up);
    p->b2 = upload_points(pk.b_g2_query, up);
    up.synchronize();
  } else {
    p->chunk = resolve_chunk(pk, chunk_points);
    p->host_a = pk.a_query;
    p->host_b1 = pk.b_g1_query;
    p->host_l = pk.l_query;
    p->host_h = pk.h_query;
    p->host_b2 = pk.b_g2_query;
    const std::size_t cap = stream_buffer_bytes<E>(p->chunk);
    auto cut = [&](const r1cs::CsrMatrix<typename E::Fr>& m) {
      return HostCsr<typename E::Fr>{&m, plan_csr_chunks(m.row_ptr, cap, sizeof(typename E::Fr))};
    };
    p->host_A = cut(pk.a);
    p->host_B = cut(pk.b);
    if (p->c_resident) p->host_C = cut(pk.c);
  }
  if (placement == KeyPlacement::kResident) {
    p->A = DeviceCsr<typename E::Fr>(pk.a);
    p->B = DeviceCsr<typename E::Fr>(pk.b);
    if (p->c_resident) p->C = DeviceCsr<typename E::Fr>(pk.c);
  }
  p->plan.emplace(p->log_domain);
  stream_synchronize();
  parts_ = std::move(p);
}

template <class E>
DeviceProvingKey<E>::~DeviceProvingKey() {
  try {
    DeviceGuard guard(device_);
    // The plan's tables are stream-ordered (runtime.hpp): their frees land before this thread
    // goes on (it may be one that ends soon, e.g. a request thread evicting the key).
    const StreamDrain drain;
    parts_.reset();
  } catch (...) {
    parts_.reset();
  }
}

template <class E>
KeyPlacement DeviceProvingKey<E>::placement() const {
  return parts_->placement;
}

template <class E>
std::size_t DeviceProvingKey<E>::chunk_points() const {
  return parts_->chunk;
}

template <class E>
bool DeviceProvingKey<E>::matches(const groth16::ProvingKey<E>& pk) const {
  const auto& p = *parts_;
  return p.num_vars == pk.num_vars && p.num_public == pk.num_public() && p.domain == pk.domain_size &&
         p.h_size == pk.h_query.size() && p.l_size == pk.l_query.size() && p.rows == pk.a.num_rows() &&
         p.conv == pk.h_convention && p.c_resident == c_resident_for(pk);
}

template class DeviceProvingKey<groth16::Bls12_381>;
template class DeviceProvingKey<groth16::Bn254>;

}  // namespace cuzk::gpu
