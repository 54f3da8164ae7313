// Options of the `cuzk snap` subcommands (snap_cli.hpp).
#include "snap_cli.hpp"

#include "filecoin_prove.hpp"
#include "key_cli.hpp"

#include "cuzk/error.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"

namespace cuzk::cli {

namespace {

constexpr const char* kUpdateProofHelp =
    "registered update proof: go-state-types number (0-4 = 2KiB, 8MiB, 512MiB, 32GiB, 64GiB) or name, "
    "case-insensitive (StackedDrg32GiBV1, ...)";
constexpr const char* kParamsHelp = "parameter directory (FIL_PROOFS_PARAMETER_CACHE)";
constexpr const char* kCommROldHelp =
    "comm_r_old, the sector's replica before the update: 64 hex digits or a sealed CID";
constexpr const char* kCommRNewHelp = "comm_r_new, the updated replica: 64 hex digits or a sealed CID (bagboea4b...)";
constexpr const char* kCommDNewHelp = "comm_d_new, the new data: 64 hex digits or an unsealed CID (baga6ea4sea...)";

void add_commitments(CLI::App* s, std::string& old_r, std::string& new_r, std::string& new_d) {
  s->add_option("--comm-r-old", old_r, kCommROldHelp)->required();
  s->add_option("--comm-r-new", new_r, kCommRNewHelp)->required();
  s->add_option("--comm-d-new", new_d, kCommDNewHelp)->required();
}

template <class Parse>
filecoin::Fr named(const char* option, const std::string& value, Parse parse) {
  try {
    return parse(value);
  } catch (const DecodeError& e) {
    throw DecodeError(std::string(option) + ": " + e.what());
  }
}

}  // namespace

filecoin::SnapPublic parse_snap_public(const filecoin::UpdateProofInfo& info, const std::string& comm_r_old,
                                       const std::string& comm_r_new, const std::string& comm_d_new) {
  filecoin::SnapPublic pub;
  pub.comm_r_old = named("--comm-r-old", comm_r_old, parse_comm_r);
  pub.comm_r_new = named("--comm-r-new", comm_r_new, parse_comm_r);
  pub.comm_d_new = named("--comm-d-new", comm_d_new, parse_comm_d);
  pub.h = filecoin::snap_h_default(info.nodes);
  return pub;
}

void add_snap_commands(CLI::App& app, SnapCli& c, const std::string& default_params_dir) {
  auto* snap = app.add_subcommand(
      "snap", "Filecoin SnapDeals (empty-sector update: all partitions' SNARKs) from vanilla proofs, through the "
              "proving engine (the GPU or the CPU)");
  snap->require_subcommand(1);

  c.setup_cmd = add_key_setup_command(*snap, "SnapDeals", kUpdateProofHelp, c.setup, &c.setup_seed);

  SnapProveArgs& p = c.prove;
  p.params_dir = default_params_dir;
  c.prove_cmd = snap->add_subcommand(
      "prove",
      "prove a sector update from its vanilla partition proofs; every one is checked before proving and every "
      "partition's proof is verified with the .vk before the proofs are written");
  c.prove_cmd
      ->add_option("--vanilla", p.vanilla,
                   "the vanilla proofs: one file per partition, in partition order, each a bincode PartitionProof "
                   "(filecoin-proofs-api generate_partition_proofs)")
      ->required()
      ->check(CLI::ExistingFile);
  c.prove_cmd->add_option("--proof", p.proof, kUpdateProofHelp)->required();
  add_commitments(c.prove_cmd, p.comm_r_old, p.comm_r_new, p.comm_d_new);
  c.prove_cmd->add_option("--params-dir", p.params_dir, kParamsHelp)->capture_default_str();
  c.prove_cmd->add_option("--out", p.out, "output: the partitions' proofs concatenated, 192 bytes each, in order")
      ->capture_default_str();
  add_backend_option(c.prove_cmd, p.backend);
  c.prove_cmd->add_flag("--quiet", p.quiet, "do not print the phase timings");

  SnapVerifyArgs& v = c.verify;
  v.params_dir = default_params_dir;
  c.verify_cmd = snap->add_subcommand(
      "verify",
      "verify a sector update's proof from what a chain verifier has (public inputs derived here from the "
      "commitments); exit 0 valid, 1 invalid, 2 bad input");
  c.verify_cmd->add_option("--proof", v.proof, kUpdateProofHelp)->required();
  add_commitments(c.verify_cmd, v.comm_r_old, v.comm_r_new, v.comm_d_new);
  c.verify_cmd->add_option("--proof-file", v.proof_file, "the proof: partitions x 192 bytes, in partition order")
      ->required()
      ->check(CLI::ExistingFile);
  auto* vk = c.verify_cmd->add_option("--vk", v.vk, "verifying key file (.vk), instead of the one in --params-dir")
                 ->check(CLI::ExistingFile);
  c.verify_cmd->add_option("--params-dir", v.params_dir, kParamsHelp)->capture_default_str()->excludes(vk);

  SnapGenVanillaArgs& g = c.gen;
  c.gen_cmd = snap->add_subcommand(
      "gen-vanilla",
      "write SYNTHETIC vanilla partition proofs of a sector update (test data, not from a real sector) and its "
      "commitments");
  c.gen_cmd->add_option("--proof", g.proof, kUpdateProofHelp)->required();
  c.gen_cmd->add_option("--out-dir", g.out_dir, "directory for partition-<k>.vproof and commitments.txt")->required();
  c.gen_cmd->add_option("--seed", g.seed, "seed of the synthetic sector's data")->capture_default_str();
}

int run_snap_command(SnapCli& c) {
  if (c.setup_cmd->parsed()) {
    c.setup.seed_given = c.setup_seed->count() > 0;
    return run_snap_setup(c.setup);
  }
  if (c.prove_cmd->parsed()) return run_snap_prove(c.prove);
  if (c.verify_cmd->parsed()) return run_snap_verify(c.verify);
  if (c.gen_cmd->parsed()) return run_snap_gen_vanilla(c.gen);
  return -1;
}

}  // namespace cuzk::cli
