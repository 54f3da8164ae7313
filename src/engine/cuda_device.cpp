// The CUDA device backend: keys resident on GPUs as gpu::DeviceProvingKey<E>, proofs by
// gpu::CudaBackend<E> (one per proof, on the worker's thread), VRAM figures from the CUDA
// backend's own static estimates. Compiled only with the CUDA backend (src/engine/CMakeLists.txt).
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/groth16/prover.hpp"
#include "device.hpp"
#include "key_shape.hpp"

namespace cuzk::engine {

namespace {

template <class E>
struct CudaDeviceKey final : DeviceKey {
  CudaDeviceKey(const groth16::ProvingKey<E>& pk, int device) : key(pk, device) {}
  gpu::DeviceProvingKey<E> key;
};

// The pinned tier: the key's point arrays registered with the driver (page-locked) for the
// pin's lifetime, so uploads from them run at full link speed.
template <class E>
struct CudaHostPin final : HostPin {
  explicit CudaHostPin(std::shared_ptr<const TypedHostKey<E>> k) : key(std::move(k)) {
    const auto& pk = key->pk;
    add(pk.a_query);
    add(pk.b_g1_query);
    add(pk.b_g2_query);
    add(pk.l_query);
    add(pk.h_query);
  }
  template <class V>
  void add(const V& v) {
    regs.emplace_back(v.data(), v.size() * sizeof(typename V::value_type));
  }
  std::shared_ptr<const TypedHostKey<E>> key;
  std::vector<gpu::HostRegistration> regs;  // after key: unregistered before key lets go
};

template <class E>
class CudaCurveDevice final : public CurveDevice<E> {
 public:
  explicit CudaCurveDevice(FaultInjector& f) : faults_(f) {}
  std::unique_ptr<DeviceKey> upload(std::shared_ptr<const TypedHostKey<E>> key, int device) override {
    return std::make_unique<CudaDeviceKey<E>>(key->pk, device);
  }
  std::uint64_t key_bytes(const groth16::ProvingKey<E>& pk) const override {
    return gpu::DeviceProvingKey<E>::estimate_bytes(pk);
  }
  std::uint64_t scratch_bytes(const groth16::ProvingKey<E>& pk) const override {
    return gpu::DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk);
  }
  std::uint64_t pin_bytes(const groth16::ProvingKey<E>& pk) const override { return point_bytes(pk); }
  std::unique_ptr<HostPin> pin(std::shared_ptr<const TypedHostKey<E>> key) override {
    return std::make_unique<CudaHostPin<E>>(std::move(key));
  }
  groth16::Proof<E> prove(const DeviceKey& key, const groth16::ProvingKey<E>& pk, std::span<const typename E::Fr> w,
                          groth16::PhaseTimings& t) override {
    const auto& k = dynamic_cast<const CudaDeviceKey<E>&>(key).key;
    faults_.on_prove(k.device());
    gpu::CudaBackend<E> backend(k);
    return groth16::prove(pk, w, backend, t);
  }

 private:
  FaultInjector& faults_;
};

class CudaDeviceBackend final : public DeviceBackend {
 public:
  CudaDeviceBackend(int devices, FaultInjection f) : faults_(f), bls_(faults_), bn_(faults_) {
    std::string why;
    if (!gpu::device_available(&why)) throw std::invalid_argument("backend: \"cuda\" but no usable CUDA device: " + why);
    const int visible = gpu::device_count();
    if (devices > visible)
      throw std::invalid_argument("devices: " + std::to_string(devices) + " requested but " + std::to_string(visible) +
                                  " CUDA device(s) are visible");
    devices_ = devices == 0 ? visible : devices;
  }
  std::string_view name() const override { return "cuda"; }
  int device_count() const override { return devices_; }
  std::string device_name(int d) const override { return gpu::device_description(d); }
  std::uint64_t default_vram_budget(int d) const override {
    gpu::DeviceGuard g(d);
    std::size_t free = 0, total = 0;
    gpu::device_memory(&free, &total);
    constexpr std::uint64_t kHeadroom = 1ull << 30;
    return free > kHeadroom ? free - kHeadroom : 0;
  }
  // Before a key is loaded: the shape formulas (shape.hpp); once loaded, the CUDA
  // backend's own figures (CurveDevice::key_bytes / scratch_bytes) are reserved.
  std::uint64_t key_bytes(const KeyShape& s) const override { return key_host_bytes(s); }
  std::uint64_t scratch_bytes(const KeyShape& s) const override { return engine::scratch_bytes(s); }
  // pinned_bytes: 0 (the default) -- the CUDA backend copies from pageable memory today;
  // when it stages through pinned buffers, their size per proof goes here.
  CurveDevice<groth16::Bls12_381>& bls12_381() override { return bls_; }
  CurveDevice<groth16::Bn254>& bn254() override { return bn_; }

 private:
  int devices_ = 0;
  FaultInjector faults_;
  CudaCurveDevice<groth16::Bls12_381> bls_;
  CudaCurveDevice<groth16::Bn254> bn_;
};

}  // namespace

std::unique_ptr<DeviceBackend> make_cuda_backend(int devices, FaultInjection fault) {
  return std::make_unique<CudaDeviceBackend>(devices, fault);
}

}  // namespace cuzk::engine
