// cuzk post setup --proof P [--proof P ...] --dir DIR [--seed N]
// TEST keys of the PoSt circuits, under the official file names, beside a marker that says they
// are TEST keys. Never over an official key: a directory that already holds a .params or .vk of
// the same name without the marker is refused before anything is written.
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>

#include "commands.hpp"
#include "cuzk/filecoin/post_keys.hpp"
#include "cuzk/filecoin/post_record.hpp"
#include "post_parse.hpp"

namespace cuzk::cli {

int run_post_setup(const PostSetupArgs& a) {
  namespace fc = filecoin;
  // WindowPoSt V1 and V1_2 share their circuit and files: one key per file name.
  std::map<std::filesystem::path, const fc::PoStProofInfo*> todo;
  for (const std::string& p : a.proofs) {
    const fc::PoStProofInfo& info = fc::post_proof_info(parse_post_proof(p));
    const fc::PostKeyPaths paths = fc::post_key_paths(a.dir, info);
    std::error_code ec;
    const bool exists = std::filesystem::exists(paths.params, ec) || std::filesystem::exists(paths.vk, ec);
    if (exists && !fc::is_test_key(paths))
      throw std::runtime_error(paths.params.string() + " (or its .vk) exists and is not a cuzk TEST key; refusing to "
                               "overwrite what may be an official parameter file (choose another --dir)");
    todo.emplace(paths.params, &info);
  }
  std::uint64_t seed = a.seed;
  if (!a.seed_given) seed = (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}();
  for (const auto& [params, info] : todo) {
    const r1cs::R1CS<fc::Fr> circuit = fc::record_post_circuit(fc::post_shape(*info));
    const fc::PostKeyPaths paths = fc::write_test_post_keys(a.dir, *info, circuit, seed);
    std::fprintf(stderr, "%s: %u constraints, %u public inputs\n  -> %s\n  -> %s\n", std::string(info->name).c_str(),
                 circuit.num_constraints, circuit.num_public, paths.params.c_str(), paths.vk.c_str());
  }
  std::fprintf(stderr,
               "WARNING: these are TEST keys (toxic waste from a%s seed), NOT Filecoin's official parameters. Their\n"
               "proofs are rejected on chain. Each is marked by a .cuzk-test file beside its .params.\n",
               a.seed_given ? " fixed" : " random");
  return 0;
}

}  // namespace cuzk::cli
