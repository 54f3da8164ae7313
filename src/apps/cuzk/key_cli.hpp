// What the Filecoin subcommands (`cuzk porep`, `cuzk snap`, `cuzk post`) share around key files
// and partition proofs: the TEST setup of a list of circuits, the proving key a prove command
// loads and the proof of one partition, the verifying key a verify command reads, the phase
// printout, and the verification of a file of concatenated partition proofs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/filecoin/circuit_keys.hpp"
#include "cuzk/groth16/timings.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace cuzk::cli {

// `<parent> setup --proof P [--proof P ...] --dir DIR [--seed N]` into args, for the circuits of
// `family` ("PoRep"); *seed_option tells whether --seed was given.
CLI::App* add_key_setup_command(CLI::App& parent, const std::string& family, const char* proof_help,
                                KeySetupArgs& args, CLI::Option** seed_option);

// One circuit to write TEST keys for: its name in messages, its files and how to record it.
struct TestKeyJob {
  std::string name;
  filecoin::KeyPaths paths;
  std::function<r1cs::R1CS<filecoin::Fr>()> record;
};

// Refuses, before anything is written, a job whose .params or .vk exists without the TEST
// marker (it may be an official file). Then, once per .params file (proofs sharing a circuit
// share it), announces and records the circuit and writes its keys with `seed` (random unless
// seed_given), and ends with the TEST-key warning. Returns 0.
int write_test_key_set(const std::vector<TestKeyJob>& jobs, std::uint64_t seed, bool seed_given);

// The proving key of a prove command: its files required (else the message names them and
// setup_command), a warning printed when it is a TEST key, the circuit recorded (phase "record")
// and joined with the .params (phase "load_key"; circuit_keys.hpp load_proving_key).
struct CliProvingKey {
  groth16::ProvingKey<filecoin::Bls12> pk;
  std::string vk_path;
  bool test = false;
  std::uint32_t num_constraints = 0;
};
CliProvingKey load_cli_proving_key(const filecoin::KeyPaths& paths, std::string_view circuit,
                                   std::string_view setup_command,
                                   const std::function<r1cs::R1CS<filecoin::Fr>()>& record, groth16::PhaseTimings& t);

// Proves the full witness w on the CPU and verifies the proof with the key's .vk against `inputs`
// (phase "verify"); returns the 192-byte proof (bellperson's format). w's public inputs must be
// `inputs` (else std::logic_error: a bug in cuzk). A proof that does not verify runs `explain`
// (when given; unsatisfied() makes one), which throws the reason, else blames the key. Messages
// start with `label` ("partition 3: " or "").
std::vector<std::uint8_t> prove_and_verify(const CliProvingKey& key, std::vector<filecoin::Fr> w,
                                           std::span<const filecoin::Fr> inputs, const std::string& label,
                                           groth16::PhaseTimings& t, const std::function<void()>& explain = {});

// An `explain` for prove_and_verify: throws naming the circuit's first unsatisfied constraint,
// `input` being what its values came from ("the C1"); does nothing when it is satisfied.
template <class Circuit>
std::function<void()> unsatisfied(const Circuit& circuit, const std::string& label, const std::string& input) {
  return [&circuit, label, input] {
    if (const auto u = cs::check<filecoin::Fr>(circuit))
      throw std::runtime_error(label + input + " does not satisfy the circuit (constraint " + std::to_string(u->index) +
                               ", " + u->name + "); nothing written");
  };
}

// The partitions' proofs of a prove command, collected in partition order with their phases
// printed (unless quiet); write() writes them concatenated (192 bytes each) and the summary.
class PartitionProofFile {
 public:
  // Prints `header` and the preparation phases.
  PartitionProofFile(bool quiet, const std::string& header, const groth16::PhaseTimings& prep);
  void add(std::size_t k, std::span<const std::uint8_t> proof, const groth16::PhaseTimings& t);
  // "proved <name>: N partition proof(s) (M public inputs each) -> <path>, B bytes[ (TEST key)]".
  void write(const std::string& path, std::string_view name, std::size_t num_inputs, bool test_key) const;

 private:
  bool quiet_;
  double total_ = 0;
  std::size_t count_ = 0;
  std::string bytes_;
};

// The verifying key of a verify command: the file `vk_file` (--vk) when given, else `paths.vk`
// (the parameter directory's). test: its TEST marker is there.
struct CliVk {
  groth16::VerifyingKey<filecoin::Bls12> vk;
  std::string path;
  bool test = false;
};
CliVk read_cli_vk(const std::string& vk_file, const filecoin::KeyPaths& paths, std::string_view circuit,
                  std::string_view setup_command);

// Prints each phase ("  name   12.34 ms") to stderr and adds it to total.
void print_phases(const groth16::PhaseTimings& t, double& total);

// Verifies the 192-byte proofs in `proofs` (the file `proof_file`, already checked to hold
// partitions.size() of them), proof i being partition partitions[i]'s, against
// inputs_of(partition); prints "OK: <file> (N partitions)" or "INVALID: <file> (does not verify:
// partition k, ...)" to stdout and returns 0 or 1. Points that do not decode make a proof invalid,
// as on chain. Throws DecodeError when the key has another number of public inputs than
// `circuit`'s partitions (it is another circuit's key).
int verify_partition_proofs(const std::string& proof_file, std::span<const std::uint8_t> proofs,
                            std::span<const std::size_t> partitions, const CliVk& vk, std::string_view circuit,
                            const std::function<std::vector<filecoin::Fr>(std::size_t)>& inputs_of);

}  // namespace cuzk::cli
