#include "daemon_config.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>
#include <sstream>

#include "access.hpp"
#include "config_schema.hpp"
#include "toml_reader.hpp"

namespace cuzk::server {

namespace {

// Each section's keys are read through its schema (config_schema.cpp); the checks that span
// keys, or keys that are no member, are here beside it.
void read_server(TableReader& t, ServerConfig& s) {
  schema::read_section(schema::daemon_schema().server, t, s);
  std::string token_file;
  t.get("auth_token_file", token_file);
  if (!token_file.empty()) {
    if (!s.auth_token.empty()) t.fail("auth_token_file", "give auth_token or auth_token_file, not both");
    s.auth_token = read_token_file(token_file, t.key_path("auth_token_file"));
  }
  if (!s.tcp_listen.empty()) (void)parse_host_port(s.tcp_listen, t.key_path("tcp_listen"));
  if (!s.http_listen.empty()) (void)parse_host_port(s.http_listen, t.key_path("http_listen"));
  if (s.unix_socket.empty() && s.tcp_listen.empty())
    throw ConfigError(t.key_path("unix_socket") + " and " + t.key_path("tcp_listen") + ": both empty, the daemon would not listen");
}

bool is_one_of(const std::vector<std::string>& names, const std::string& v) {
  return std::find(names.begin(), names.end(), v) != names.end();
}

void read_circuit(TableReader& t, engine::CircuitSpec& c, const std::filesystem::path& base_dir) {
  schema::read_section(schema::daemon_schema().circuit, t, c);
  t.reject_unknown();
  if (c.id.empty()) t.fail("id", "missing (every [[circuit]] needs an id)");
  if (c.zkey_path.empty() == c.native.empty()) t.fail("zkey", "give exactly one of zkey or native");
  if (!c.zkey_path.empty() && !base_dir.empty() && std::filesystem::path(c.zkey_path).is_relative())
    c.zkey_path = (base_dir / c.zkey_path).lexically_normal().string();
  if (!c.native.empty() && !is_one_of(engine::native_circuit_names(), c.native))
    t.fail("native", "unknown circuit \"" + c.native + "\" (" + engine::join_names(engine::native_circuit_names()) + ")");
}

void read_engine(TableReader& t, engine::EngineConfig& e) {
  schema::read_section(schema::daemon_schema().engine, t, e);
  if (const toml::table* f = t.table("fault_injection")) {
    TableReader fr(*f, t.key_path("fault_injection"));
    schema::read_section(schema::daemon_schema().fault_injection, fr, e.fault);
    fr.reject_unknown();
  }
  t.reject_unknown();
  if (e.backend == engine::Backend::cpu && e.devices < 1) t.fail("devices", "the cpu backend needs at least 1 (simulated) device");
  if (e.cache_dir.empty()) t.fail("cache_dir", "must not be empty");
}

void read_filecoin(TableReader& t, DaemonConfig& cfg) {
  cfg.filecoin_parameter_dir_given = t.has("parameter_dir");
  schema::read_section(schema::daemon_schema().filecoin, t, cfg.engine);
  t.reject_unknown();
}

void check_references(const engine::EngineConfig& e) {
  std::set<std::string, std::less<>> ids;
  for (std::size_t i = 0; i < e.circuits.size(); ++i)
    if (!ids.insert(e.circuits[i].id).second)
      throw ConfigError("circuit[" + std::to_string(i) + "].id: \"" + e.circuits[i].id + "\" is used twice");
  for (const auto& id : e.preload)
    if (!ids.contains(id) && !engine::is_post_circuit_id(id) && !engine::is_porep_circuit_id(id) &&
        !engine::is_snap_circuit_id(id))
      throw ConfigError("engine.preload: no [[circuit]] has id \"" + id + "\" (nor is it a Filecoin circuit: winning-post-32gib, "
                        "window-post-32gib, porep-32gib, snap-32gib, ...)");
}

}  // namespace

HostPort parse_host_port(std::string_view text, std::string_view key) {
  const auto colon = text.rfind(':');
  auto bad = [&](const std::string& why) -> HostPort {
    throw ConfigError(std::string(key) + ": \"" + std::string(text) + "\" " + why + " (expected host:port, e.g. 127.0.0.1:9820)");
  };
  if (colon == std::string_view::npos || colon == 0) return bad("has no host");
  HostPort hp;
  hp.host = std::string(text.substr(0, colon));
  if (hp.host.size() >= 2 && hp.host.front() == '[' && hp.host.back() == ']') hp.host = hp.host.substr(1, hp.host.size() - 2);
  const std::string_view port = text.substr(colon + 1);
  auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), hp.port);
  if (ec != std::errc() || p != port.data() + port.size() || hp.port < 0 || hp.port > 65535) return bad("has a bad port");
  return hp;
}

DaemonConfig parse_daemon_config(std::string_view toml_text, std::string_view source, const std::filesystem::path& base_dir) {
  toml::table root;
  try {
    root = toml::parse(toml_text, std::string(source));
  } catch (const toml::parse_error& e) {
    throw ConfigError(std::string(source) + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  DaemonConfig cfg;
  try {
    TableReader r(root, "");
    const toml::table empty;
    const toml::table* s = r.table("server");
    TableReader sr(s ? *s : empty, "server");  // no [server]: the defaults (and their checks)
    read_server(sr, cfg.server);
    sr.reject_unknown();
    if (const toml::table* e = r.table("engine")) {
      TableReader er(*e, "engine");
      read_engine(er, cfg.engine);
    }
    const auto circuits = r.table_array("circuit");
    for (std::size_t i = 0; i < circuits.size(); ++i) {
      TableReader cr(*circuits[i], "circuit[" + std::to_string(i) + "]");
      engine::CircuitSpec c;
      read_circuit(cr, c, base_dir);
      cfg.engine.circuits.push_back(std::move(c));
    }
    if (r.table("kinds"))
      throw ConfigError("kinds: no longer read: the Filecoin kinds are served by their real circuits (WinningPoSt, "
                        "WindowPoSt, PoRep and SnapDeals from [filecoin] parameter_dir), never by a stand-in circuit");
    if (const toml::table* f = r.table("filecoin")) {
      TableReader fr(*f, "filecoin");
      read_filecoin(fr, cfg);
    }
    if (const toml::table* g = r.table("gpu")) {
      TableReader gr(*g, "gpu");
      schema::read_section(schema::daemon_schema().gpu, gr, cfg.engine.gpu);
      gr.reject_unknown();
    }
    r.reject_unknown();
    check_references(cfg.engine);
  } catch (const ConfigError& e) {
    throw ConfigError(std::string(source) + ": " + e.what());
  }
  return cfg;
}

DaemonConfig load_daemon_config(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path.string() + ": cannot open");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_daemon_config(ss.str(), path.string(), std::filesystem::absolute(path).parent_path());
}

}  // namespace cuzk::server
