// Options of the `cuzk porep` subcommands (porep_cli.hpp).
#include "porep_cli.hpp"

#include "filecoin_prove.hpp"
#include "key_cli.hpp"

namespace cuzk::cli {

namespace {

constexpr const char* kSealProofHelp =
    "registered seal proof: go-state-types number (e.g. 8) or name, case-insensitive (StackedDrg32GiBV1_1, "
    "StackedDrg2KiBV1, ...; synthetic PoRep ..._Feat_SyntheticPoRep; non-interactive PoRep is not supported)";
constexpr const char* kProverHelp = "the miner: actor id (1000, f01000, t01000) or the prover id as 64 hex digits";
constexpr const char* kParamsHelp = "parameter directory (FIL_PROOFS_PARAMETER_CACHE)";

}  // namespace

void add_porep_commands(CLI::App& app, PorepCli& c, const std::string& default_params_dir) {
  auto* porep = app.add_subcommand("porep",
                                   "Filecoin PoRep C2 (a sector's SNARK, all its partitions) from a C1 output, "
                                   "through the proving engine (the GPU or the CPU)");
  porep->require_subcommand(1);

  c.setup_cmd = add_key_setup_command(*porep, "PoRep", kSealProofHelp, c.setup, &c.setup_seed);

  PorepProveArgs& p = c.prove;
  p.params_dir = default_params_dir;
  c.prove_cmd = porep->add_subcommand(
      "prove",
      "prove a sector's PoRep (C2) from its C1 output; the C1 is checked before proving and every partition's "
      "proof is verified with the .vk before the proofs are written");
  c.prove_cmd->add_option("--c1", p.c1, "the C1 output (SealCommitPhase1Output)")->required()->check(CLI::ExistingFile);
  c.prove_cmd
      ->add_option("--format", p.format,
                   "auto, json (filecoin-ffi's JSON), curio (Curio's {SectorNum, Phase1Out, SectorSize}) or "
                   "bincode (supraseal's; needs --proof)")
      ->capture_default_str();
  c.prove_cmd->add_option("--proof", p.proof,
                          std::string(kSealProofHelp) + "; a JSON C1 names its own, which must equal it");
  c.prove_cmd->add_option("--prover-id", p.prover_id,
                          std::string(kProverHelp) +
                              "; with --sector: the replica id is "
                              "checked too");
  c.prove_cmd->add_option("--sector", p.sector, "sector number (a Curio envelope's SectorNum by default)");
  c.prove_cmd->add_option("--params-dir", p.params_dir, kParamsHelp)->capture_default_str();
  c.prove_cmd->add_option("--out", p.out, "output: the partitions' proofs concatenated, 192 bytes each, in order")
      ->capture_default_str();
  c.prove_partition =
      c.prove_cmd->add_option("--partition", p.partition,
                              "prove this partition only: its 192-byte proof (default: every partition)");
  add_backend_option(c.prove_cmd, p.backend);
  c.prove_cmd->add_flag("--quiet", p.quiet, "do not print the phase timings");

  PorepVerifyArgs& v = c.verify;
  v.params_dir = default_params_dir;
  c.verify_cmd = porep->add_subcommand(
      "verify",
      "verify a sector's PoRep proof from what a chain verifier has (replica id, challenges and public "
      "inputs derived here); exit 0 valid, 1 invalid, 2 bad input");
  c.verify_cmd->add_option("--proof", v.proof, kSealProofHelp)->required();
  c.verify_cmd->add_option("--prover-id", v.prover_id, kProverHelp)->required();
  c.verify_cmd->add_option("--sector", v.sector, "sector number")->required();
  c.verify_cmd->add_option("--ticket", v.ticket, "the sealing ticket, 64 hex digits (as drawn)")->required();
  c.verify_cmd->add_option("--seed", v.seed, "the interactive challenge seed, 64 hex digits (as drawn)")->required();
  c.verify_cmd->add_option("--comm-r", v.comm_r, "comm_r: 64 hex digits or a sealed CID (bagboea4b...)")->required();
  c.verify_cmd->add_option("--comm-d", v.comm_d, "comm_d: 64 hex digits or an unsealed CID (baga6ea4sea...)")
      ->required();
  c.verify_cmd->add_option("--proof-file", v.proof_file, "the proof: partitions x 192 bytes, in partition order")
      ->required()
      ->check(CLI::ExistingFile);
  c.verify_partition = c.verify_cmd->add_option(
      "--partition", v.partition, "the file holds this partition's proof only (192 bytes; `prove --partition`)");
  auto* vk = c.verify_cmd->add_option("--vk", v.vk, "verifying key file (.vk), instead of the one in --params-dir")
                 ->check(CLI::ExistingFile);
  c.verify_cmd->add_option("--params-dir", v.params_dir, kParamsHelp)->capture_default_str()->excludes(vk);
}

int run_porep_command(PorepCli& c) {
  if (c.setup_cmd->parsed()) {
    c.setup.seed_given = c.setup_seed->count() > 0;
    return run_porep_setup(c.setup);
  }
  if (c.prove_cmd->parsed()) {
    c.prove.partition_given = c.prove_partition->count() > 0;
    return run_porep_prove(c.prove);
  }
  if (c.verify_cmd->parsed()) {
    c.verify.partition_given = c.verify_partition->count() > 0;
    return run_porep_verify(c.verify);
  }
  return -1;
}

}  // namespace cuzk::cli
