// The devices the engine proves on (Devices, with one CurveDevice per curve): upload a key to
// device d, estimate the bytes a resident key and a proof's scratch take there, prove with a
// resident key, free (by destroying the DeviceKey). The CPU implementation simulates devices
// (cpu_device.cpp); the CUDA one (cuda_device.cpp) is compiled only with the CUDA backend.
//
// Curve-indexed values (HostKey, Witness: curve_values.hpp) and the backend's DeviceKey travel
// through the untemplated parts of the engine; the typed code reads them back by curve.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/engine/config.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/timings.hpp"
#include "curve_values.hpp"
#include "shape.hpp"

namespace cuzk::engine {

// A key resident on one device; destroying it frees the device memory.
class DeviceKey {
 public:
  virtual ~DeviceKey() = default;
  // How the device holds the key: "resident", "streamed (chunk N)" (cuda: the points and
  // matrices stay in host memory and pass through the device in chunks of N points), or
  // resident in part, "resident: matrices, H; streamed: A, B1, B2, L (chunk N)".
  virtual std::string layout() const { return "resident"; }
};

// The "pinned" tier: a host key's point arrays page-locked (cuda: registered with the driver,
// so uploads and streamed chunks copy at full link speed without a staging copy; cpu: only
// accounted, like the simulated VRAM). Keeps the host key alive; destroying it unpins.
class HostPin {
 public:
  virtual ~HostPin() = default;
};

template <class E>
class CurveDevice {
 public:
  virtual ~CurveDevice() = default;
  // What this backend adds to a freshly loaded key, once per load, before the key is shared
  // (cuda: the matrices' value index, groth16::index_key_values, so that matrices upload and
  // stream as 16-bit value positions; cpu: nothing). Host bytes: Devices::host_key_extra_bytes.
  virtual void prepare(groth16::ProvingKey<E>&) const {}
  // Copies the key to `device` (`key` shares the HostKey's ownership: typed_key). The host key
  // outlives the returned copy (the key manager drops device copies before the host copy).
  virtual std::unique_ptr<DeviceKey> upload(std::shared_ptr<const groth16::ProvingKey<E>> key, int device) = 0;
  // VRAM of the resident key and of one running proof, exact for a loaded key.
  virtual std::uint64_t key_bytes(const groth16::ProvingKey<E>& pk) const = 0;
  virtual std::uint64_t scratch_bytes(const groth16::ProvingKey<E>& pk) const = 0;
  // Page-locked bytes pin() would take (0: this backend does not pin keys) and the pin.
  virtual std::uint64_t pin_bytes(const groth16::ProvingKey<E>&) const { return 0; }
  virtual std::unique_ptr<HostPin> pin(std::shared_ptr<const groth16::ProvingKey<E>>) { return nullptr; }
  // A synthesized witness page-locked for its upload (null: this backend does not pin
  // witnesses; the engine reserves shape.hpp's witness_pin_bytes first); the witness outlives
  // the pin.
  virtual std::unique_ptr<HostPin> pin_witness(std::span<const typename E::Fr>) { return nullptr; }
  // k >= 1 proofs (not yet verified) with the resident key `key` uploaded from `pk`: proof i of
  // witnesses[i], timed into timings[i]; a single proof is a batch of one. A device fault throws
  // cuzk::gpu::CudaError and a set cancel flag groth16::Cancelled (at a phase boundary), for the
  // whole batch. cuda shares each streamed point chunk between the batch's proofs.
  virtual std::vector<groth16::Proof<E>> prove_batch(const DeviceKey& key, const groth16::ProvingKey<E>& pk,
                                                     std::span<const std::span<const typename E::Fr>> witnesses,
                                                     std::span<groth16::PhaseTimings> timings) = 0;
  // VRAM of such a batch while it runs (by default one proof's: one at a time).
  virtual std::uint64_t batch_scratch_bytes(const groth16::ProvingKey<E>& pk) const { return scratch_bytes(pk); }
};

// The engine's devices, of the configured backend (EngineConfig::backend): simulated on the
// CPU, or CUDA GPUs.
class Devices {
 public:
  virtual ~Devices() = default;
  virtual std::string_view name() const = 0;  // "cpu" or "cuda"
  virtual int device_count() const = 0;
  virtual std::string device_name(int device) const = 0;
  virtual std::uint64_t default_vram_budget(int device) const = 0;
  // Estimates from the shape alone (admission at submit, before the key is loaded).
  virtual std::uint64_t key_bytes(const KeyShape& s) const = 0;      // a resident key
  virtual std::uint64_t scratch_bytes(const KeyShape& s) const = 0;  // one proof while it runs
  virtual std::uint64_t pinned_bytes(const KeyShape&) const { return 0; }  // staging per proof
  // Host bytes CurveDevice::prepare adds to a loaded key, at most (on top of key_host_bytes).
  virtual std::uint64_t host_key_extra_bytes(const KeyShape&) const { return 0; }
  // Host memory a loaded key takes on this backend, at most: what its load reserves.
  std::uint64_t loaded_key_host_bytes(const KeyShape& s) const { return key_host_bytes(s) + host_key_extra_bytes(s); }
  virtual CurveDevice<groth16::Bls12_381>& bls12_381() = 0;
  virtual CurveDevice<groth16::Bn254>& bn254() = 0;

  template <class E>
  CurveDevice<E>& curve() {
    if constexpr (std::is_same_v<E, groth16::Bn254>) return bn254();
    else return bls12_381();
  }
};

// The FaultInjection test hook: the first `failures` proofs on `device` throw the same
// cuzk::gpu::CudaError a real device fault throws, from inside the backend's prove; the next
// `wrong_proofs` proofs there come back wrong (A and C swapped), as a silent device fault would;
// on the cpu backend, the first `corrupt_keys` keys loaded are altered in memory (on_prepare).
class FaultInjector {
 public:
  explicit FaultInjector(FaultInjection f) : f_(f) {}
  void on_prove(int device);  // throws gpu::CudaError while injected failures remain
  template <class E>
  void on_proved(int device, groth16::Proof<E>& p) {
    if (device == f_.device && f_.wrong_proofs > 0 && wrong_.fetch_add(1) < f_.wrong_proofs) std::swap(p.a, p.c);
  }
  template <class E>
  void on_proved(int device, std::span<groth16::Proof<E>> ps) {
    for (auto& p : ps) on_proved(device, p);
  }
  // A key just parsed (CurveDevice::prepare): the first `corrupt_keys` get two H points swapped.
  template <class E>
  void on_prepare(groth16::ProvingKey<E>& pk) {
    if (f_.corrupt_keys > 0 && pk.h_query.size() >= 2 && corrupted_.fetch_add(1) < f_.corrupt_keys)
      std::swap(pk.h_query[0], pk.h_query[1]);
  }
  std::uint32_t witness_unlock_ms() const { return f_.witness_unlock_ms; }

 private:
  FaultInjection f_;
  std::atomic<int> thrown_{0};
  std::atomic<int> wrong_{0};
  std::atomic<int> corrupted_{0};
};

// From config: `devices` simulated devices sharing the host's cores (VRAM, pinned keys and
// pinned witnesses are accounted, not allocated), fault.
std::unique_ptr<Devices> make_sim_devices(const EngineConfig& config);
// From config: devices, fault, vram_budget_bytes, key_placement. Throws
// std::invalid_argument when the engine was built without the CUDA backend.
std::unique_ptr<Devices> make_cuda_devices(const EngineConfig& config);

}  // namespace cuzk::engine
