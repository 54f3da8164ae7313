// The `cuzk porep` subcommands on the command line (CLI11): their options, and the dispatch.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "commands.hpp"

namespace cuzk::cli {

struct PorepCli {
  PorepSetupArgs setup;
  PorepProveArgs prove;
  PorepVerifyArgs verify;
  CLI::App *setup_cmd = nullptr, *prove_cmd = nullptr, *verify_cmd = nullptr;
  CLI::Option *setup_seed = nullptr, *prove_partition = nullptr, *verify_partition = nullptr;
};

// Adds `porep` and its subcommands to app. default_params_dir: the parameter directory when
// --params-dir is not given (main() derives it from FIL_PROOFS_PARAMETER_CACHE).
void add_porep_commands(CLI::App& app, PorepCli& c, const std::string& default_params_dir);

// Runs the porep subcommand that was parsed and returns its exit status; -1 when none was.
int run_porep_command(PorepCli& c);

}  // namespace cuzk::cli
