// The bls12_381 circuits (one heavy instantiation per curve).
#include "native_circuit.hpp"
#include "zkey_circuit.hpp"

namespace cuzk::engine {

template <>
std::unique_ptr<Circuit> make_zkey_circuit<groth16::Bls12_381>(const CircuitSpec& spec, const std::string& field) {
  return std::make_unique<ZkeyCircuit<groth16::Bls12_381>>(spec, field);
}

template <>
std::unique_ptr<Circuit> make_native_circuit<groth16::Bls12_381>(const CircuitSpec& spec, const std::filesystem::path& cache_dir,
                                                          const std::string& field) {
  return std::make_unique<NativeCircuit<groth16::Bls12_381>>(spec, cache_dir, field);
}

}  // namespace cuzk::engine
