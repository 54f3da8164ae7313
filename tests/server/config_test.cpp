// DaemonConfig from TOML: the embedded default and the committed example parse; unknown keys
// and bad values are refused with the key's name; sizes, paths and references are checked.
// The schema (config_schema.hpp): bad enum values and out-of-range numbers are refused naming
// the key and what is allowed; the generated config reads back to what it was made from (the
// defaults, and a config with every key changed); the effective config redacts the token.
#include <gtest/gtest.h>

#include <filesystem>

#include "access.hpp"
#include "config_render.hpp"
#include "config_schema.hpp"
#include "daemon_config.hpp"
#include "support/scratch_dir.hpp"

namespace cuzk::server {
namespace {

std::string error_of(std::string_view toml) {
  try {
    (void)parse_daemon_config(toml, "t.toml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(DaemonConfig, EmbeddedDefaultIsSmallCpuWithCircuitsAndKinds) {
  const DaemonConfig c = default_daemon_config();
  EXPECT_EQ(c.engine.backend, engine::Backend::cpu);
  EXPECT_FALSE(c.server.unix_socket.empty());
  EXPECT_TRUE(c.server.tcp_listen.empty());  // the unix socket only: TCP when configured
  EXPECT_TRUE(c.server.http_listen.starts_with("127.0.0.1:"));
  bool bls = false, bn = false;
  for (const auto& circuit : c.engine.circuits) {
    EXPECT_FALSE(circuit.native.empty()) << circuit.id;
    bls = bls || circuit.curve == r1cs::Curve::bls12_381;
    bn = bn || circuit.curve == r1cs::Curve::bn254;
  }
  EXPECT_TRUE(bls && bn);
  // No parameter directory in the file: the daemon's main takes $FIL_PROOFS_PARAMETER_CACHE or
  // filecoin-proofs' default.
  EXPECT_FALSE(c.filecoin_parameter_dir_given);
  EXPECT_TRUE(c.engine.filecoin_preload_winning_post);
}

TEST(DaemonConfig, ExampleFileParsesToTheStructDefaults) {
  const DaemonConfig c = load_daemon_config(CUZK_EXAMPLE_CONFIG);
  const engine::EngineConfig e;
  EXPECT_EQ(c.engine.host_budget_bytes, e.host_budget_bytes);
  EXPECT_EQ(c.engine.pinned_budget_bytes, e.pinned_budget_bytes);
  EXPECT_EQ(c.engine.key_placement, e.key_placement);
  EXPECT_EQ(c.server.rpc_threads, ServerConfig{}.rpc_threads);
  EXPECT_EQ(c.engine.fault.device, -1);
  ASSERT_EQ(c.engine.circuits.size(), 3u);
  EXPECT_EQ(c.engine.circuits[2].params.at("depth"), 2u);
  EXPECT_TRUE(c.engine.filecoin_preload_winning_post);
  EXPECT_FALSE(c.filecoin_parameter_dir_given);  // shown commented out
}

TEST(DaemonConfig, ValuesAreRead) {
  const DaemonConfig c = parse_daemon_config(R"(
[server]
unix_socket = ""
tcp_listen = "127.0.0.1:7000"
auth_token = "s3cret"
[engine]
workers_per_device = 3
vram_budget_bytes = "96MiB"
host_budget_bytes = 1048576
pinned_witness_min_bytes = "1MiB"
preload = ["a"]
[engine.fault_injection]
device = 0
failures = 1
wrong_proofs = 2
[[circuit]]
id = "a"
native = "mul-chain"
curve = "bn254"
params = { constraints = 64 }
setup_seed = 9
[filecoin]
parameter_dir = "/srv/params"
circuits = ["winning-post-32gib", "window-post-32gib"]
preload_winning_post = false
)",
                                             "t.toml");
  EXPECT_EQ(c.server.unix_socket, "");
  EXPECT_EQ(c.server.auth_token, "s3cret");
  EXPECT_EQ(c.engine.workers_per_device, 3);
  EXPECT_EQ(c.engine.vram_budget_bytes, 96ull << 20);
  EXPECT_EQ(c.engine.host_budget_bytes, 1048576u);
  EXPECT_EQ(c.engine.pinned_witness_min_bytes, 1ull << 20);
  EXPECT_EQ(c.engine.fault.device, 0);
  EXPECT_EQ(c.engine.fault.failures, 1);
  EXPECT_EQ(c.engine.fault.wrong_proofs, 2);
  EXPECT_EQ(c.engine.circuits.at(0).setup_seed, 9u);
  EXPECT_EQ(c.engine.circuits.at(0).params.at("constraints"), 64u);
  EXPECT_EQ(c.engine.filecoin_parameter_dir, "/srv/params");
  EXPECT_TRUE(c.filecoin_parameter_dir_given);
  EXPECT_FALSE(c.engine.filecoin_preload_winning_post);
  EXPECT_EQ(c.engine.filecoin_circuits, (std::vector<std::string>{"winning-post-32gib", "window-post-32gib"}));
}

TEST(DaemonConfig, ErrorsNameTheKey) {
  EXPECT_NE(error_of("[engine]\nworkerz = 2\n").find("engine.workerz: unknown key"), std::string::npos);
  EXPECT_NE(error_of("[servr]\n").find("servr: unknown key"), std::string::npos);
  EXPECT_NE(error_of("[engine]\nworkers_per_device = \"two\"\n").find("engine.workers_per_device: expected an integer"),
            std::string::npos);
  EXPECT_NE(error_of("[engine]\nworkers_per_device = 0\n").find("engine.workers_per_device: 0 is out of range"),
            std::string::npos);
  EXPECT_NE(error_of("[engine]\nbackend = \"tpu\"\n").find("engine.backend"), std::string::npos);
  EXPECT_NE(error_of("[engine]\nkey_placement = \"swap\"\n").find("engine.key_placement"), std::string::npos);
  // The engine's own list of built-in circuits and curves.
  EXPECT_NE(error_of("[[circuit]]\nid = \"x\"\nnative = \"fft\"\n").find("mul-chain, porep-like, poseidon-merkle, sha256-merkle"),
            std::string::npos);
  EXPECT_NE(error_of("[[circuit]]\nid = \"x\"\nnative = \"mul-chain\"\ncurve = \"bls12_377\"\n").find("bls12_381, bn254"),
            std::string::npos);
  EXPECT_NE(error_of("[engine]\nvram_budget_bytes = \"12XB\"\n").find("engine.vram_budget_bytes: unknown size suffix"),
            std::string::npos);
  EXPECT_NE(error_of("[server]\ntcp_listen = \"localhost\"\n").find("server.tcp_listen"), std::string::npos);
  EXPECT_NE(error_of("[server]\nhttp_listen = \"127.0.0.1:99999\"\n").find("server.http_listen"), std::string::npos);
  EXPECT_NE(error_of("[server]\nunix_socket = \"\"\ntcp_listen = \"\"\n").find("would not listen"), std::string::npos);
  EXPECT_NE(error_of("[[circuit]]\nid = \"x\"\nnative = \"mul-chain\"\ncolour = 1\n").find("circuit[0].colour: unknown key"),
            std::string::npos);
  EXPECT_NE(error_of("[[circuit]]\nid = \"x\"\n").find("circuit[0].zkey: give exactly one of zkey or native"),
            std::string::npos);
  EXPECT_NE(error_of("[[circuit]]\nid = \"x\"\nnative = \"fft\"\n").find("circuit[0].native: unknown circuit"),
            std::string::npos);
  EXPECT_NE(error_of("[[circuit]]\nid = \"x\"\nnative = \"mul-chain\"\ncurve = \"p256\"\n").find("circuit[0].curve"),
            std::string::npos);
  // The stand-in table is gone: an old config says why, instead of silently serving toys.
  EXPECT_NE(error_of("[kinds]\nporep = \"x\"\n").find("kinds: no longer read"), std::string::npos);
  EXPECT_NE(error_of("[filecoin]\nparams = \"x\"\n").find("filecoin.params: unknown key"), std::string::npos);
  EXPECT_NE(error_of("[engine]\npreload = [\"ghost\"]\n").find("engine.preload"), std::string::npos);
  EXPECT_NO_THROW(parse_daemon_config("[engine]\npreload = [\"winning-post-32gib\"]\n", "t.toml"));
  EXPECT_NO_THROW(
      parse_daemon_config("[engine]\npreload = [\"porep-32gib\", \"snap-32gib\", \"snap-2kib\"]\n", "t.toml"));
  EXPECT_NE(error_of("[engine]\npreload = [\"snap-16gib\"]\n").find("snap-32gib"), std::string::npos);
  EXPECT_NE(error_of("[engine\n").find("t.toml:1"), std::string::npos);  // TOML syntax error with its line
  EXPECT_NE(error_of("[[circuit]]\nid = \"a\"\nnative = \"mul-chain\"\n[[circuit]]\nid = \"a\"\nnative = \"mul-chain\"\n")
                .find("circuit[1].id: \"a\" is used twice"),
            std::string::npos);
}

TEST(DaemonConfig, RelativeZkeyPathsResolveAgainstTheConfigFile) {
  const cuzk::test::ScratchDir dir("config-test");
  cuzk::test::write_file(dir / "d.toml", "[[circuit]]\nid = \"k\"\nzkey = \"keys/k.zkey\"\n");
  const DaemonConfig c = load_daemon_config(dir / "d.toml");
  EXPECT_EQ(c.engine.circuits.at(0).zkey_path, (std::filesystem::absolute(dir.path()) / "keys/k.zkey").string());
}

TEST(DaemonConfig, HostPort) {
  EXPECT_EQ(parse_host_port("127.0.0.1:9820", "k").port, 9820);
  EXPECT_EQ(parse_host_port("[::1]:0", "k").host, "::1");
  EXPECT_THROW(parse_host_port(":80", "k"), ConfigError);
  EXPECT_THROW(parse_host_port("h:x", "k"), ConfigError);
}

TEST(DaemonConfig, TcpBeyondLoopbackNeedsATokenOrAnExplicitAllowance) {
  auto access_error = [](std::string_view toml) {
    try {
      check_access(parse_daemon_config(toml, "t.toml").server);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(access_error("[server]\ntcp_listen = \"127.0.0.1:0\"\n"), "");
  EXPECT_EQ(access_error("[server]\ntcp_listen = \"localhost:0\"\n"), "");
  EXPECT_NE(access_error("[server]\ntcp_listen = \"0.0.0.0:9820\"\n").find("no auth_token is set"), std::string::npos);
  EXPECT_NE(access_error("[server]\ntcp_listen = \"[::]:9820\"\n").find("allow_unauthenticated_tcp"), std::string::npos);
  EXPECT_EQ(access_error("[server]\ntcp_listen = \"0.0.0.0:9820\"\nauth_token = \"t\"\n"), "");
  EXPECT_EQ(access_error("[server]\ntcp_listen = \"0.0.0.0:9820\"\nallow_unauthenticated_tcp = true\n"), "");
  EXPECT_NE(access_error("[server]\ntls_cert_file = \"c.pem\"\n").find("give both or neither"), std::string::npos);
  EXPECT_TRUE(is_loopback_host("127.0.0.2") && is_loopback_host("::1") && !is_loopback_host("10.0.0.1"));
  EXPECT_FALSE(is_loopback_host("127.example.com"));
}

TEST(DaemonConfig, TheTokenComesFromAFile) {
  const cuzk::test::ScratchDir scratch("token");
  const std::string dir = scratch.path().string();
  cuzk::test::write_file(scratch / "token", "s3cret \r\nsecond line\n");
  const DaemonConfig c = parse_daemon_config("[server]\nauth_token_file = \"" + dir + "/token\"\n", "t.toml");
  EXPECT_EQ(c.server.auth_token, "s3cret");
  cuzk::test::write_file(scratch / "empty", "\n");
  EXPECT_NE(error_of("[server]\nauth_token_file = \"" + dir + "/empty\"\n").find("server.auth_token_file: the first line"),
            std::string::npos);
  EXPECT_NE(error_of("[server]\nauth_token_file = \"" + dir + "/none\"\n").find("cannot read"), std::string::npos);
  EXPECT_NE(error_of("[server]\nauth_token = \"a\"\nauth_token_file = \"" + dir + "/token\"\n").find("not both"),
            std::string::npos);
}

TEST(ConfigSchema, BadEnumValueNamesTheKeyAndTheAllowedValues) {
  EXPECT_EQ(error_of("[engine]\nbackend = \"tpu\"\n"),
            "t.toml: engine.backend: \"tpu\" is not one of cpu, cuda (line 2)");
  EXPECT_EQ(error_of("[engine]\nkey_placement = \"swap\"\n"),
            "t.toml: engine.key_placement: \"swap\" is not one of auto, resident, stream (line 2)");
  EXPECT_EQ(error_of("[[circuit]]\nid = \"x\"\nnative = \"mul-chain\"\ncurve = \"p256\"\n"),
            "t.toml: circuit[0].curve: \"p256\" is not one of bls12_381, bn254 (line 4)");
  const DaemonConfig c = parse_daemon_config(
      "[engine]\nbackend = \"cuda\"\nkey_placement = \"stream\"\n[[circuit]]\nid = \"x\"\nnative = \"mul-chain\"\n"
      "curve = \"bn128\"\n[[circuit]]\nid = \"y\"\nnative = \"mul-chain\"\ncurve = \"bls12-381\"\n",
      "t.toml");
  EXPECT_EQ(c.engine.backend, engine::Backend::cuda);
  EXPECT_EQ(c.engine.key_placement, engine::KeyPlacement::stream);
  EXPECT_EQ(c.engine.circuits.at(0).curve, r1cs::Curve::bn254);  // every spelling parse_curve_name takes
  EXPECT_EQ(c.engine.circuits.at(1).curve, r1cs::Curve::bls12_381);
}

TEST(ConfigSchema, OutOfRangeNumberNamesTheKeyAndTheRange) {
  EXPECT_EQ(error_of("[server]\nrpc_threads = 2\n"), "t.toml: server.rpc_threads: 2 is out of range [4, 4096] (line 2)");
  EXPECT_EQ(error_of("[engine.fault_injection]\ndevice = -2\n"),
            "t.toml: engine.fault_injection.device: -2 is out of range [-1, 1024] (line 2)");
  EXPECT_NE(error_of("[engine]\ndevices = 1025\n").find("engine.devices: 1025 is out of range [0, 1024]"),
            std::string::npos);
}

// Every default lies in its key's range and among its allowed values.
template <class S>
void expect_defaults_allowed(const schema::Section<S>& section) {
  const S defaults{};
  for (const auto& k : section.keys) {
    const schema::Value v = k.value(defaults);
    if (k.type == schema::Type::integer) {
      EXPECT_GE(std::get<std::int64_t>(v), k.min) << section.name << "." << k.name;
      EXPECT_LE(std::get<std::int64_t>(v), k.max) << section.name << "." << k.name;
    }
    if (k.type == schema::Type::choice) {
      EXPECT_NE(std::find(k.choices.begin(), k.choices.end(), std::get<std::string>(v)), k.choices.end()) << k.name;
    }
    EXPECT_FALSE(k.doc.empty()) << section.name << "." << k.name;
  }
}

TEST(ConfigSchema, DefaultsAreAllowedAndEveryKeyIsDocumented) {
  const schema::DaemonSchema& s = schema::daemon_schema();
  expect_defaults_allowed(s.server);
  expect_defaults_allowed(s.engine);
  expect_defaults_allowed(s.fault_injection);
  expect_defaults_allowed(s.circuit);
  expect_defaults_allowed(s.filecoin);
}

TEST(ConfigSchema, TheGeneratedDefaultParsesBackToTheDefaults) {
  const std::string text = default_config_toml();
  const DaemonConfig parsed = parse_daemon_config(text, "generated");
  EXPECT_EQ(effective_config_json(parsed), effective_config_json(default_daemon_config()));
  // The numbers are the structs' own defaults (no second copy in the text).
  const engine::EngineConfig e;
  EXPECT_EQ(parsed.engine.host_budget_bytes, e.host_budget_bytes);
  EXPECT_EQ(parsed.engine.max_batch_size, e.max_batch_size);
  EXPECT_EQ(parsed.server.max_await_ms, ServerConfig{}.max_await_ms);
  EXPECT_NE(text.find("host_budget_bytes = \"8GiB\"\n"), std::string::npos);
  EXPECT_NE(text.find("# Where proofs run"), std::string::npos);  // docs as comments
  EXPECT_NE(text.find("One of: cpu, cuda."), std::string::npos);
  EXPECT_NE(text.find("From 4 to 4096."), std::string::npos);
  EXPECT_NE(text.find("# parameter_dir = "), std::string::npos);  // unset: commented out
}

TEST(ConfigSchema, EveryKeyChangedRoundTrips) {
  DaemonConfig c = default_daemon_config();
  c.server = {.unix_socket = "/run/x.sock", .tcp_listen = "0.0.0.0:1", .auth_token = "t\"k",
              .auth_unix = true, .allow_unauthenticated_tcp = true, .tls_cert_file = "c.pem",
              .tls_key_file = "k.pem", .http_listen = "", .rpc_threads = 5, .max_await_ms = 7};
  c.engine = {.backend = engine::Backend::cuda, .devices = 3, .workers_per_device = 4, .max_batch_size = 5,
              .max_batch_wait_ms = 6, .synthesis_concurrency = 7, .pipeline_depth = 8, .host_budget_bytes = 12345,
              .pinned_budget_bytes = 3ull << 40, .pinned_witness_min_bytes = 5ull << 10,
              .vram_budget_bytes = 9ull << 20, .key_placement = engine::KeyPlacement::resident, .cache_dir = "/c",
              .preload = {"winning-post-2kib", "mul-chain"}, .circuits = c.engine.circuits,
              .filecoin_parameter_dir = "/p", .filecoin_circuits = {"porep-32gib"},
              .filecoin_preload_winning_post = false, .max_retained_results = 11,
              .gpu = {.sequential_msms = true, .msm_profile = true, .msm_level0 = gpu::MsmLevel0::kRegisters,
                      .ntt_passes = gpu::NttPassShape{10, 8, 2, 2}, .ntt_twiddles = gpu::TwiddleChoice::kCompact,
                      .emulate_smem_per_sm_kib = 100, .pool_driver_defaults = true, .guard_bytes = 64},
              .fault = {.device = 2, .failures = 3, .witness_unlock_ms = 0, .wrong_proofs = 4, .corrupt_keys = 0}};
  c.engine.circuits[1].setup_seed = 99;
  const DaemonConfig parsed = parse_daemon_config(config_toml(c), "generated");
  EXPECT_EQ(parsed.server.auth_token, "t\"k");
  EXPECT_TRUE(parsed.filecoin_parameter_dir_given);
  EXPECT_EQ(effective_config_json(parsed), effective_config_json(c)) << config_toml(c);
  EXPECT_EQ(parsed.engine.gpu, c.engine.gpu);
}

// [gpu]: the GPU layer's tuning; a bad kernel name or pass shape names the key and what it takes.
TEST(ConfigSchema, GpuTuningSection) {
  const DaemonConfig d = parse_daemon_config("[gpu]\nmsm_level0 = \"shared\"\nntt_passes = \"11,8,3\"\n", "t");
  EXPECT_EQ(d.engine.gpu.msm_level0, gpu::MsmLevel0::kShared);
  ASSERT_TRUE(d.engine.gpu.ntt_passes.has_value());
  EXPECT_EQ(d.engine.gpu.ntt_passes->last, 11);
  EXPECT_EQ(parse_daemon_config("", "t").engine.gpu, gpu::Tuning{});
  EXPECT_NE(error_of("[gpu]\nmsm_level0 = \"fast\"\n").find("gpu.msm_level0: \"fast\" is not one of auto, shared, registers"),
            std::string::npos);
  EXPECT_NE(error_of("[gpu]\nntt_passes = \"13,8,2\"\n").find("gpu.ntt_passes"), std::string::npos);
  EXPECT_NE(error_of("[gpu]\nwarp_size = 3\n").find("warp_size"), std::string::npos);
}

TEST(ConfigSchema, TheEffectiveConfigRedactsTheToken) {
  DaemonConfig c = default_daemon_config();
  EXPECT_EQ(effective_config_json(c).at("server").at("auth_token"), "");
  c.server.auth_token = "s3cret";
  const nlohmann::json j = effective_config_json(c);
  EXPECT_EQ(j.at("server").at("auth_token"), "***");
  EXPECT_EQ(j.dump().find("s3cret"), std::string::npos);
  EXPECT_EQ(j.at("engine").at("backend"), "cpu");
  EXPECT_EQ(j.at("engine").at("key_placement"), "auto");
  EXPECT_EQ(j.at("engine").at("host_budget_bytes"), engine::EngineConfig{}.host_budget_bytes);
  EXPECT_EQ(j.at("engine").at("fault_injection").at("device"), -1);
  EXPECT_EQ(j.at("circuit").size(), 3u);
  EXPECT_EQ(j.at("circuit")[1].at("curve"), "bn254");
}

}  // namespace
}  // namespace cuzk::server
