// What the engine's Filecoin circuits (PoSt, PoRep, SnapDeals) share: key files under their
// official names in the parameter directory (official or cuzk TEST keys), a shape read from the
// .params headers and checked against the circuit's counts, the key loaded and joined with the
// recorded circuit, and the list of circuits served from a directory.
//
// A key file that does not fit cuzk's circuit (counts of inputs, variables, domain) is refused at
// start with the counts that differ; a proof that does not verify with it says so, naming the key:
// with official parameters that is the answer to whether cuzk's circuit is Filecoin's.
#pragma once

#include <spdlog/spdlog.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/circuit_keys.hpp"
#include "typed_circuit.hpp"

namespace cuzk::engine {

// A Filecoin partition circuit's sizes, as its recording gives them.
struct FilecoinCircuitCounts {
  std::uint64_t public_inputs = 0;  // ONE excluded
  std::uint64_t vars = 0;           // ONE included
  std::uint64_t constraints = 0;
  std::uint64_t a_nnz = 0, b_nnz = 0;
};

// The key's shape from `paths.params`' headers (nothing decoded). Throws std::runtime_error
// naming the file, `circuit` and the count that differs when the file is not for those counts.
KeyShape filecoin_key_shape(const filecoin::KeyPaths& paths, std::string_view circuit, const FilecoinCircuitCounts& c);

// The base of the Filecoin circuits: its id, key files and whether they are TEST keys. Derived
// classes set shape_ (filecoin_key_shape) in their constructor.
class FilecoinCircuit : public TypedCircuit<groth16::Bls12_381> {
 public:
  std::string source() const override { return paths_.params.string(); }

 protected:
  FilecoinCircuit(std::string id, filecoin::KeyPaths paths);

  // The proving key (circuit_keys.hpp load_proving_key's result) handed to backend b, with a
  // warning when it is a TEST key.
  std::shared_ptr<const HostKey> prepared_key(Devices& b, groth16::ProvingKey<groth16::Bls12_381> pk) const;

  // The full witness w as the engine's Witness, once its public inputs are `expected` (those a
  // verifier derives); else EngineError kInternal naming the circuit and `where` (" partition 3").
  std::unique_ptr<Witness> witness_with_inputs(std::vector<Fr> w, std::span<const Fr> expected,
                                               const std::string& where) const;

  filecoin::KeyPaths paths_;
  bool test_key_ = false;
};

// A circuit the engine may serve: its registered proof's name, its key files, and how to make it.
struct FilecoinCandidate {
  std::string id;  // the circuit's id ("porep-32gib")
  std::string proof_name;
  filecoin::KeyPaths paths;
  std::function<std::unique_ptr<Circuit>()> make;
};

// Which Filecoin circuits an engine serves: those listed in `only` (EngineConfig::
// filecoin_circuits; empty: all) whose .params and .vk are in the directory. Why a circuit with
// its files there is not served goes into `left_out` (by id), for the engine's messages.
struct FilecoinSelection {
  const std::vector<std::string>& only;
  std::map<std::string, std::string>& left_out;
};

// The selected candidates whose .params and .vk are both in their directory, made (each costs
// the recording of its circuit's counts: seconds for a 32 GiB sector); one that throws (a key
// that does not fit) is logged and left out. Logs the list, `what` naming the family ("PoRep").
std::vector<std::unique_ptr<Circuit>> serve_filecoin_circuits(const std::filesystem::path& dir, std::string_view what,
                                                              const std::vector<FilecoinCandidate>& candidates,
                                                              const FilecoinSelection& sel);

}  // namespace cuzk::engine
