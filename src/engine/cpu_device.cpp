// The CPU-simulated device backend: each simulated device proves with groth16::CpuBackend
// on the shared host cores; a "device copy" of a key shares the host key's memory and is
// only accounted against the simulated VRAM budget.
#include <memory>
#include <string>

#include "cpu_curve_device.hpp"

namespace cuzk::engine {

namespace {

class SimDevices final : public Devices {
 public:
  explicit SimDevices(const EngineConfig& c)
      : devices_(c.devices), faults_(c.fault),
        bls_(make_sim_curve_device<groth16::Bls12_381>(faults_)), bn_(make_sim_curve_device<groth16::Bn254>(faults_)) {}
  std::string_view name() const override { return "cpu"; }
  int device_count() const override { return devices_; }
  std::string device_name(int d) const override { return "cpu-sim-" + std::to_string(d); }
  std::uint64_t default_vram_budget(int) const override { return 4ull << 30; }
  std::uint64_t key_bytes(const KeyShape& s) const override { return key_host_bytes(s); }
  std::uint64_t scratch_bytes(const KeyShape& s) const override { return engine::scratch_bytes(s); }
  CurveDevice<groth16::Bls12_381>& bls12_381() override { return *bls_; }
  CurveDevice<groth16::Bn254>& bn254() override { return *bn_; }

 private:
  int devices_;
  FaultInjector faults_;
  std::unique_ptr<CurveDevice<groth16::Bls12_381>> bls_;
  std::unique_ptr<CurveDevice<groth16::Bn254>> bn_;
};

}  // namespace

std::unique_ptr<Devices> make_sim_devices(const EngineConfig& config) {
  return std::make_unique<SimDevices>(config);
}

}  // namespace cuzk::engine
