// The built-in circuits by name, their parameters (with defaults) and construction from a
// seed. The seed only draws the witness (private inputs, random paths); the constraint
// shape depends on the parameters alone, so one key serves every seed.
//   mul-chain        constraints (1024)                       chain length
//   sha256-merkle    depth (4), challenges (1)                 binary SHA-256 paths
//   poseidon-merkle  depth (2), challenges (1)                 arity-8 Poseidon paths
//   porep-like       log2_nodes (4), challenges (1), layers (2), parents (1)   (BLS12-381 only)
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/engine/config.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/gadgets/circuits/porep_like.hpp"
#include "cuzk/gadgets/circuits/poseidon_merkle.hpp"
#include "cuzk/gadgets/circuits/sha256_merkle.hpp"

namespace cuzk::engine {

using NativeParams = std::map<std::string, std::uint64_t>;

// Known names with their parameters' defaults.
inline const std::map<std::string, NativeParams>& native_defaults() {
  static const std::map<std::string, NativeParams> kDefaults{
      {"mul-chain", {{"constraints", 1024}}},
      {"sha256-merkle", {{"depth", 4}, {"challenges", 1}}},
      {"poseidon-merkle", {{"depth", 2}, {"challenges", 1}}},
      {"porep-like", {{"log2_nodes", 4}, {"challenges", 1}, {"layers", 2}, {"parents", 1}}},
  };
  return kDefaults;
}

// The spec's parameters merged over the defaults; throws std::invalid_argument naming the
// field for an unknown circuit or parameter, or a zero value.
inline NativeParams resolve_native_params(const std::string& name, const NativeParams& given, const std::string& field) {
  const auto it = native_defaults().find(name);
  if (it == native_defaults().end())
    throw std::invalid_argument(field + ".native: unknown circuit \"" + name + "\" (known: " +
                                join_names(native_circuit_names()) + ")");
  NativeParams p = it->second;
  for (const auto& [k, v] : given) {
    if (!p.contains(k)) {
      std::string known;
      for (const auto& [dk, dv] : it->second) known += (known.empty() ? "" : ", ") + dk;
      throw std::invalid_argument(field + ".params." + k + ": not a parameter of " + name + " (known: " + known + ")");
    }
    if (v == 0) throw std::invalid_argument(field + ".params." + k + ": must be at least 1");
    p[k] = v;
  }
  return p;
}

// Calls fn(circuit) with the named circuit built from its parameters and the witness seed.
template <class F, class Fn>
decltype(auto) with_native_circuit(const std::string& name, const NativeParams& p, std::uint64_t seed, Fn&& fn) {
  using namespace gadgets::circuits;
  if (name == "mul-chain") return fn(MulChain<F>{p.at("constraints"), seed});
  if (name == "sha256-merkle") return fn(Sha256Merkle<F>(p.at("depth"), p.at("challenges"), seed));
  if (name == "poseidon-merkle") return fn(PoseidonMerkle<F>(p.at("depth"), p.at("challenges"), seed));
  if constexpr (F::kBits > 254) {
    if (name == "porep-like")
      return fn(PorepLike<F>(p.at("log2_nodes"), p.at("challenges"), p.at("layers"), p.at("parents"), seed));
  }
  throw std::invalid_argument("native circuit \"" + name + "\" is not available on this curve");
}

}  // namespace cuzk::engine
