// The `cuzk` subcommands. Each returns the process exit status: 0 on success, 1 when a
// proof does not verify, 2 on bad input (the error is printed to stderr).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::cli {

struct ProveArgs {
  std::string zkey, wtns, proof = "proof.json", pub = "public.json";
  std::string backend = "auto";  // auto | cpu | cuda
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

// `cuzk post ...`: Filecoin PoSt SNARKs from files (cmd_post_*.cpp). Randomness and sectors are
// kept as typed and parsed by the command (post_parse.hpp), so a bad value exits 2 with its message.
// `cuzk post|porep|snap setup`: TEST keys of Filecoin circuits (key_cli.hpp).
struct KeySetupArgs {
  std::vector<std::string> proofs;
  std::string dir;
  std::uint64_t seed = 0;
  bool seed_given = false;
};
using PostSetupArgs = KeySetupArgs;
struct PostProveArgs {
  std::string proof, randomness;
  bool chain_randomness = false;
  std::size_t partition = 0;
  std::string sector_ids;  // empty: not given
  std::vector<std::string> vanilla;
  std::string params_dir;  // main() sets the default from FIL_PROOFS_PARAMETER_CACHE
  std::string out = "proof.bin", pub;
  std::string backend = "auto";  // auto | cpu | cuda
  bool quiet = false;
};
struct PostVerifyArgs {
  std::string proof, randomness;
  bool chain_randomness = false;
  std::size_t partition = 0;
  std::vector<std::string> sectors;  // ID:COMM_R
  std::string proof_file, vk, params_dir;
};
struct PostGenVanillaArgs {
  std::string proof, randomness;
  bool chain_randomness = false;
  std::size_t partition = 0;
  std::string sector_ids, out_dir;
  std::uint64_t seed = 0;
};

// `cuzk porep ...`: Filecoin PoRep C2 (every partition's SNARK of one sector) from a C1 output
// (cmd_porep_*.cpp). Values are kept as typed and parsed by the command (seal_parse.hpp).
using PorepSetupArgs = KeySetupArgs;
struct PorepProveArgs {
  std::string c1, format = "auto", proof;  // proof: "" unless given
  std::string prover_id, sector;             // "" unless given
  std::string params_dir;                    // main() sets the default from FIL_PROOFS_PARAMETER_CACHE
  std::string out = "proof.bin";
  std::size_t partition = 0;
  bool partition_given = false;  // else every partition
  std::string backend = "auto";  // auto | cpu | cuda
  bool quiet = false;
};
struct PorepVerifyArgs {
  std::string proof, prover_id, ticket, seed, comm_r, comm_d;
  std::uint64_t sector = 0;
  std::size_t partition = 0;
  bool partition_given = false;  // else the file holds every partition's proof
  std::string proof_file, vk, params_dir;
};

// `cuzk snap ...`: Filecoin SnapDeals (every partition's SNARK of one sector update) from its vanilla
// partition proofs (cmd_snap_*.cpp). Values are kept as typed and parsed by the command.
using SnapSetupArgs = KeySetupArgs;
struct SnapProveArgs {
  std::vector<std::string> vanilla;  // one bincode PartitionProof per partition, in order
  std::string proof, comm_r_old, comm_r_new, comm_d_new;
  std::string params_dir;  // main() sets the default from FIL_PROOFS_PARAMETER_CACHE
  std::string out = "proof.bin";
  std::string backend = "auto";  // auto | cpu | cuda
  bool quiet = false;
};
struct SnapVerifyArgs {
  std::string proof, comm_r_old, comm_r_new, comm_d_new;
  std::string proof_file, vk, params_dir;
};
struct SnapGenVanillaArgs {
  std::string proof, out_dir;
  std::uint64_t seed = 0;
};

int run_prove(const ProveArgs& a);
int run_verify(const VerifyArgs& a);
int run_setup(const SetupArgs& a);
int run_export_vk(const ExportVkArgs& a);
int run_post_setup(const PostSetupArgs& a);
int run_post_prove(const PostProveArgs& a);
int run_post_verify(const PostVerifyArgs& a);
int run_post_gen_vanilla(const PostGenVanillaArgs& a);
int run_porep_setup(const PorepSetupArgs& a);
int run_porep_prove(const PorepProveArgs& a);
int run_porep_verify(const PorepVerifyArgs& a);
int run_snap_setup(const SnapSetupArgs& a);
int run_snap_prove(const SnapProveArgs& a);
int run_snap_verify(const SnapVerifyArgs& a);
int run_snap_gen_vanilla(const SnapGenVanillaArgs& a);

}  // namespace cuzk::cli
