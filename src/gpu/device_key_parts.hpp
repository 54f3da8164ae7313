// What a DeviceProvingKey holds (private to src/gpu): the key's shape, its device buffers,
// and for its streamed parts (KeyLayout) the host point arrays its MSMs read chunk by chunk
// and the host constraint matrices its a/b/c evaluation reads chunk by chunk.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/tuning.hpp"

namespace cuzk::gpu {

// The classic (bellperson) H needs only a and b (compute_h_classic_ab_device: c = a.b for a
// satisfying witness), so C goes to the device only for the snarkjs convention, and only
// when the key stores it (otherwise c = a.b there too).
template <class E>
bool c_resident_for(const groth16::ProvingKey<E>& pk) {
  return pk.c_stored && pk.h_convention == groth16::HConvention::kOddCoset;
}

// Bytes of one of a streamed key's two chunk buffers (the largest point type): the CSR
// matrices are cut to pieces of this size too.
template <class E>
std::size_t stream_buffer_bytes(std::size_t chunk) {
  return chunk * std::max(sizeof(typename E::G1Affine), sizeof(typename E::G2Affine));
}

// The MSM scratch of one streamed chunk of c points (either group).
template <class E>
std::size_t chunk_msm_scratch_bytes(std::size_t c) {
  return std::max(msm_scratch_bytes<typename E::G1Curve>(c), msm_scratch_bytes<typename E::G2Curve>(c));
}

// The MSM workspace a proof's own thread reserves before its first MSM (CudaBackend::compute;
// DeviceProvingKey::estimate_proof_scratch_bytes counts it): the largest need among its MSMs, a
// resident part's over its whole range (nv witness scalars for A, B1, B2; nh for H, nl for L), a
// streamed part's per chunk (l.chunk). Reserved once, it never grows mid-proof: a grown
// workspace would leave its old block cached in the stream-ordered pool beside the new one.
template <class E>
std::size_t proof_msm_scratch_bytes(const KeyLayout& l, std::size_t nv, std::size_t nh, std::size_t nl) {
  using G1C = typename E::G1Curve;
  std::size_t m = 0;
  if (l.resident(KeyPart::kH)) m = std::max(m, msm_scratch_bytes<G1C>(nh));
  if (l.resident(KeyPart::kA) || l.resident(KeyPart::kB1)) m = std::max(m, msm_scratch_bytes<G1C>(nv));
  if (l.resident(KeyPart::kL)) m = std::max(m, msm_scratch_bytes<G1C>(nl));
  if (l.resident(KeyPart::kB2)) m = std::max(m, msm_scratch_bytes<typename E::G2Curve>(nv));
  if (!l.all_resident(KeyLayout::kPointsMask)) m = std::max(m, chunk_msm_scratch_bytes<E>(l.chunk));
  return m;
}

// Whether a proof's witness MSMs (A, B1, B2, L) run on kSideMsmThreads threads of their own
// beside the H chain (CudaBackend::compute): for a resident key whose MSMs are too small to fill
// the device (latency-bound: on the H200 a 2^12 G1 MSM took 1.2 ms of mostly dependent steps, a
// 2^16 one 2.7 ms), each with its own scratch (DeviceProvingKey::estimate_proof_scratch_bytes
// counts them). Domains up to 2^20 (H200, bench/RESULTS.md: 2^18 31.2 -> 22.2 ms, 2^20 70.7 ->
// 62.7 ms for 3.5 GiB more scratch); num_vars up to twice that (a full 2^k domain has a few
// more variables than 2^k). Tuning::sequential_msms turns it off, for comparisons and debugging.
inline constexpr std::size_t kConcurrentMsmMaxPoints = std::size_t{1} << 20;
inline constexpr std::size_t kSideMsmThreads = 3;  // B2; B1; A then L
inline bool concurrent_witness_msms(std::size_t num_vars, std::size_t domain, const KeyLayout& l, const Tuning& t) {
  return l.is_all_resident() && domain <= kConcurrentMsmMaxPoints && num_vars <= 2 * kConcurrentMsmMaxPoints &&
         !t.sequential_msms;
}

// A streamed key's constraint matrix: the host key's (which outlives the device key), its
// pieces for the chunk buffers (plan_csr_chunks) and, for an indexed matrix, its value table
// on the device (the chunks then carry 16-bit positions instead of values).
template <class Fr>
struct HostCsr {
  const r1cs::CsrMatrix<Fr>* m = nullptr;
  std::vector<CsrChunk> chunks;
  DeviceBuffer<Fr> table;
};

template <class E>
struct DeviceKeyParts {
  using Fr = typename E::Fr;
  using G1A = typename E::G1Affine;
  using G2A = typename E::G2Affine;
  std::size_t num_vars = 0, num_public = 0, domain = 0, log_domain = 0, h_size = 0, l_size = 0, rows = 0;
  groth16::HConvention conv = groth16::HConvention::kOddCoset;
  bool c_resident = false;  // C on the device: only the snarkjs convention's H uses it (c_resident_for)
  KeyLayout layout;  // which parts are resident; its chunk: points per streamed chunk
  // Resident parts: the query points on the device (streamed parts: empty).
  DeviceBuffer<G1A> a, b1, l, h;
  DeviceBuffer<G2A> b2;
  // Streamed parts: the query points in the host key, which outlives this object (resident
  // parts: empty spans).
  std::span<const G1A> host_a, host_b1, host_l, host_h;
  std::span<const G2A> host_b2;
  // Resident matrices: on the device (C only when c_resident).
  DeviceCsr<Fr> A, B, C;
  // Streamed matrices: in the host key (C only when c_resident).
  HostCsr<Fr> host_A, host_B, host_C;
  std::optional<NttPlan<Fr>> plan;
};

}  // namespace cuzk::gpu
