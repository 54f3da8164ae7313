// The `cuzk snap` subcommands on the command line (CLI11): their options, the dispatch, and the
// sector update's public values as typed.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "commands.hpp"
#include "cuzk/filecoin/snap_check.hpp"
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::cli {

struct SnapCli {
  SnapSetupArgs setup;
  SnapProveArgs prove;
  SnapVerifyArgs verify;
  SnapGenVanillaArgs gen;
  CLI::App *setup_cmd = nullptr, *prove_cmd = nullptr, *verify_cmd = nullptr, *gen_cmd = nullptr;
  CLI::Option* setup_seed = nullptr;
};

// Adds `snap` and its subcommands to app. default_params_dir: the parameter directory when
// --params-dir is not given (main() derives it from FIL_PROOFS_PARAMETER_CACHE).
void add_snap_commands(CLI::App& app, SnapCli& c, const std::string& default_params_dir);

// Runs the snap subcommand that was parsed and returns its exit status; -1 when none was.
int run_snap_command(SnapCli& c);

// --comm-r-old and --comm-r-new (64 hex digits or sealed CIDs), --comm-d-new (64 hex digits or an
// unsealed CID), each a canonical field element, and the production h of the sector size.
// DecodeError names the option.
filecoin::SnapPublic parse_snap_public(const filecoin::UpdateProofInfo& info, const std::string& comm_r_old,
                                       const std::string& comm_r_new, const std::string& comm_d_new);

}  // namespace cuzk::cli
