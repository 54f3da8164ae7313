// What CudaBackend's proofs do with a DeviceProvingKey (private to src/gpu): a plan decided
// once per call from the key's layout, parts and tuning (ProofPlan), and the two stages that
// follow it (prove_stages.cpp): one proof's device work (prove_on_device), and a batch's
// shared streamed witness MSMs (batch_witness_msms).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>

#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/context.hpp"
#include "cuzk/gpu/memory_pool.hpp"
#include "device_key_parts.hpp"
#include "point_stream.hpp"

namespace cuzk::gpu {

// A proof's five MSMs in the order it runs them (streamed ones prefetch the next one's first
// chunk in this order): the index of each in ProofPlan::firsts.
enum ProofMsm : std::size_t { kMsmH, kMsmA, kMsmB1, kMsmB2, kMsmL, kProofMsms };

template <class E>
struct ProofPlan {
  const DeviceProvingKey<E>& key;
  const DeviceKeyParts<E>& K;  // key.parts()
  // Some part streams: a proof then starts from an empty pool cache (its lane's), empties it
  // again before its MSM scratch (prove_on_device says why), and reads its streamed parts
  // through a point stream.
  bool streamed;
  // concurrent_witness_msms: the witness MSMs (A, B1, B2, L) in side tasks beside the H
  // chain (small all-resident proofs); else on the proof's own thread after MSM H.
  bool side_msms;
  // The constraint matrices on the device (a/b/c in three arrays), else streamed through the
  // chunk buffers (two arrays, the matrices read a second time for H's second half).
  bool matrices_resident;
  // The classic (bellperson) H, which takes c = a.b itself; else snarkjs's.
  bool classic;
  // A, B1 or B2 resident: the witness's scalars classified once for them.
  bool witness_classified;
  bool h_resident, l_resident;  // their scalars classified once (streamed: chunk by chunk)
  // One of a batch's proofs (k > 1 with a streamed witness part): the batch's proofs share one
  // point stream, each leaves its streamed witness MSMs to the batch (deferred), which runs
  // them over one upload of each point chunk; nothing of a proof follows its MSM H then.
  bool batched;
  std::size_t msm_bytes;  // the MSM scratch a proof's own thread reserves (proof_msm_scratch_bytes)
  // Each MSM's first chunk (ProofMsm order), prefetched during the streamed MSM before it;
  // empty for resident parts.
  std::array<std::span<const std::byte>, kProofMsms> firsts;

  // The first chunk of the next streamed MSM after MSM i; empty when none follows.
  std::span<const std::byte> first_after(std::size_t i) const {
    for (std::size_t j = i + 1; j < kProofMsms; ++j)
      if (!firsts[j].empty()) return firsts[j];
    return {};
  }
  // What a proof prefetches during its MSM i: in a batch only H streams there (its MSM runs
  // last), and nothing of the proof follows it.
  std::span<const std::byte> next(std::size_t i) const {
    return batched ? std::span<const std::byte>{} : first_after(i);
  }
  // A streamed witness part of a batched proof: left to the batch (its term stays infinity).
  bool deferred(std::size_t i) const { return batched && !firsts[i].empty(); }
  // The options of an MSM with workspace m (the key's tuning).
  MsmOptions msm_options(MsmWorkspace& m) const { return MsmOptions{0, 0, &m, key.tuning()}; }
};

// The plan of k >= 1 proofs with key: batched when k > 1 and a witness part streams (an
// all-resident batch has nothing to share: its proofs run one after the other).
template <class E>
ProofPlan<E> plan_proofs(const DeviceProvingKey<E>& key, std::size_t k) {
  const DeviceKeyParts<E>& K = key.parts();
  const KeyLayout& L = K.layout;
  return ProofPlan<E>{
      .key = key,
      .K = K,
      .streamed = L.any_streamed(),
      .side_msms = concurrent_witness_msms(K.num_vars, K.domain, L, key.tuning()),
      .matrices_resident = L.resident(KeyPart::kMatrices),
      .classic = K.conv == groth16::HConvention::kZDivided,
      .witness_classified = L.any_resident(KeyLayout::kWitnessMask),
      .h_resident = L.resident(KeyPart::kH),
      .l_resident = L.resident(KeyPart::kL),
      .batched = k > 1 && !L.all_resident(KeyLayout::kBatchMask),
      .msm_bytes = proof_msm_scratch_bytes<E>(L, K.num_vars, K.h_size, K.l_size),
      .firsts = {first_chunk(K.host_h, L.chunk), first_chunk(K.host_a, L.chunk), first_chunk(K.host_b1, L.chunk),
                 first_chunk(K.host_b2, L.chunk), first_chunk(K.host_l, L.chunk)},
  };
}

// What a call's proofs run with besides their plan: the device's context (its executors run
// the side-thread MSMs and chunk uploads), the call's lane of device memory (the calling
// thread allocates from it: PoolScope), and the backend's uploader.
struct ProofRun {
  DeviceContext& ctx;
  MemoryPool& memory;
  StagedUploader& up;
};

// One proof's device work with the plan's key, its device selected; batch_stream: the batch's
// point stream when plan.batched, else null.
template <class E>
groth16::ProofTerms<E> prove_on_device(const ProofPlan<E>& plan, std::span<const typename E::Fr> w,
                                       groth16::PhaseTimings& t, const ProofRun& run, PointStream* batch_stream);

// After a batch's proofs (prove_on_device with ps): their deferred witness MSMs, each point
// chunk uploaded once through ps for every proof's scalars of it, added into out[i]; the
// scalar chunks pass through scalar_up (made here at the backend's first batch).
template <class E>
void batch_witness_msms(const ProofPlan<E>& plan, std::span<const std::span<const typename E::Fr>> ws,
                        std::span<groth16::PhaseTimings> ts, std::span<groth16::ProofTerms<E>> out, PointStream& ps,
                        const ProofRun& run, std::optional<StagedUploader>& scalar_up);

}  // namespace cuzk::gpu
