// The simulated device of one curve (CPU backend); instantiated once per curve in
// cpu_device_<curve>.cpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>

#include "cuzk/groth16/cpu_backend.hpp"
#include "cuzk/groth16/prover.hpp"
#include "device.hpp"
#include "key_shape.hpp"

namespace cuzk::engine {

template <class E>
struct SimDeviceKey final : DeviceKey {
  SimDeviceKey(std::shared_ptr<const groth16::ProvingKey<E>> k, int d) : key(std::move(k)), device(d) {}
  std::shared_ptr<const groth16::ProvingKey<E>> key;
  int device;
};

// The simulated pinned tier: the key is only accounted against the pinned budget.
template <class E>
struct SimHostPin final : HostPin {
  explicit SimHostPin(std::shared_ptr<const groth16::ProvingKey<E>> k) : key(std::move(k)) {}
  std::shared_ptr<const groth16::ProvingKey<E>> key;
};

// A pin that is only accounted, whose release takes `ms` (0: none).
class SlowReleasePin : public HostPin {
 public:
  explicit SlowReleasePin(std::uint32_t ms) : ms_(ms) {}
  ~SlowReleasePin() override {
    if (ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms_));
  }

 private:
  std::uint32_t ms_;
};

template <class E>
class SimCurveDevice final : public CurveDevice<E> {
 public:
  explicit SimCurveDevice(FaultInjector& f) : faults_(f) {}
  void prepare(groth16::ProvingKey<E>& pk) const override { faults_.on_prepare(pk); }
  std::unique_ptr<DeviceKey> upload(std::shared_ptr<const groth16::ProvingKey<E>> key, int device) override {
    return std::make_unique<SimDeviceKey<E>>(std::move(key), device);
  }
  std::uint64_t key_bytes(const groth16::ProvingKey<E>& pk) const override { return key_host_bytes(shape_of(pk)); }
  std::uint64_t scratch_bytes(const groth16::ProvingKey<E>& pk) const override {
    return engine::scratch_bytes(shape_of(pk));
  }
  std::uint64_t pin_bytes(const groth16::ProvingKey<E>& pk) const override { return point_bytes(pk); }
  std::unique_ptr<HostPin> pin(std::shared_ptr<const groth16::ProvingKey<E>> key) override {
    return std::make_unique<SimHostPin<E>>(std::move(key));
  }
  // Accounted only: the witness stays as it is. Its release takes FaultInjection's
  // witness_unlock_ms (tests of the engine's retirer).
  std::unique_ptr<HostPin> pin_witness(std::span<const typename E::Fr>) override {
    return std::make_unique<SlowReleasePin>(faults_.witness_unlock_ms());
  }
  // One proof after the other, each as a device's (FaultInjection counts proofs, not batches).
  std::vector<groth16::Proof<E>> prove_batch(const DeviceKey& key, const groth16::ProvingKey<E>& pk,
                                             std::span<const std::span<const typename E::Fr>> ws,
                                             std::span<groth16::PhaseTimings> ts) override {
    const auto& k = dynamic_cast<const SimDeviceKey<E>&>(key);
    if (k.key.get() != &pk) throw std::logic_error("simulated device: key uploaded from another proving key");
    groth16::CpuBackend<E> backend;
    std::vector<groth16::Proof<E>> out;
    for (std::size_t i = 0; i < ws.size(); ++i) {
      faults_.on_prove(k.device);
      out.push_back(groth16::prove(pk, ws[i], backend, ts[i]));
      faults_.on_proved(k.device, out.back());
    }
    return out;
  }

 private:
  FaultInjector& faults_;
};

template <class E>
std::unique_ptr<CurveDevice<E>> make_sim_curve_device(FaultInjector& f);

}  // namespace cuzk::engine
