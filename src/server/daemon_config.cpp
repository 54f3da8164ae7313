#include "daemon_config.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "access.hpp"
#include "toml_reader.hpp"

namespace cuzk::server {

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();

void read_server(TableReader& t, ServerConfig& s) {
  t.get("unix_socket", s.unix_socket);
  t.get("tcp_listen", s.tcp_listen);
  t.get("auth_token", s.auth_token);
  std::string token_file;
  t.get("auth_token_file", token_file);
  if (!token_file.empty()) {
    if (!s.auth_token.empty()) t.fail("auth_token_file", "give auth_token or auth_token_file, not both");
    s.auth_token = read_token_file(token_file, t.key_path("auth_token_file"));
  }
  t.get("auth_unix", s.auth_unix);
  t.get("allow_unauthenticated_tcp", s.allow_unauthenticated_tcp);
  t.get("tls_cert_file", s.tls_cert_file);
  t.get("tls_key_file", s.tls_key_file);
  t.get("http_listen", s.http_listen);
  t.get_int("rpc_threads", s.rpc_threads, 4, 4096);
  t.get_int("max_await_ms", s.max_await_ms, 0, 24ll * 3600 * 1000);
  if (!s.tcp_listen.empty()) (void)parse_host_port(s.tcp_listen, t.key_path("tcp_listen"));
  if (!s.http_listen.empty()) (void)parse_host_port(s.http_listen, t.key_path("http_listen"));
  if (s.unix_socket.empty() && s.tcp_listen.empty())
    throw ConfigError(t.key_path("unix_socket") + " and " + t.key_path("tcp_listen") + ": both empty, the daemon would not listen");
}

bool is_one_of(const std::vector<std::string>& names, const std::string& v) {
  return std::find(names.begin(), names.end(), v) != names.end();
}

void read_circuit(TableReader& t, engine::CircuitSpec& c, const std::filesystem::path& base_dir) {
  t.get("id", c.id);
  t.get("zkey", c.zkey_path);
  t.get("native", c.native);
  t.get("curve", c.curve);
  t.get_int("setup_seed", c.setup_seed, 0, std::numeric_limits<std::int64_t>::max());
  if (const toml::table* p = t.table("params")) {
    TableReader pr(*p, t.key_path("params"));
    for (auto& [k, node] : pr.all()) {
      std::uint64_t v = 0;
      pr.get_int(k, v, 0, std::numeric_limits<std::int64_t>::max());
      c.params[k] = v;
    }
  }
  t.reject_unknown();
  if (c.id.empty()) t.fail("id", "missing (every [[circuit]] needs an id)");
  if (c.zkey_path.empty() == c.native.empty()) t.fail("zkey", "give exactly one of zkey or native");
  if (!c.zkey_path.empty() && !base_dir.empty() && std::filesystem::path(c.zkey_path).is_relative())
    c.zkey_path = (base_dir / c.zkey_path).lexically_normal().string();
  if (!c.native.empty()) {
    if (!is_one_of(engine::native_circuit_names(), c.native))
      t.fail("native", "unknown circuit \"" + c.native + "\" (" + engine::join_names(engine::native_circuit_names()) + ")");
    if (!is_one_of(engine::curve_names(), c.curve))
      t.fail("curve", "\"" + c.curve + "\" is not one of " + engine::join_names(engine::curve_names()));
  }
}

void read_engine(TableReader& t, engine::EngineConfig& e) {
  t.get("backend", e.backend);
  if (e.backend != "cpu" && e.backend != "cuda") t.fail("backend", "\"" + e.backend + "\" is not cpu or cuda");
  t.get_int("devices", e.devices, 0, 1024);
  t.get_int("workers_per_device", e.workers_per_device, 1, 1024);
  t.get_int("max_batch_size", e.max_batch_size, 1, 1 << 20);
  t.get_int("max_batch_wait_ms", e.max_batch_wait_ms, 0, kIntMax);
  t.get_int("synthesis_concurrency", e.synthesis_concurrency, 1, 1024);
  t.get_int("pipeline_depth", e.pipeline_depth, 1, 1 << 20);
  t.get_bytes("host_budget_bytes", e.host_budget_bytes);
  t.get_bytes("pinned_budget_bytes", e.pinned_budget_bytes);
  t.get_bytes("pinned_witness_min_bytes", e.pinned_witness_min_bytes);
  t.get_bytes("vram_budget_bytes", e.vram_budget_bytes);
  t.get("key_placement", e.key_placement);
  if (!is_one_of(engine::key_placement_names(), e.key_placement))
    t.fail("key_placement", "\"" + e.key_placement + "\" is not one of " + engine::join_names(engine::key_placement_names()));
  t.get("cache_dir", e.cache_dir);
  t.get("preload", e.preload);
  t.get_int("max_retained_results", e.max_retained_results, 1, std::numeric_limits<std::int64_t>::max());
  if (const toml::table* f = t.table("fault_injection")) {
    TableReader fr(*f, t.key_path("fault_injection"));
    fr.get_int("device", e.fault.device, -1, 1024);
    fr.get_int("failures", e.fault.failures, 0, kIntMax);
    fr.get_int("wrong_proofs", e.fault.wrong_proofs, 0, kIntMax);
    fr.reject_unknown();
  }
  t.reject_unknown();
  if (e.backend == "cpu" && e.devices < 1) t.fail("devices", "the cpu backend needs at least 1 (simulated) device");
  if (e.cache_dir.empty()) t.fail("cache_dir", "must not be empty");
}

void read_filecoin(TableReader& t, DaemonConfig& cfg) {
  if (t.has("parameter_dir")) {
    t.get("parameter_dir", cfg.engine.filecoin_parameter_dir);
    cfg.filecoin_parameter_dir_given = true;
  }
  t.get("preload_winning_post", cfg.engine.filecoin_preload_winning_post);
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

DaemonConfig default_daemon_config() { return parse_daemon_config(default_config_toml(), "<embedded default config>"); }

}  // namespace cuzk::server
