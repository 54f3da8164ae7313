// What `cuzk` says about malformed input, table-driven: every case exits 2 with one line that
// names the file at fault (its path, as given) and what is wrong there, never a bare library
// message (an nlohmann exception or "unknown curve" without the file, std::bad_alloc) and never
// an input string echoed at length. The inputs are a small BN254 circuit's .r1cs, .zkey, .wtns and the
// verification_key.json / proof.json / public.json of a valid proof, each spoiled one way.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/groth16/cpu_backend.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/r1cs/circom_r1cs.hpp"
#include "cuzk/r1cs/wtns.hpp"
#include "support/scratch_dir.hpp"

namespace {

namespace fs = std::filesystem;
using E = cuzk::groth16::Bn254;
using Fr = E::Fr;

using cuzk::test::read_file;
using cuzk::test::write_file;

// The valid files of one proof, written once for the whole suite.
struct Files {
  fs::path dir, r1cs, zkey, wtns, vk, proof, pub;
};

const Files& files() {
  static const Files f = [] {
    Files f;
    f.dir = fs::temp_directory_path() / ("cuzk-cli-messages-" + std::to_string(::getpid()));
    fs::create_directories(f.dir);
    f.r1cs = f.dir / "circuit.r1cs";
    f.zkey = f.dir / "circuit.zkey";
    f.wtns = f.dir / "witness.wtns";
    f.vk = f.dir / "verification_key.json";
    f.proof = f.dir / "proof.json";
    f.pub = f.dir / "public.json";
    const cuzk::gadgets::circuits::MulChain<Fr> circuit{16, 3};
    const auto r1cs = cuzk::cs::record<Fr>(circuit);
    cuzk::r1cs::write_r1cs_file<Fr>(f.r1cs, r1cs);
    const auto pk = cuzk::groth16::setup<E>(r1cs, cuzk::groth16::HConvention::kOddCoset, 5);
    cuzk::groth16::write_zkey_file<E>(f.zkey, pk);
    const std::vector<Fr> w = cuzk::cs::witness<Fr>(circuit).full();
    cuzk::io::write_file_bytes(f.wtns, cuzk::r1cs::write_wtns<Fr>(w));
    cuzk::groth16::CpuBackend<E> backend;
    cuzk::groth16::PhaseTimings t;
    const auto proof = cuzk::groth16::prove(cuzk::groth16::read_zkey<E>(cuzk::io::BinFile::open(
                                                f.zkey, cuzk::groth16::zkey_detail::kZkeyFile)),
                                            std::span<const Fr>(w), backend, t);
    write_file(f.vk, cuzk::groth16::vk_to_json<E>(pk.vk).dump(1));
    write_file(f.proof, cuzk::groth16::proof_to_json<E>(proof).dump(1));
    write_file(f.pub, cuzk::groth16::public_to_json<Fr>(std::span<const Fr>(w).subspan(1, pk.num_public())).dump(1));
    return f;
  }();
  return f;
}

struct CliRun {
  int rc = -1;
  std::string err;
};

// Runs `cuzk <args>` with stdout discarded; returns its exit code and stderr.
CliRun cuzk_cli(const std::string& args) {
  const fs::path err = files().dir / "stderr.txt";
  const std::string cmd = std::string(CUZK_CLI) + " " + args + " >/dev/null 2>" + err.string();
  const int st = std::system(cmd.c_str());
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, read_file(err)};
}

// One malformed input: which file (a copy under a name of its own is spoiled), how, the
// command that reads it, and what the message must say besides the file's path.
struct Case {
  std::string name;
  fs::path Files::*file;
  std::function<std::string(std::string)> spoil;
  std::string command;  // "verify", "prove", "export", "setup"
  std::string expect;
};

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}
std::string truncated(std::string s) { return s.substr(0, s.size() / 2); }

std::string command_line(const Case& c, const fs::path& bad) {
  const Files& f = files();
  auto pick = [&](fs::path Files::*m) { return (c.file == m ? bad : f.*m).string(); };
  const fs::path out = f.dir / "out";
  if (c.command == "verify")
    return "verify --vk " + pick(&Files::vk) + " --proof " + pick(&Files::proof) + " --public " + pick(&Files::pub);
  if (c.command == "prove")
    return "prove --quiet --zkey " + pick(&Files::zkey) + " --wtns " + pick(&Files::wtns) + " --proof " +
           (out / "p.json").string() + " --public " + (out / "q.json").string();
  if (c.command == "export") return "export vk --zkey " + pick(&Files::zkey) + " --out " + (out / "vk.json").string();
  return "setup --seed 1 --r1cs " + pick(&Files::r1cs) + " --zkey " + (out / "k.zkey").string();
}

// `cuzk prove --backend`: cpu proves and the proof verifies; auto proves (on this machine's GPU
// through the engine when there is one, else on the CPU); cuda proves where a GPU is, else fails
// with one clear line that says CUDA is missing; another name is bad usage. (Before the test
// below, which removes the files.)
TEST(CliMessages, ProveBackendChoice) {
  const Files& f = files();
  const fs::path out = f.dir / "backend";
  fs::create_directories(out);
  auto prove = [&](const std::string& backend) {
    return cuzk_cli("prove --quiet --backend " + backend + " --zkey " + f.zkey.string() + " --wtns " +
                    f.wtns.string() + " --proof " + (out / (backend + ".json")).string() + " --public " +
                    (out / "public.json").string());
  };
  auto verifies = [&](const std::string& backend) {
    return cuzk_cli("verify --vk " + f.vk.string() + " --proof " + (out / (backend + ".json")).string() +
                    " --public " + (out / "public.json").string())
               .rc == 0;
  };
  for (const std::string b : {"cpu", "auto"}) {
    const CliRun r = prove(b);
    EXPECT_EQ(r.rc, 0) << b << ": " << r.err;
    EXPECT_TRUE(verifies(b)) << b;
  }
  const CliRun cuda = prove("cuda");
  if (cuda.rc == 0) {
    EXPECT_TRUE(verifies("cuda"));
  } else {
    EXPECT_EQ(cuda.rc, 2) << cuda.err;
    EXPECT_TRUE(cuda.err.starts_with("error: ")) << cuda.err;
    EXPECT_NE(cuda.err.find("CUDA"), std::string::npos) << cuda.err;
    EXPECT_EQ(std::count(cuda.err.begin(), cuda.err.end(), '\n'), 1) << cuda.err;
    EXPECT_FALSE(fs::exists(out / "cuda.json"));
  }
  const CliRun bogus = prove("tpu");
  EXPECT_EQ(bogus.rc, 2);
  EXPECT_NE(bogus.err.find("--backend"), std::string::npos) << bogus.err;
}

TEST(CliMessages, MalformedInputsNameTheirFile) {
  const std::string long_curve(5000, 'x');
  const std::vector<Case> cases = {
      {"vk curve unknown", &Files::vk, [](std::string s) { return replace(s, "\"bn128\"", "\"secp256k1\""); }, "verify",
       ": curve: unknown curve \"secp256k1\""},
      {"vk curve 5000 characters", &Files::vk,
       [&](std::string s) { return replace(s, "\"bn128\"", "\"" + long_curve + "\""); }, "verify", "5000 characters"},
      {"vk number overflows a double", &Files::vk,
       [](std::string s) { return replace(s, "\"nPublic\": 1", "\"nPublic\": 1e400"); }, "verify", "malformed JSON"},
      {"vk point missing", &Files::vk, [](std::string s) { return replace(s, "\"vk_alpha_1\"", "\"vk_alpha_9\""); },
       "verify", "vk_alpha_1: missing field"},
      {"proof number overflows", &Files::proof, [](std::string s) { return replace(s, "\"pi_a\": [", "\"pi_a\": [1e400, "); },
       "verify", "malformed JSON"},
      {"proof coordinate not decimal", &Files::proof,
       [](std::string s) { return replace(s, "\"pi_c\": [\n  \"", "\"pi_c\": [\n  \"0x"); }, "verify", "pi_c[0]"},
      {"proof not JSON", &Files::proof, truncated, "verify", "malformed JSON"},
      {"public value not decimal", &Files::pub, [](std::string) { return "[\"12ab\"]"; }, "verify",
       "[0]: \"12ab\" is not a decimal integer"},
      {"public not an array", &Files::pub, [](std::string) { return "{}"; }, "verify", "expected an array"},
      {"zkey truncated (export)", &Files::zkey, truncated, "export", "zkey"},
      {"zkey truncated (prove)", &Files::zkey, truncated, "prove", "zkey"},
      {"wtns truncated", &Files::wtns, truncated, "prove", "wtns"},
      {"r1cs truncated", &Files::r1cs, truncated, "setup", "r1cs"},
  };
  fs::create_directories(files().dir / "out");
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path& good = files().*c.file;
    const fs::path bad = files().dir / ("bad" + std::to_string(n++) + "-" + good.filename().string());
    write_file(bad, c.spoil(read_file(good)));
    const CliRun r = cuzk_cli(command_line(c, bad));
    EXPECT_EQ(r.rc, 2) << r.err;
    EXPECT_TRUE(r.err.starts_with("error: ")) << r.err;
    EXPECT_NE(r.err.find(bad.string() + ": "), std::string::npos) << "does not name " << bad << ": " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("std::bad_alloc"), std::string::npos) << r.err;
    EXPECT_LT(r.err.size(), 600u) << r.err;  // no input echoed at length
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // The unspoiled files pass (the cases above fail for their spoiling alone).
  EXPECT_EQ(cuzk_cli(command_line({"good", nullptr, {}, "verify", ""}, {})).rc, 0);
  std::error_code ec;
  fs::remove_all(files().dir, ec);
}

}  // namespace
