// What the Filecoin subcommands (`cuzk porep`, `cuzk snap`, `cuzk post`) share around key files
// and partition proofs: the TEST setup of a list of circuits, the verifying key a verify command
// reads, and the verification of a file of concatenated partition proofs. (Their prove step:
// filecoin_prove.hpp.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "cuzk/filecoin/circuit_keys.hpp"

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

// The verifying key of a verify command: the file `vk_file` (--vk) when given, else `paths.vk`
// (the parameter directory's). test: its TEST marker is there.
struct CliVk {
  groth16::VerifyingKey<filecoin::Bls12> vk;
  std::string path;
  bool test = false;
};
CliVk read_cli_vk(const std::string& vk_file, const filecoin::KeyPaths& paths, std::string_view circuit,
                  std::string_view setup_command);

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
