// Key files and partition proofs of the Filecoin subcommands (key_cli.hpp).
#include "key_cli.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <set>
#include <stdexcept>

#include "cuzk/error.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "files.hpp"
#include "post_parse.hpp"

namespace cuzk::cli {

namespace fc = filecoin;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

CLI::App* add_key_setup_command(CLI::App& parent, const std::string& family, const char* proof_help,
                                KeySetupArgs& args, CLI::Option** seed_option) {
  CLI::App* cmd = parent.add_subcommand(
      "setup", "write TEST keys (.params, .vk) of " + family +
                   " circuits under the official names; NOT the official parameters");
  cmd->add_option("--proof", args.proofs, proof_help)->required();
  cmd->add_option("--dir", args.dir, "directory to write the keys into (never over an official key)")->required();
  *seed_option = cmd->add_option("--seed", args.seed, "seed of the toxic waste (default: random)");
  return cmd;
}

int write_test_key_set(const std::vector<TestKeyJob>& jobs, std::uint64_t seed, bool seed_given) {
  for (const TestKeyJob& j : jobs) {
    std::error_code ec;
    const bool exists = std::filesystem::exists(j.paths.params, ec) || std::filesystem::exists(j.paths.vk, ec);
    if (exists && !fc::is_test_key(j.paths))
      throw std::runtime_error(j.paths.params.string() +
                               " (or its .vk) exists and is not a cuzk TEST key; refusing to "
                               "overwrite what may be an official parameter file (choose another --dir)");
  }
  if (!seed_given) seed = (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}();
  std::set<std::filesystem::path> done;
  for (const TestKeyJob& j : jobs) {
    if (!done.insert(j.paths.params).second) continue;
    std::fprintf(stderr, "%s: recording the partition circuit...\n", j.name.c_str());
    auto t0 = std::chrono::steady_clock::now();
    const r1cs::R1CS<fc::Fr> circuit = j.record();
    std::fprintf(stderr,
                 "%s: %u constraints, %u public inputs (recorded in %.1f s); TEST setup (Groth16 key over "
                 "every constraint: minutes for a 2 KiB circuit on 2 cores)...\n",
                 j.name.c_str(), circuit.num_constraints, circuit.num_public, seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    fc::write_test_keys(j.paths, j.name, circuit, seed);
    std::fprintf(stderr, "%s: keys written in %.1f s\n  -> %s\n  -> %s\n", j.name.c_str(), seconds_since(t0),
                 j.paths.params.c_str(), j.paths.vk.c_str());
  }
  std::fprintf(stderr,
               "WARNING: these are TEST keys (toxic waste from a%s seed), NOT Filecoin's official parameters. Their\n"
               "proofs are rejected on chain. Each is marked by a .cuzk-test file beside its .params.\n",
               seed_given ? " fixed" : " random");
  return 0;
}

CliVk read_cli_vk(const std::string& vk_file, const fc::KeyPaths& paths, std::string_view circuit,
                  std::string_view setup_command) {
  if (vk_file.empty())
    return CliVk{fc::read_key_vk(paths, circuit, setup_command), paths.vk.string(), fc::is_test_key(paths)};
  const std::string bytes = read_text_file(vk_file);
  CliVk out;
  try {
    out.vk = groth16::read_bellperson_vk(as_bytes(bytes));
  } catch (const DecodeError& e) {
    throw DecodeError(vk_file + ": " + e.what());
  }
  out.path = vk_file;
  // A TEST key's marker sits beside its .params: <name>.params.cuzk-test.
  std::filesystem::path marker(vk_file);
  marker.replace_extension(".params.cuzk-test");
  std::error_code ec;
  out.test = std::filesystem::exists(marker, ec);
  return out;
}

int verify_partition_proofs(const std::string& proof_file, std::span<const std::uint8_t> proofs,
                            std::span<const std::size_t> partitions, const CliVk& vk, std::string_view circuit,
                            const std::function<std::vector<fc::Fr>(std::size_t)>& inputs_of) {
  std::string why;
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    const std::size_t k = partitions[i];
    const std::vector<fc::Fr> inputs = inputs_of(k);
    if (vk.vk.num_public() != inputs.size())
      throw DecodeError(vk.path + " has " + std::to_string(vk.vk.num_public()) + " public inputs; a " +
                        std::string(circuit) + " partition has " + std::to_string(inputs.size()) +
                        " (the key is another circuit's)");
    const auto bytes = proofs.subspan(i * groth16::kBellpersonProofSize, groth16::kBellpersonProofSize);
    try {
      const groth16::Proof<fc::Bls12> proof = groth16::read_bellperson_proof(bytes);
      if (!groth16::verify(vk.vk, proof, std::span<const fc::Fr>(inputs)))
        why += (why.empty() ? "" : ", ") + ("partition " + std::to_string(k));
    } catch (const DecodeError& e) {
      why += (why.empty() ? "" : ", ") + ("partition " + std::to_string(k) + ": " + e.what());
    }
  }
  const bool ok = why.empty();
  const std::size_t count = partitions.size();
  std::cout << (ok ? "OK" : "INVALID") << ": " << proof_file;
  if (ok)
    std::cout << " (" << count << " partition" << (count == 1 ? "" : "s") << ")\n";
  else
    std::cout << " (does not verify: " << why << ")\n";
  return ok ? 0 : 1;
}

}  // namespace cuzk::cli
