// cuzk: Groth16 setup / prove / verify / export for circom and snarkjs files, Filecoin PoSt
// SNARKs from vanilla proofs (`cuzk post ...`), PoRep C2 from C1 outputs (`cuzk porep ...`) and
// SnapDeals from vanilla partition proofs (`cuzk snap ...`).
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <exception>
#include <iostream>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/parameter_names.hpp"
#include "porep_cli.hpp"
#include "post_cli.hpp"
#include "snap_cli.hpp"
#ifdef CUZK_CLI_DOCTOR
#include "doctor_cli.hpp"
#endif

int main(int argc, char** argv) {
  using namespace cuzk::cli;
  CLI::App app{
      "cuzk: Groth16 proving for BLS12-381 and BN254 (snarkjs/circom files), Filecoin PoSt, PoRep and SnapDeals"};
  app.set_version_flag("--version", std::string("cuzk ") + CUZK_VERSION);
  app.require_subcommand(1);

  ProveArgs prove;
  auto* p = app.add_subcommand("prove", "prove with a snarkjs .zkey and a circom .wtns; the proof is verified before it is written");
  p->add_option("--zkey", prove.zkey, "proving key (.zkey)")->required()->check(CLI::ExistingFile);
  p->add_option("--wtns", prove.wtns, "witness (.wtns)")->required()->check(CLI::ExistingFile);
  p->add_option("--proof", prove.proof, "output proof.json")->capture_default_str();
  p->add_option("--public", prove.pub, "output public.json")->capture_default_str();
  p->add_flag("--quiet", prove.quiet, "do not print the phase timings");
  p->add_option("--backend", prove.backend,
                "cuda: on the GPU through the proving engine (the daemon's path); cpu; auto: the GPU when one this "
                "build runs on is present")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();

  VerifyArgs verify;
  auto* v = app.add_subcommand("verify", "verify a snarkjs proof.json against verification_key.json (exit 0 valid, 1 invalid)");
  v->add_option("--vk", verify.vk, "verification_key.json")->required()->check(CLI::ExistingFile);
  v->add_option("--proof", verify.proof, "proof.json")->required()->check(CLI::ExistingFile);
  v->add_option("--public", verify.pub, "public.json")->required()->check(CLI::ExistingFile);

  SetupArgs setup;
  auto* s = app.add_subcommand("setup", "TEST setup from a circom .r1cs: writes a .zkey snarkjs can use (toxic waste from a seed)");
  s->add_option("--r1cs", setup.r1cs, "circuit (.r1cs)")->required()->check(CLI::ExistingFile);
  s->add_option("--zkey", setup.zkey, "output proving key (.zkey)")->required();
  s->add_option("--vk", setup.vk, "also write verification_key.json here");
  auto* seed = s->add_option("--seed", setup.seed, "seed of the toxic waste (default: random)");

  ExportVkArgs exp;
  auto* e = app.add_subcommand("export", "export data from a key");
  e->require_subcommand(1);
  auto* evk = e->add_subcommand("vk", "write the verification_key.json of a .zkey");
  evk->add_option("--zkey", exp.zkey, "proving key (.zkey)")->required()->check(CLI::ExistingFile);
  evk->add_option("--out", exp.out, "output verification_key.json")->capture_default_str();

  // The one place the environment is read: the parameter directory's default (and doctor's token).
  const std::string env_name(cuzk::filecoin::kParameterCacheEnvVar);
  const std::string params_dir = cuzk::filecoin::parameter_cache_dir(std::getenv(env_name.c_str())).string();
  PostCli post;
  add_post_commands(app, post, params_dir);
  PorepCli porep;
  add_porep_commands(app, porep, params_dir);
  SnapCli snap;
  add_snap_commands(app, snap, params_dir);
#ifdef CUZK_CLI_DOCTOR
  DoctorCli doctor;
  const char* env_token = std::getenv("CUZK_TOKEN");
  add_doctor_command(app, doctor, params_dir, env_token ? env_token : "");
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& ex) {
    const int rc = app.exit(ex);  // prints the help or the usage error
    return rc == 0 ? 0 : 2;       // bad usage is bad input
  }
  try {
    if (const int rc = run_post_command(post); rc >= 0) return rc;
    if (const int rc = run_porep_command(porep); rc >= 0) return rc;
    if (const int rc = run_snap_command(snap); rc >= 0) return rc;
#ifdef CUZK_CLI_DOCTOR
    if (const int rc = run_doctor_command(doctor); rc >= 0) return rc;
#endif
    if (p->parsed()) return run_prove(prove);
    if (v->parsed()) return run_verify(verify);
    if (s->parsed()) {
      setup.seed_given = seed->count() > 0;
      return run_setup(setup);
    }
    if (evk->parsed()) return run_export_vk(exp);
  } catch (const cuzk::DecodeError& ex) {
    std::cerr << "error: bad input: " << ex.what() << "\n";
    return 2;
  } catch (const std::exception& ex) {
    std::cerr << "error: " << ex.what() << "\n";
    return 2;
  }
  return 2;
}
