// DaemonConfig from TOML: the embedded default and the committed example parse; unknown keys
// and bad values are refused with the key's name; sizes, paths and references are checked.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "access.hpp"
#include "daemon_config.hpp"

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
  EXPECT_EQ(c.engine.backend, "cpu");
  EXPECT_FALSE(c.server.unix_socket.empty());
  EXPECT_TRUE(c.server.tcp_listen.empty());  // the unix socket only: TCP when configured
  EXPECT_TRUE(c.server.http_listen.starts_with("127.0.0.1:"));
  bool bls = false, bn = false;
  for (const auto& circuit : c.engine.circuits) {
    EXPECT_FALSE(circuit.native.empty()) << circuit.id;
    bls = bls || circuit.curve == "bls12_381";
    bn = bn || circuit.curve == "bn254";
  }
  EXPECT_TRUE(bls && bn);
  // No parameter directory in the file: the daemon's main takes $FIL_PROOFS_PARAMETER_CACHE or
  // filecoin-proofs' default.
  EXPECT_FALSE(c.filecoin_parameter_dir_given);
  EXPECT_TRUE(c.engine.filecoin_preload_winning_post);
}

TEST(DaemonConfig, ExampleFileParsesAndSetsEveryEngineField) {
  const DaemonConfig c = load_daemon_config(CUZK_EXAMPLE_CONFIG);
  EXPECT_EQ(c.engine.host_budget_bytes, 8ull << 30);
  EXPECT_EQ(c.engine.pinned_budget_bytes, 2ull << 30);
  EXPECT_EQ(c.server.rpc_threads, 64);
  EXPECT_EQ(c.engine.fault.device, -1);
  ASSERT_EQ(c.engine.circuits.size(), 2u);
  EXPECT_EQ(c.engine.circuits[1].params.at("depth"), 4u);
  EXPECT_TRUE(c.engine.filecoin_preload_winning_post);
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
  const auto dir = std::filesystem::temp_directory_path() / ("cuzk-config-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "d.toml") << "[[circuit]]\nid = \"k\"\nzkey = \"keys/k.zkey\"\n";
  }
  const DaemonConfig c = load_daemon_config(dir / "d.toml");
  EXPECT_EQ(c.engine.circuits.at(0).zkey_path, (std::filesystem::absolute(dir) / "keys/k.zkey").string());
  std::filesystem::remove_all(dir);
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
  const std::string dir = ::testing::TempDir() + "cuzk-token-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/token") << "s3cret \r\nsecond line\n";
  const DaemonConfig c = parse_daemon_config("[server]\nauth_token_file = \"" + dir + "/token\"\n", "t.toml");
  EXPECT_EQ(c.server.auth_token, "s3cret");
  std::ofstream(dir + "/empty") << "\n";
  EXPECT_NE(error_of("[server]\nauth_token_file = \"" + dir + "/empty\"\n").find("server.auth_token_file: the first line"),
            std::string::npos);
  EXPECT_NE(error_of("[server]\nauth_token_file = \"" + dir + "/none\"\n").find("cannot read"), std::string::npos);
  EXPECT_NE(error_of("[server]\nauth_token = \"a\"\nauth_token_file = \"" + dir + "/token\"\n").find("not both"),
            std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::server
