// The simulated bls12_381 device (one heavy instantiation per curve).
#include "cpu_curve_device.hpp"

namespace cuzk::engine {

template <>
std::unique_ptr<CurveDevice<groth16::Bls12_381>> make_sim_curve_device<groth16::Bls12_381>(FaultInjector& f) {
  return std::make_unique<SimCurveDevice<groth16::Bls12_381>>(f);
}

}  // namespace cuzk::engine
