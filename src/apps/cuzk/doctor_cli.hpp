// `cuzk doctor` on the command line (CLI11): its options and the dispatch. Built where the
// daemon's config reader and client are (gRPC found: CUZK_CLI_DOCTOR).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace cuzk::cli {

struct DoctorCli {
  std::string config;      // "": the daemon's embedded default
  std::string params_dir;  // "": [filecoin] parameter_dir, else the environment's default
  std::string target, token, tls_ca;  // target "": the daemon is not checked
  std::string default_params_dir;     // main() derives it from FIL_PROOFS_PARAMETER_CACHE
  CLI::App* cmd = nullptr;
};

// default_params_dir: the parameter directory when neither --params-dir nor the config gives one;
// default_token: --token's default ($CUZK_TOKEN).
void add_doctor_command(CLI::App& app, DoctorCli& c, const std::string& default_params_dir,
                        const std::string& default_token);

// Runs `cuzk doctor` when it was parsed: 0 when everything the config needs is there, 1 otherwise
// (the report says why); -1 when another command was parsed.
int run_doctor_command(const DoctorCli& c);

}  // namespace cuzk::cli
