// The embedded default configuration: what `cuzk-daemon` runs without --config. The structs'
// defaults (the CPU backend, local listeners) plus small built-in circuits with TEST keys;
// `cuzk-daemon --print-default-config` prints it as TOML (config_render.hpp), which is also
// config/cuzk-daemon.example.toml.
#include "config_render.hpp"
#include "daemon_config.hpp"

namespace cuzk::server {

namespace {

engine::CircuitSpec native(std::string id, std::string circuit, r1cs::Curve curve,
                           std::map<std::string, std::uint64_t> params) {
  engine::CircuitSpec c;
  c.id = std::move(id);
  c.native = std::move(circuit);
  c.curve = curve;
  c.params = std::move(params);
  return c;
}

}  // namespace

DaemonConfig default_daemon_config() {
  DaemonConfig c;
  c.engine.circuits = {native("mul-chain", "mul-chain", r1cs::Curve::bls12_381, {{"constraints", 4096}}),
                       native("mul-chain-bn254", "mul-chain", r1cs::Curve::bn254, {{"constraints", 2048}}),
                       native("poseidon-merkle", "poseidon-merkle", r1cs::Curve::bls12_381,
                              {{"depth", 2}, {"challenges", 2}})};
  c.engine.preload = {"mul-chain"};
  return c;
}

std::string default_config_toml() { return config_toml(default_daemon_config()); }

}  // namespace cuzk::server
