// The CUDA device backend: keys on GPUs as gpu::DeviceProvingKey<E> (resident in VRAM, streamed
// from the host copy in chunks when the key does not fit, or part by part between the two:
// key_placement), proofs
// by gpu::CudaBackend<E> (one per proof, on the worker's thread, in its device's
// gpu::DeviceContext, one per device for the engine's life; its pinned staging is
// reserved from the pinned budget), VRAM figures from the CUDA backend's own estimates, and
// the pinned key tier (the host copy's points registered with the driver). Compiled only
// with the CUDA backend (src/engine/CMakeLists.txt).
#include <algorithm>
#include <bit>
#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/context.hpp"
#include "cuzk/gpu/device_info.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/groth16/key_value_index.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/engine/gpu_probe.hpp"
#include "device.hpp"
#include "key_shape.hpp"

namespace cuzk::engine {

namespace {

// The smallest streamed chunk (points) place() tries.
constexpr std::size_t kMinStreamChunk = std::size_t{1} << 12;

// How a key goes on a device with `vram` bytes of budget (key_placement): "resident" all parts
// in VRAM; "stream" every part streamed, the largest power-of-two chunk (at most the default)
// with which the key and one proof fit, the NTT's twiddle table compact where that makes it
// larger (DeviceProvingKey::stream_layout; the smallest tried when none does: the engine then
// refuses the job); "auto" DeviceProvingKey::choose_layout (all resident when it fits, else the
// parts that save the most link bytes resident and the rest streamed at that chunk).
template <class E>
gpu::KeyLayout place(const groth16::ProvingKey<E>& pk, KeyPlacement mode, std::uint64_t vram, const gpu::Tuning& t) {
  using K = gpu::DeviceProvingKey<E>;
  if (mode == KeyPlacement::resident) return gpu::KeyLayout::all_resident();
  if (mode == KeyPlacement::automatic) return K::choose_layout(pk, vram, kMinStreamChunk, K::kMaxStreamChunk, t);
  return K::stream_layout(pk, vram, kMinStreamChunk, K::kMaxStreamChunk, t);
}

template <class E>
struct CudaDeviceKey final : DeviceKey {
  CudaDeviceKey(std::shared_ptr<const groth16::ProvingKey<E>> k, int device, const gpu::KeyLayout& l, const gpu::Tuning& t)
      : host(std::move(k)), key(*host, device, l, t) {}
  std::string layout() const override { return key.layout().describe(); }
  std::shared_ptr<const groth16::ProvingKey<E>> host;  // streamed parts are read from it: outlives `key`
  gpu::DeviceProvingKey<E> key;
};

// The pinned tier: the key's point arrays registered with the driver (page-locked) for the
// pin's lifetime, so uploads and streamed chunks copy from them at full link speed.
// A key whose matrices stream (place()) also has the constraint matrices it reads at every
// proof page-locked (of an indexed matrix, its value positions instead of its values).
template <class E>
struct CudaHostPin final : HostPin {
  CudaHostPin(std::shared_ptr<const groth16::ProvingKey<E>> k, bool matrices_streamed) : key(std::move(k)) {
    for (auto a : gpu::DeviceProvingKey<E>::streamed_host_arrays(*key, matrices_streamed))
      regs.emplace_back(a.data(), a.size());
  }
  std::shared_ptr<const groth16::ProvingKey<E>> key;
  std::vector<gpu::HostRegistration> regs;  // after key: unregistered before key lets go
};

// A synthesized witness registered with the driver for its upload (pinned_witness_min_bytes):
// the proof then copies it straight to the device instead of through its staging buffers.
struct CudaWitnessPin final : HostPin {
  explicit CudaWitnessPin(std::span<const std::byte> w) : reg(w.data(), w.size()) {}
  gpu::HostRegistration reg;
};

template <class E>
class CudaCurveDevice final : public CurveDevice<E> {
 public:
  CudaCurveDevice(FaultInjector& f, KeyPlacement mode, std::uint64_t vram, const gpu::Tuning& t,
                  std::vector<std::unique_ptr<gpu::DeviceContext>>& contexts)
      : faults_(f), mode_(mode), vram_(vram), tuning_(t), contexts_(contexts) {}
  // The matrices' value index: resident matrices take 6 bytes a term of VRAM instead of 36,
  // streamed ones 2 bytes a term of link per pass (a matrix with more than 65536 distinct
  // values keeps its values).
  void prepare(groth16::ProvingKey<E>& pk) const override { groth16::index_key_values(pk); }
  std::unique_ptr<DeviceKey> upload(std::shared_ptr<const groth16::ProvingKey<E>> key, int device) override {
    const gpu::KeyLayout l = place(*key, mode_, vram_, tuning_);
    return std::make_unique<CudaDeviceKey<E>>(std::move(key), device, l, tuning_);
  }
  std::uint64_t key_bytes(const groth16::ProvingKey<E>& pk) const override {
    return gpu::DeviceProvingKey<E>::estimate_bytes(pk, place(pk, mode_, vram_, tuning_));
  }
  std::uint64_t scratch_bytes(const groth16::ProvingKey<E>& pk) const override {
    return gpu::DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk, place(pk, mode_, vram_, tuning_), tuning_);
  }
  std::uint64_t pin_bytes(const groth16::ProvingKey<E>& pk) const override {
    std::uint64_t b = 0;  // what pin() registers, byte for byte
    for (auto a : gpu::DeviceProvingKey<E>::streamed_host_arrays(pk, matrices_streamed(pk))) b += a.size();
    return b;
  }
  std::unique_ptr<HostPin> pin(std::shared_ptr<const groth16::ProvingKey<E>> key) override {
    const bool s = matrices_streamed(*key);
    return std::make_unique<CudaHostPin<E>>(std::move(key), s);
  }
  std::unique_ptr<HostPin> pin_witness(std::span<const typename E::Fr> w) override {
    return std::make_unique<CudaWitnessPin>(std::as_bytes(w));
  }
  std::vector<groth16::Proof<E>> prove_batch(const DeviceKey& key, const groth16::ProvingKey<E>& pk,
                                             std::span<const std::span<const typename E::Fr>> ws,
                                             std::span<groth16::PhaseTimings> ts) override {
    const auto& k = dynamic_cast<const CudaDeviceKey<E>&>(key).key;
    faults_.on_prove(k.device());
    gpu::CudaBackend<E> backend(k, *contexts_.at(static_cast<std::size_t>(k.device())));
    std::vector<groth16::Proof<E>> proofs = groth16::prove_batch<E>(pk, ws, backend, ts);
    faults_.on_proved(k.device(), std::span<groth16::Proof<E>>(proofs));
    return proofs;
  }
  std::uint64_t batch_scratch_bytes(const groth16::ProvingKey<E>& pk) const override {
    return gpu::DeviceProvingKey<E>::estimate_batch_scratch_bytes(pk, place(pk, mode_, vram_, tuning_), tuning_);
  }

 private:
  bool matrices_streamed(const groth16::ProvingKey<E>& pk) const {
    return place(pk, mode_, vram_, tuning_).streamed(gpu::KeyPart::kMatrices);
  }
  FaultInjector& faults_;
  KeyPlacement mode_;
  std::uint64_t vram_;  // the smallest device budget: one placement per key on every device
  gpu::Tuning tuning_;  // EngineConfig::gpu: kept by every key uploaded (DeviceProvingKey::tuning)
  std::vector<std::unique_ptr<gpu::DeviceContext>>& contexts_;  // CudaDevices': one per device
};

class CudaDevices final : public Devices {
 public:
  explicit CudaDevices(const EngineConfig& c)
      : faults_(c.fault), mode_(c.key_placement), devices_(count(c.devices)), vram_(smallest_budget(c)),
        bls_(faults_, mode_, vram_, c.gpu, contexts_), bn_(faults_, mode_, vram_, c.gpu, contexts_) {
    gpu::configure_device_memory(c.gpu);  // before the engine's first device allocation
    // Each device's context: its executors sized for the workers that prove there at once.
    for (int d = 0; d < devices_; ++d)
      contexts_.push_back(
          std::make_unique<gpu::DeviceContext>(d, c.gpu, static_cast<std::size_t>(std::max(1, c.workers_per_device))));
  }
  std::string_view name() const override { return "cuda"; }
  int device_count() const override { return devices_; }
  std::string device_name(int d) const override { return gpu::device_description(d); }
  std::uint64_t default_vram_budget(int d) const override { return free_vram(d); }
  // Before a key is loaded: the shape formulas (shape.hpp) for a resident key; for a
  // streamed one (points and matrices in host memory) its NTT twiddles (the compact table) and
  // at most its matrices' value tables, and a proof's witness, two domain-sized arrays and the
  // smallest chunk buffers place() may choose. Once loaded, the CUDA backend's own figures
  // (CurveDevice::key_bytes / scratch_bytes) are reserved.
  std::uint64_t key_bytes(const KeyShape& s) const override {
    if (resident(s)) return key_host_bytes(s);
    // The compact twiddle table: the least place() may keep (DeviceProvingKey::choose_layout).
    const std::size_t log_n = static_cast<std::size_t>(std::bit_width(std::max<std::uint64_t>(1, s.domain_size)) - 1);
    return s.fr_bytes * gpu::twiddle_table_elements(log_n, gpu::TwiddleTable::kCompact) + key_index_table_bytes(s) +
           (1u << 20);
  }
  std::uint64_t scratch_bytes(const KeyShape& s) const override {
    if (resident(s)) return engine::scratch_bytes(s);
    return s.fr_bytes * (s.num_vars + 2 * s.domain_size) + 2 * kMinStreamChunk * s.g2_bytes + kMsmScratchBytes;
  }
  // Each proof's CudaBackend stages pageable witnesses (and streamed points) through this
  // much pinned memory.
  std::uint64_t pinned_bytes(const KeyShape&) const override {
    return gpu::CudaBackend<groth16::Bls12_381>::kStagingBytes;
  }
  std::uint64_t host_key_extra_bytes(const KeyShape& s) const override { return key_index_bytes(s); }
  CurveDevice<groth16::Bls12_381>& bls12_381() override { return bls_; }
  CurveDevice<groth16::Bn254>& bn254() override { return bn_; }

 private:
  bool resident(const KeyShape& s) const {
    return mode_ == KeyPlacement::resident ||
           (mode_ == KeyPlacement::automatic && key_host_bytes(s) + engine::scratch_bytes(s) <= vram_);
  }
  static int count(int requested) {
    std::string why;
    if (!gpu::device_available(&why)) throw std::invalid_argument("backend: \"cuda\" but no usable CUDA device: " + why);
    const int visible = gpu::device_count();
    if (requested > visible)
      throw std::invalid_argument("devices: " + std::to_string(requested) + " requested but " + std::to_string(visible) +
                                  " CUDA device(s) are visible");
    const int n = requested == 0 ? visible : requested;
    for (int d = 0; d < n; ++d)
      if (!gpu::device_supported(d, &why)) throw std::invalid_argument("backend: \"cuda\": " + why);
    return n;
  }
  static std::uint64_t free_vram(int d) {
    gpu::DeviceGuard g(d);
    std::size_t free = 0, total = 0;
    gpu::device_memory(&free, &total);
    constexpr std::uint64_t kHeadroom = 1ull << 30;
    return free > kHeadroom ? free - kHeadroom : 0;
  }
  std::uint64_t smallest_budget(const EngineConfig& c) const {
    if (c.vram_budget_bytes != 0) return c.vram_budget_bytes;
    std::uint64_t v = ~0ull;
    for (int d = 0; d < devices_; ++d) v = std::min(v, free_vram(d));
    return v;
  }

  FaultInjector faults_;
  KeyPlacement mode_;
  int devices_;
  std::uint64_t vram_;
  // Before the curve devices that use them; they outlive every key and proof (the engine
  // drops its keys and stops its workers before its devices).
  std::vector<std::unique_ptr<gpu::DeviceContext>> contexts_;
  CudaCurveDevice<groth16::Bls12_381> bls_;
  CudaCurveDevice<groth16::Bn254> bn_;
};

}  // namespace

std::unique_ptr<Devices> make_cuda_devices(const EngineConfig& config) {
  return std::make_unique<CudaDevices>(config);
}

GpuProbe probe_gpus() {
  GpuProbe p;
  p.cuda_built = true;
  p.architectures = std::string(gpu::built_architectures());
  p.driver_version = gpu::driver_version();
  p.runtime_version = gpu::runtime_version();
  if (!gpu::device_available(&p.no_device_reason)) return p;
  for (int d = 0; d < gpu::device_count(); ++d) {
    GpuDevice g;
    g.index = d;
    try {
      const gpu::DeviceProperties props = gpu::device_properties(d);
      g.name = props.name;
      g.sm_major = props.sm_major;
      g.sm_minor = props.sm_minor;
      g.total_bytes = props.total_memory;
      g.supported = gpu::device_supported(d, &g.why_unsupported);  // as count() above decides
      if (g.supported) {
        gpu::DeviceGuard guard(d);
        std::size_t free = 0, total = 0;
        gpu::device_memory(&free, &total);
        g.free_bytes = free;
      }
    } catch (const std::exception& e) {
      g.supported = false;
      g.why_unsupported = e.what();
    }
    p.devices.push_back(std::move(g));
  }
  return p;
}

}  // namespace cuzk::engine
