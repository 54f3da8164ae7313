// CudaBackend (cuzk/gpu/backend.hpp): its key (the resident one given, or one uploaded per
// call), its uploaders, and the plan its proofs follow (proof_plan.hpp, prove_stages.cpp).
#include "cuzk/gpu/backend.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "proof_plan.hpp"

namespace cuzk::gpu {

template <class E>
CudaBackend<E>::CudaBackend(const DeviceProvingKey<E>& key, DeviceContext& ctx)
    : key_(&key), device_(key.device()), tuning_(key.tuning()), ctx_(&ctx) {
  if (ctx.device() != key.device())
    throw std::invalid_argument("gpu: CudaBackend: a key on device " + std::to_string(key.device()) +
                                " in the context of device " + std::to_string(ctx.device()));
}

template <class E>
DeviceContext& CudaBackend<E>::context() {
  if (ctx_ == nullptr) ctx_ = (own_ctx_ = std::make_unique<DeviceContext>(device_, tuning_)).get();
  return *ctx_;
}

template <class E>
StagedUploader& CudaBackend<E>::uploader() {
  // On the current device: compute_proofs selected the key's.
  if (!up_) up_.emplace(StagedUploader::kChunkBytes, &context().copies());
  return *up_;
}

template <class E>
const DeviceProvingKey<E>* CudaBackend<E>::key_for(const groth16::ProvingKey<E>& pk, groth16::PhaseTimings& t,
                                                   std::unique_ptr<DeviceProvingKey<E>>& own) const {
  if (key_ == nullptr) {
    groth16::ScopedPhase p(t, "upload_key");
    own = std::make_unique<DeviceProvingKey<E>>(pk, device_, KeyPlacement::kResident, 0, tuning_);
    return own.get();
  }
  if (!key_->matches(pk)) throw std::invalid_argument("gpu: CudaBackend: the proving key differs from the resident key");
  return key_;
}

template <class E>
void CudaBackend<E>::compute_proofs(const groth16::ProvingKey<E>& pk, std::span<const std::span<const Fr>> ws,
                                    std::span<groth16::PhaseTimings> ts, std::span<groth16::ProofTerms<E>> out) {
  std::unique_ptr<DeviceProvingKey<E>> own;
  const DeviceProvingKey<E>* key = key_for(pk, ts[0], own);
  DeviceGuard guard(key->device());
  DeviceContext& ctx = context();
  // The call's lane of device memory; its buffers are freed and its streams drained (drain)
  // before the lease ends.
  DeviceContext::Lease lane = ctx.lease({key, key->bytes(), ws.size()});
  const PoolScope scope(&lane.memory());
  const StreamDrain drain;
  const ProofPlan<E> plan = plan_proofs(*key, ws.size());
  const ProofRun run{ctx, lane.memory(), uploader()};
  if (!plan.batched) {  // one proof, or nothing to share: one proof after the other
    for (std::size_t i = 0; i < ws.size(); ++i) out[i] = prove_on_device<E>(plan, ws[i], ts[i], run, nullptr);
    return;
  }
  PointStream ps(key->parts().layout.chunk, stream_buffer_bytes<E>(1), run.up, key->device(), ctx.tasks());
  for (std::size_t i = 0; i < ws.size(); ++i) out[i] = prove_on_device<E>(plan, ws[i], ts[i], run, &ps);
  batch_witness_msms<E>(plan, ws, ts, out, ps, run, scalar_up_);
}

template class CudaBackend<groth16::Bls12_381>;
template class CudaBackend<groth16::Bn254>;

}  // namespace cuzk::gpu
