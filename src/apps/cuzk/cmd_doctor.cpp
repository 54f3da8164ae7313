// cuzk doctor [--config cuzk-daemon.toml] [--params-dir DIR] [--target unix:/path|host:port]
// Reads the config as the daemon does, checks the machine against it (doctor.hpp) and prints one
// line per finding: OK, WARN or FAIL, the topic and the reason.
#include <cstdio>
#include <iostream>
#include <string>

#include "daemon_config.hpp"
#include "doctor.hpp"
#include "doctor_cli.hpp"

namespace cuzk::cli {

namespace doctor {

std::size_t Report::count(Level l) const {
  std::size_t n = 0;
  for (const auto& f : findings_) n += f.level == l;
  return n;
}

std::string bytes_text(std::uint64_t b) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[u]);
  return buf;
}

}  // namespace doctor

namespace {

const char* level_name(doctor::Level l) {
  switch (l) {
    case doctor::Level::kOk: return "OK  ";
    case doctor::Level::kWarn: return "WARN";
    case doctor::Level::kFail: return "FAIL";
  }
  return "?";
}

int print(const doctor::Report& r) {
  for (const auto& f : r.findings()) std::cout << level_name(f.level) << " " << f.topic << ": " << f.text << "\n";
  const std::size_t fails = r.count(doctor::Level::kFail), warns = r.count(doctor::Level::kWarn);
  std::cout << "cuzk doctor: " << fails << " failure(s), " << warns << " warning(s)"
            << (fails ? ": see the FAIL lines" : "") << "\n";
  return fails ? 1 : 0;
}

}  // namespace

void add_doctor_command(CLI::App& app, DoctorCli& c, const std::string& default_params_dir,
                        const std::string& default_token) {
  c.default_params_dir = default_params_dir;
  c.token = default_token;
  c.cmd = app.add_subcommand(
      "doctor", "check this machine against a daemon config: GPUs, page-locked memory limit, Filecoin parameter "
                "files, cache directory, the daemon (exit 0 all there, 1 something missing)");
  c.cmd->add_option("--config", c.config, "daemon TOML config (default: the daemon's embedded default)");
  c.cmd->add_option("--params-dir", c.params_dir,
                    "Filecoin parameter directory (default: the config's [filecoin] parameter_dir, else "
                    "$FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters/)");
  c.cmd->add_option("--target", c.target, "also check the daemon at unix:/path or host:port answers");
  c.cmd->add_option("--token", c.token, "bearer token for --target (default: $CUZK_TOKEN)");
  c.cmd->add_option("--tls-ca", c.tls_ca, "TLS to a TCP --target, trusting this PEM certificate (bundle)");
}

int run_doctor_command(const DoctorCli& c) {
  if (c.cmd == nullptr || !c.cmd->parsed()) return -1;
  doctor::Report r;
  server::DaemonConfig cfg;
  try {
    cfg = c.config.empty() ? server::default_daemon_config() : server::load_daemon_config(c.config);
    r.ok("config", (c.config.empty() ? std::string("the embedded default") : c.config) + ": backend " +
                       std::string(engine::backend_name(cfg.engine.backend)) + ", " + std::to_string(cfg.engine.circuits.size()) + " circuit(s)");
  } catch (const std::exception& e) {
    r.fail("config", e.what());
    return print(r);
  }
  const engine::EngineConfig& e = cfg.engine;
  doctor::check_gpus(engine::probe_gpus(), e, r);
  doctor::check_memlock(e, r);
  doctor::check_zkeys(e, r);
  const std::string params = !c.params_dir.empty()              ? c.params_dir
                             : cfg.filecoin_parameter_dir_given ? e.filecoin_parameter_dir
                                                                : c.default_params_dir;
  doctor::check_params(params, e, r);
  doctor::check_cache_dir(e.cache_dir, r);
  if (!c.target.empty()) doctor::check_daemon(c.target, c.token, c.tls_ca, r);
  return print(r);
}

}  // namespace cuzk::cli
