// The `cuzk` subcommands. Each returns the process exit status: 0 on success, 1 when a
// proof does not verify, 2 on bad input (the error is printed to stderr).
#pragma once

#include <cstdint>
#include <string>

namespace cuzk::cli {

struct ProveArgs {
  std::string zkey, wtns, proof = "proof.json", pub = "public.json";
  bool quiet = false;
};
struct VerifyArgs {
  std::string vk, proof, pub;
};
struct SetupArgs {
  std::string r1cs, zkey, vk;
  std::uint64_t seed = 0;
  bool seed_given = false;
};
struct ExportVkArgs {
  std::string zkey, out = "verification_key.json";
};

int run_prove(const ProveArgs& a);
int run_verify(const VerifyArgs& a);
int run_setup(const SetupArgs& a);
int run_export_vk(const ExportVkArgs& a);

}  // namespace cuzk::cli
