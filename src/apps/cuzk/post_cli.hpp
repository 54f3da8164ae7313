// The `cuzk post` subcommands on the command line (CLI11): their options, and the dispatch.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "commands.hpp"

namespace cuzk::cli {

struct PostCli {
  PostSetupArgs setup;
  PostProveArgs prove;
  PostVerifyArgs verify;
  PostGenVanillaArgs gen;
  CLI::App *setup_cmd = nullptr, *prove_cmd = nullptr, *verify_cmd = nullptr, *gen_cmd = nullptr;
  CLI::Option* setup_seed = nullptr;
};

// Adds `post` and its subcommands to app. default_params_dir: the parameter directory when
// --params-dir is not given (main() derives it from FIL_PROOFS_PARAMETER_CACHE).
void add_post_commands(CLI::App& app, PostCli& c, const std::string& default_params_dir);

// Runs the post subcommand that was parsed and returns its exit status; -1 when none was.
int run_post_command(PostCli& c);

}  // namespace cuzk::cli
