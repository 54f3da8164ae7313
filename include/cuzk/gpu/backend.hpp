// The CUDA Groth16 backend: a proving key resident on one GPU, and a groth16::Backend
// that proves with it (a/b/c evaluation from device CSR matrices, the H polynomial in the
// key's convention, the five MSMs, all on the device). Plain C++: include it without nvcc
// and link cuzk_gpu. Instantiated for groth16::Bls12_381 and groth16::Bn254.
//
// The daemon's sequence:
//   const size_t need = DeviceProvingKey<E>::estimate_bytes(pk)
//                     + DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk) * workers;
//   reserve(need) -> DeviceProvingKey<E> key(pk, device)      (uploads once)
//   CudaBackend<E> backend(key); prove_verified(pk, w, backend, t)   (many times; one
//   backend per worker thread) -> ~DeviceProvingKey frees the VRAM -> release(need).
// Device faults throw cuzk::gpu::CudaError (runtime.hpp), never abort. Every entry point
// selects the key's device for the calling thread and restores the previous selection.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

#include "cuzk/groth16/backend.hpp"
#include "cuzk/groth16/engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/gpu/runtime.hpp"

namespace cuzk::gpu {

template <class E>
struct DeviceKeyParts;  // the device buffers (src/gpu/backend.cpp)

template <class E>
class DeviceProvingKey {
 public:
  // VRAM the resident key takes (query points, constraint matrices, NTT twiddles),
  // computable before uploading.
  static std::size_t estimate_bytes(const groth16::ProvingKey<E>& pk);
  // VRAM one proof with this key needs on top of the resident key (witness, a/b/c,
  // scalars, MSM scratch); each concurrent proof on the device needs its own.
  static std::size_t estimate_proof_scratch_bytes(const groth16::ProvingKey<E>& pk);

  // Uploads pk to `device` (throws CudaError on a device fault or out of memory,
  // std::invalid_argument for a malformed key). pk need not outlive this object.
  DeviceProvingKey(const groth16::ProvingKey<E>& pk, int device);
  ~DeviceProvingKey();  // frees the VRAM on its device
  DeviceProvingKey(const DeviceProvingKey&) = delete;
  DeviceProvingKey& operator=(const DeviceProvingKey&) = delete;

  int device() const { return device_; }
  std::size_t bytes() const { return bytes_; }  // == estimate_bytes(pk)
  // True when pk has the shape this key was uploaded from (sizes, convention).
  bool matches(const groth16::ProvingKey<E>& pk) const;
  const DeviceKeyParts<E>& parts() const { return *parts_; }

 private:
  int device_;
  std::size_t bytes_;
  std::unique_ptr<DeviceKeyParts<E>> parts_;
};

template <class E>
class CudaBackend final : public groth16::Backend<E> {
 public:
  using Fr = typename E::Fr;
  // Proves with a resident key; `key` must outlive the backend. The pk passed to
  // compute() must be the key it was uploaded from (its shape is checked).
  explicit CudaBackend(const DeviceProvingKey<E>& key) : key_(&key), device_(key.device()) {}
  // Uploads the key for each proof (tests, one-off proofs).
  explicit CudaBackend(int device) : key_(nullptr), device_(device) {}

  std::string_view name() const override { return "cuda"; }
  int device() const { return device_; }
  groth16::ProofTerms<E> compute(const groth16::ProvingKey<E>& pk, std::span<const Fr> witness,
                                 groth16::PhaseTimings& timings) override;

 private:
  const DeviceProvingKey<E>* key_;
  int device_;
};

}  // namespace cuzk::gpu
