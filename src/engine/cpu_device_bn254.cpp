// The simulated bn254 device (one heavy instantiation per curve).
#include "cpu_curve_device.hpp"

namespace cuzk::engine {

template <>
std::unique_ptr<CurveDevice<groth16::Bn254>> make_sim_curve_device<groth16::Bn254>(FaultInjector& f) {
  return std::make_unique<SimCurveDevice<groth16::Bn254>>(f);
}

}  // namespace cuzk::engine
