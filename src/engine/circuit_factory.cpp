// make_circuit: the one curve dispatch of the engine (the .zkey header or the spec's curve).
#include <stdexcept>

#include "circuit.hpp"
#include "native_circuits.hpp"
#include "cuzk/groth16/curve_dispatch.hpp"
#include "cuzk/groth16/zkey.hpp"

namespace cuzk::engine {

std::unique_ptr<Circuit> make_circuit(const CircuitSpec& spec, const std::filesystem::path& cache_dir,
                                      const std::string& field) {
  if (spec.id.empty()) throw std::invalid_argument(field + ".id: empty");
  if (spec.zkey_path.empty() == spec.native.empty())
    throw std::invalid_argument(field + ": exactly one of zkey_path and native must be set (circuit " + spec.id + ")");
  if (!spec.zkey_path.empty()) {
    r1cs::Curve curve;
    try {
      curve = groth16::zkey_curve(io::BinFile::open(spec.zkey_path, groth16::zkey_detail::kZkeyFile));
    } catch (const std::exception& e) {
      throw std::invalid_argument(field + ".zkey_path: " + e.what());
    }
    return groth16::dispatch_curve(curve, [&]<class E>() { return make_zkey_circuit<E>(spec, field); });
  }
  return groth16::dispatch_curve(spec.curve, [&]<class E>() { return make_native_circuit<E>(spec, cache_dir, field); });
}

const std::vector<std::string>& native_circuit_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> v;
    for (const auto& [name, defaults] : native_defaults()) v.push_back(name);
    return v;
  }();
  return kNames;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace cuzk::engine
