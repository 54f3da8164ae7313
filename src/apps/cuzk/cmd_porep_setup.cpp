// cuzk porep setup --proof P [--proof P ...] --dir DIR [--seed N]
// TEST keys of the StackedDRG (PoRep) partition circuits, under the official file names, beside a
// marker that says they are TEST keys. Never over an official key: a directory that already holds
// a .params or .vk of the same name without the marker is refused before anything is written.
// The setup of a 2 KiB circuit (2.7M constraints) takes minutes on a few cores: each step is
// announced as it starts.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>

#include "commands.hpp"
#include "cuzk/filecoin/porep_circuit.hpp"
#include "cuzk/filecoin/porep_record.hpp"
#include "cuzk/filecoin/porep_keys.hpp"
#include "seal_parse.hpp"

namespace cuzk::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int run_porep_setup(const PorepSetupArgs& a) {
  namespace fc = filecoin;
  // Proofs whose circuits are the same (e.g. V1 and V1_1 of one sector size) share their files:
  // one key per file name.
  std::map<std::filesystem::path, const fc::SealProofInfo*> todo;
  for (const std::string& p : a.proofs) {
    const fc::SealProofInfo& info = fc::seal_proof_info(parse_seal_proof(p));
    if (info.feature == fc::SealFeature::NonInteractivePoRep)
      throw std::invalid_argument(std::string(info.name) + ": non-interactive PoRep is not supported");
    const fc::KeyPaths paths = fc::porep_key_paths(a.dir, info);
    std::error_code ec;
    const bool exists = std::filesystem::exists(paths.params, ec) || std::filesystem::exists(paths.vk, ec);
    if (exists && !fc::is_test_key(paths))
      throw std::runtime_error(paths.params.string() +
                               " (or its .vk) exists and is not a cuzk TEST key; refusing to "
                               "overwrite what may be an official parameter file (choose another --dir)");
    todo.emplace(paths.params, &info);
  }
  std::uint64_t seed = a.seed;
  if (!a.seed_given) seed = (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}();
  for (const auto& [params, info] : todo) {
    const std::string name(info->name);
    std::fprintf(stderr, "%s: recording the partition circuit...\n", name.c_str());
    auto t0 = std::chrono::steady_clock::now();
    const r1cs::R1CS<fc::Fr> circuit = fc::record_porep_circuit(fc::porep_shape(*info));
    std::fprintf(stderr,
                 "%s: %u constraints, %u public inputs (recorded in %.1f s); TEST setup (Groth16 key over "
                 "every constraint: minutes for a 2 KiB circuit on 2 cores)...\n",
                 name.c_str(), circuit.num_constraints, circuit.num_public, seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    const fc::KeyPaths paths = fc::porep_key_paths(a.dir, *info);
    fc::write_test_keys(paths, info->name, circuit, seed);
    std::fprintf(stderr, "%s: keys written in %.1f s\n  -> %s\n  -> %s\n", name.c_str(), seconds_since(t0),
                 paths.params.c_str(), paths.vk.c_str());
  }
  std::fprintf(stderr,
               "WARNING: these are TEST keys (toxic waste from a%s seed), NOT Filecoin's official parameters. Their\n"
               "proofs are rejected on chain. Each is marked by a .cuzk-test file beside its .params.\n",
               a.seed_given ? " fixed" : " random");
  return 0;
}

}  // namespace cuzk::cli
