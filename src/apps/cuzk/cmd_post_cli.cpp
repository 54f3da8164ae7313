// Options of the `cuzk post` subcommands (post_cli.hpp).
#include "post_cli.hpp"

#include "filecoin_prove.hpp"
#include "key_cli.hpp"

namespace cuzk::cli {

namespace {

constexpr const char* kPostProofHelp =
    "registered PoSt proof: go-state-types number (e.g. 8) or name, case-insensitive (StackedDrgWindow32GiBV1, "
    "StackedDrgWindow32GiBV1_2 or Go's ..._1, StackedDrgWinning2KiBV1, ...)";
constexpr const char* kRandomnessHelp =
    "the 32-byte challenge seed as 64 hex digits or base64; must be a canonical field element (see --chain-randomness)";
constexpr const char* kChainHelp =
    "--randomness is chain randomness: clear the top two bits of its byte 31 first, as Lotus does";
constexpr const char* kPartitionHelp = "WindowPoSt partition index (WinningPoSt: 0)";

void add_request(CLI::App* s, std::string& proof, std::string& randomness, bool& chain, std::size_t& partition) {
  s->add_option("--proof", proof, kPostProofHelp)->required();
  s->add_option("--randomness", randomness, kRandomnessHelp)->required();
  s->add_flag("--chain-randomness", chain, kChainHelp);
  s->add_option("--partition", partition, kPartitionHelp)->capture_default_str();
}

}  // namespace

void add_post_commands(CLI::App& app, PostCli& c, const std::string& default_params_dir) {
  auto* post = app.add_subcommand("post", "Filecoin PoSt SNARKs (WindowPoSt, WinningPoSt) from files, through the proving engine (the GPU or the CPU)");
  post->require_subcommand(1);

  c.setup_cmd = add_key_setup_command(*post, "PoSt", kPostProofHelp, c.setup, &c.setup_seed);

  PostProveArgs& p = c.prove;
  p.params_dir = default_params_dir;
  c.prove_cmd = post->add_subcommand(
      "prove", "prove one WindowPoSt partition or one WinningPoSt from vanilla proofs; all input is checked before "
               "proving and the proof is verified with the .vk before it is written");
  add_request(c.prove_cmd, p.proof, p.randomness, p.chain_randomness, p.partition);
  c.prove_cmd->add_option("--sector-ids", p.sector_ids, "1,2,...: the sectors the vanilla proofs must be, in order");
  c.prove_cmd
      ->add_option("--vanilla", p.vanilla, "vanilla proof file (filecoin-proofs-api bincode), one per sector, in order")
      ->required()
      ->check(CLI::ExistingFile);
  c.prove_cmd->add_option("--params-dir", p.params_dir, "parameter directory (FIL_PROOFS_PARAMETER_CACHE)")
      ->capture_default_str();
  c.prove_cmd->add_option("--out", p.out, "output proof (192 bytes, bellperson format)")->capture_default_str();
  c.prove_cmd->add_option("--public", p.pub, "also write the public inputs here (JSON, decimal strings)");
  add_backend_option(c.prove_cmd, p.backend);
  c.prove_cmd->add_flag("--quiet", p.quiet, "do not print the phase timings");

  PostVerifyArgs& v = c.verify;
  v.params_dir = default_params_dir;
  c.verify_cmd = post->add_subcommand(
      "verify", "verify a PoSt proof from what a chain verifier has (challenges derived here); exit 0 valid, "
                "1 invalid, 2 bad input");
  add_request(c.verify_cmd, v.proof, v.randomness, v.chain_randomness, v.partition);
  c.verify_cmd->add_option("--sector", v.sectors,
                           "ID:COMM_R (comm_r as 64 hex digits or a sealed CID). WindowPoSt: the partition's sectors "
                           "in order; WinningPoSt: exactly one")
      ->required();
  c.verify_cmd->add_option("--proof-file", v.proof_file, "the proof (192 bytes)")->required()->check(CLI::ExistingFile);
  auto* vk = c.verify_cmd->add_option("--vk", v.vk, "verifying key file (.vk), instead of the one in --params-dir")
                 ->check(CLI::ExistingFile);
  c.verify_cmd->add_option("--params-dir", v.params_dir, "parameter directory (FIL_PROOFS_PARAMETER_CACHE)")
      ->capture_default_str()
      ->excludes(vk);

  PostGenVanillaArgs& g = c.gen;
  c.gen_cmd = post->add_subcommand(
      "gen-vanilla", "write SYNTHETIC vanilla proofs (no sealed sector: for tests and load tests) and a sectors.txt of "
                     "ID:COMM_R lines for `post verify`");
  add_request(c.gen_cmd, g.proof, g.randomness, g.chain_randomness, g.partition);
  c.gen_cmd->add_option("--sector-ids", g.sector_ids, "1,2,...: the partition's sectors, in order")->required();
  c.gen_cmd->add_option("--out-dir", g.out_dir, "where to write <sector>.vproof and sectors.txt")->required();
  c.gen_cmd->add_option("--seed", g.seed, "seed of the synthetic data")->capture_default_str();
}

int run_post_command(PostCli& c) {
  if (c.setup_cmd->parsed()) {
    c.setup.seed_given = c.setup_seed->count() > 0;
    return run_post_setup(c.setup);
  }
  if (c.prove_cmd->parsed()) return run_post_prove(c.prove);
  if (c.verify_cmd->parsed()) return run_post_verify(c.verify);
  if (c.gen_cmd->parsed()) return run_post_gen_vanilla(c.gen);
  return -1;
}

}  // namespace cuzk::cli
