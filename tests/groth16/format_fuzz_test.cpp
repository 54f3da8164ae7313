// Mutation fuzz of every file reader under a 1 GiB memory cap (mutation_fuzz.hpp): snarkjs .zkey
// (both curves), circom .r1cs (with and without the wire-to-label map) and .wtns, bellperson
// .params / .vk / proof, snarkjs verification_key.json / proof.json / public.json, and the CSR
// cache. Every truncation, a changed byte at every offset and huge values in every count field
// must parse or give a DecodeError naming the file and the place, each within a second; nothing
// may allocate from a count the file's size does not back.
//
// Then the two reproductions of the reliability probe (shared/PROBE-reliability.md M4, L1): a
// small .zkey declaring a 2^27 domain and a small .r1cs declaring 2^24 wires are refused at once,
// without allocating.
#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <regex>
#include <string>

#include "cuzk/cs/r1cs_cache.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/r1cs/circom_r1cs.hpp"
#include "cuzk/r1cs/eval.hpp"
#include "cuzk/r1cs/wtns.hpp"
#include "mutation_fuzz.hpp"
#include "random_key.hpp"
#include "support/random_r1cs.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::groth16;
namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;
using test::CountField;
using test::Format;

constexpr std::uint64_t kMemoryCap = std::uint64_t{1} << 30;  // above the data segment at the start
constexpr double kMaxCaseMs = 1000;

// One directory per test, removed at the end; in /dev/shm where there is one (each mutant is
// written to a file: on ext4, rewriting a truncated file waits for the disk).
struct TempDir {
  fs::path p;
  TempDir() {
    std::error_code ec;
    const fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    p = base / ("cuzk_format_fuzz_" + std::to_string(::getpid()) + "_" +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(p);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(p, ec);
  }
};

std::string regex_escape(const std::string& s) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(s, special, R"(\$&)");
}

// Errors of a binfile reader opened by path: "<path>: <kind> file, section N, offset M: ..." (or,
// for a section that is not there, "<path>: <kind> file: missing section N").
std::regex binfile_error(const fs::path& path, const std::string& kind) {
  return std::regex("^" + regex_escape(path.string()) + ": " + kind +
                    R"( file(, section \d+)?(, offset \d+: |: missing section \d+))");
}

// Reads through the path-taking reader: writes the mutant to `path` first.
template <class Read>
std::function<void(std::span<const std::uint8_t>)> via_file(const fs::path& path, Read read) {
  return [path, read](std::span<const std::uint8_t> b) {
    io::write_file_bytes(path, b);
    read(path);
  };
}

// The container's own count fields: nSections and every section's size.
std::vector<CountField> container_counts(const Bytes& b, const io::BinFileOptions& opt) {
  std::vector<CountField> c{{"nSections", 8, 4}};
  const auto f = io::BinFile::parse(b, opt);
  for (const auto& s : f.sections())
    c.push_back({"section " + std::to_string(s.id) + " size", static_cast<std::size_t>(s.offset - 8), 8});
  return c;
}

std::size_t section_at(const Bytes& b, const io::BinFileOptions& opt, std::uint32_t id) {
  return static_cast<std::size_t>(io::BinFile::parse(b, opt).section(id).offset);
}

// The same container without section `drop`.
Bytes without_section(const Bytes& b, const io::BinFileOptions& opt, std::uint32_t drop) {
  const auto f = io::BinFile::parse(b, opt);
  io::BinWriter w(opt.magic, f.version(), static_cast<std::uint32_t>(f.sections().size() - (f.has(drop) ? 1 : 0)));
  for (const auto& s : f.sections()) {
    if (s.id == drop) continue;
    w.begin_section(s.id);
    w.bytes(f.bytes().subspan(static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.size)));
    w.end_section();
  }
  return std::move(w).finish();
}

void fuzz(const Format& f) {
  ASSERT_NO_THROW(f.parse(f.good)) << f.name << ": the unmutated file must parse";
  const tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 2);
  test::FuzzStats st;
  {
    const test::DataLimit cap(kMemoryCap);
    st = test::run_mutations(f);
  }
  std::printf("%-28s %6zu bytes: %6zu mutants, %5zu parsed, %6zu rejected, slowest %.1f ms (%s)\n", f.name.c_str(),
              f.good.size(), st.cases, st.parsed, st.rejected, st.max_ms, st.slowest.c_str());
  EXPECT_EQ(st.failures, 0u) << f.name << ": " << st.failures << " bad outcomes (the first are reported above)";
  EXPECT_LT(st.max_ms, kMaxCaseMs) << f.name << ": slowest case " << st.slowest;
}

// ---- the cap itself -------------------------------------------------------------------------

TEST(FormatFuzz, MemoryCapTurnsAHugeAllocationIntoBadAlloc) {
  const test::DataLimit cap(kMemoryCap);
  if (!cap.active()) GTEST_SKIP() << "RLIMIT_DATA not available (or a sanitizer build)";
  EXPECT_THROW((void)std::vector<std::uint8_t>(std::size_t{2} << 30, 1), std::bad_alloc);
}

// ---- .zkey ----------------------------------------------------------------------------------

template <class E>
Format zkey_format(const fs::path& dir, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Format f;
  f.name = std::string(".zkey ") + std::string(E::kName);
  f.good = write_zkey(test::random_key<E>(7, 2, 8, rng));
  const fs::path path = dir / "k.zkey";
  f.parse = via_file(path, [](const fs::path& p) { (void)read_zkey_file<E>(p); });
  f.error_shape = binfile_error(path, "zkey");
  const auto& opt = zkey_detail::kZkeyFile;
  f.counts = container_counts(f.good, opt);
  const std::size_t s2 = section_at(f.good, opt, 2), n8q = E::Fq::kBytes, n8r = E::Fr::kBytes;
  const std::size_t c2 = s2 + 8 + n8q + n8r;
  f.counts.insert(f.counts.end(), {{"n8q", s2, 4}, {"n8r", s2 + 4 + n8q, 4}, {"nVars", c2, 4}, {"nPublic", c2 + 4, 4},
                                   {"domainSize", c2 + 8, 4}});
  const std::size_t s4 = section_at(f.good, opt, 4);
  f.counts.insert(f.counts.end(), {{"coefficient count", s4, 4}, {"coefficient 0 matrix", s4 + 4, 4},
                                   {"coefficient 0 row", s4 + 8, 4}, {"coefficient 0 signal", s4 + 12, 4}});
  f.counts.push_back({"nContributions", section_at(f.good, opt, 10) + 64, 4});
  // The probe's M4: domainSize with a coefficient in its last row, so the row check passes.
  f.linked = {{{"domainSize", c2 + 8, 4}, {"coefficient 0 row", s4 + 8, 4}},
              {{"nVars", c2, 4}, {"coefficient 0 signal", s4 + 12, 4}}};
  return f;
}

TEST(FormatFuzz, ZkeyBn254) {
  TempDir d;
  fuzz(zkey_format<Bn254>(d.p, 1));
}
TEST(FormatFuzz, ZkeyBls12_381) {
  TempDir d;
  fuzz(zkey_format<Bls12_381>(d.p, 2));
}

// ---- .r1cs and .wtns --------------------------------------------------------------------------

using Fr = ff::bn254::Fr;

Format r1cs_format(const fs::path& dir, bool with_map) {
  std::mt19937_64 rng(3);
  auto s = test::random_system<Fr>(rng, 6, 2, 10, 3);
  s.r1cs.circom = r1cs::CircomMeta{1, 1, 2, 6};
  Format f;
  f.name = with_map ? ".r1cs" : ".r1cs without section 3";
  f.good = write_r1cs(s.r1cs);
  if (!with_map) f.good = without_section(f.good, r1cs::kR1csFormat, r1cs::kR1csWireToLabelSection);
  const fs::path path = dir / "c.r1cs";
  // Then what `cuzk setup` and the prover do with a parsed system: one value per wire.
  f.parse = via_file(path, [](const fs::path& p) {
    const auto r = r1cs::read_r1cs_file<Fr>(p);
    const std::vector<Fr> w(r.num_vars, Fr::one());
    (void)r1cs::evaluate(r, std::span<const Fr>(w));
  });
  f.error_shape = binfile_error(path, "r1cs");
  f.counts = container_counts(f.good, r1cs::kR1csFormat);
  const std::size_t s1 = section_at(f.good, r1cs::kR1csFormat, 1), c1 = s1 + 4 + Fr::kBytes;
  f.counts.insert(f.counts.end(), {{"n8", s1, 4}, {"nWires", c1, 4}, {"nOutputs", c1 + 4, 4}, {"nPubInputs", c1 + 8, 4},
                                   {"nPrvInputs", c1 + 12, 4}, {"nLabels", c1 + 16, 8}, {"nConstraints", c1 + 24, 4}});
  const std::size_t s2 = section_at(f.good, r1cs::kR1csFormat, 2);
  f.counts.insert(f.counts.end(), {{"constraint 0 A terms", s2, 4}, {"constraint 0 A wire 0", s2 + 4, 4}});
  f.linked = {{{"nWires", c1, 4}, {"constraint 0 A wire 0", s2 + 4, 4}}};  // the probe's L1
  return f;
}

TEST(FormatFuzz, R1cs) {
  TempDir d;
  fuzz(r1cs_format(d.p, true));
}
TEST(FormatFuzz, R1csWithoutWireMap) {
  TempDir d;
  fuzz(r1cs_format(d.p, false));
}

TEST(FormatFuzz, Wtns) {
  TempDir d;
  std::mt19937_64 rng(4);
  std::vector<Fr> w{Fr::one()};
  for (int i = 0; i < 20; ++i) w.push_back(Fr::random(rng));
  Format f;
  f.name = ".wtns";
  f.good = r1cs::write_wtns(w);
  const fs::path path = d.p / "w.wtns";
  f.parse = via_file(path, [](const fs::path& p) { (void)r1cs::read_wtns_file<Fr>(p); });
  f.error_shape = binfile_error(path, "wtns");
  f.counts = container_counts(f.good, r1cs::kWtnsFormat);
  const std::size_t s1 = section_at(f.good, r1cs::kWtnsFormat, 1);
  f.counts.insert(f.counts.end(), {{"n8", s1, 4}, {"nWitness", s1 + 4 + Fr::kBytes, 4}});
  fuzz(f);
}

// ---- bellperson .params, .vk, proof -----------------------------------------------------------

using Bls = Bls12_381;
constexpr std::size_t kVkFixed = 3 * 96 + 3 * 192;  // alpha, beta, delta in G1; beta, gamma, delta in G2

ProvingKey<Bls> small_params_key() {
  std::mt19937_64 rng(5);
  return test::random_key<Bls>(5, 1, 4, rng, /*z_divided=*/true);
}

TEST(FormatFuzz, BellpersonParams) {
  TempDir d;
  Format f;
  f.name = "bellperson .params";
  f.good = write_bellperson_params(small_params_key());
  const fs::path path = d.p / "k.params";
  f.parse = via_file(path, [](const fs::path& p) { (void)read_bellperson_params_file(p); });
  f.error_shape = std::regex("^" + regex_escape(path.string()) + R"(: bellperson \.params, offset \d+: )");
  const auto n = read_bellperson_params_counts(f.good);
  std::size_t at = kVkFixed;
  for (const auto& [name, count, size] :
       {std::tuple{"ic count", n.ic, 96}, {"h count", n.h, 96}, {"l count", n.l, 96}, {"a count", n.a, 96},
        {"b_g1 count", n.b_g1, 96}, {"b_g2 count", n.b_g2, 192}}) {
    f.counts.push_back({name, at, 4, /*big_endian=*/true});
    at += 4 + std::size_t{count} * static_cast<std::size_t>(size);
  }
  fuzz(f);
}

TEST(FormatFuzz, BellpersonVk) {
  Format f;
  f.name = "bellperson .vk";
  f.good = write_bellperson_vk(small_params_key().vk);
  f.parse = [](std::span<const std::uint8_t> b) { (void)read_bellperson_vk(b); };
  f.error_shape = std::regex(R"(^bellperson \.vk, offset \d+: )");
  f.counts = {{"ic count", kVkFixed, 4, true}};
  fuzz(f);
}

TEST(FormatFuzz, BellpersonProof) {
  std::mt19937_64 rng(6);
  Proof<Bls> p{test::random_point<Bls::G1Curve>(rng), test::random_point<Bls::G2Curve>(rng),
               test::random_point<Bls::G1Curve>(rng)};
  const auto a = write_bellperson_proof(p);
  Format f;
  f.name = "bellperson proof";
  f.good.assign(a.begin(), a.end());
  f.parse = [](std::span<const std::uint8_t> b) { (void)read_bellperson_proof(b); };
  f.error_shape = std::regex(R"(^bellperson proof, offset \d+: )");
  fuzz(f);
}

// ---- snarkjs JSON -----------------------------------------------------------------------------

Bytes text_bytes(const std::string& s) { return Bytes(s.begin(), s.end()); }
std::string_view as_text(std::span<const std::uint8_t> b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}
// "<file>: <field>: ..." (field like IC[2][0], vk_alpha_1, [3], (top level)) or "<file>: malformed JSON: ...".
std::regex json_error(const std::string& file) {
  return std::regex("^" + regex_escape(file) + R"(: (malformed JSON|\(top level\)|[A-Za-z_0-9]*(\[\d+\])*): )");
}

TEST(FormatFuzz, VerificationKeyJson) {
  std::mt19937_64 rng(7);
  const auto pk = test::random_key<Bn254>(4, 2, 4, rng);
  Format f;
  f.name = "verification_key.json";
  const std::string text = vk_to_json(pk.vk).dump();
  f.good = text_bytes(text);
  f.parse = [](std::span<const std::uint8_t> b) { (void)parse_vk_json<Bn254>(as_text(b)); };
  f.error_shape = json_error("verification_key.json");
  fuzz(f);
  // nPublic against the IC array (3 points): huge, negative, fractional, overflowing.
  const std::string np = "\"nPublic\":2";
  ASSERT_NE(text.find(np), std::string::npos);
  test::FuzzStats st;
  const test::DataLimit cap(kMemoryCap);
  for (const char* v : {"3", "1", "0", "-1", "1.5", "2147483648", "4294967295", "1099511627776", "18446744073709551615",
                        "18446744073709551616", "1e400", "\"2\"", "null"}) {
    std::string t = text;
    t.replace(t.find(np), np.size(), std::string("\"nPublic\":") + v);
    test::run_case(f, text_bytes(t), std::string("nPublic ") + v, /*must_reject=*/true, st);
  }
  EXPECT_EQ(st.failures, 0u);
  EXPECT_LT(st.max_ms, kMaxCaseMs);
}

TEST(FormatFuzz, ProofJson) {
  std::mt19937_64 rng(8);
  Proof<Bn254> p{test::random_point<Bn254::G1Curve>(rng), test::random_point<Bn254::G2Curve>(rng),
                 test::random_point<Bn254::G1Curve>(rng)};
  Format f;
  f.name = "proof.json";
  f.good = text_bytes(proof_to_json(p).dump());
  f.parse = [](std::span<const std::uint8_t> b) { (void)parse_proof_json<Bn254>(as_text(b)); };
  f.error_shape = json_error("proof.json");
  fuzz(f);
}

TEST(FormatFuzz, PublicJson) {
  std::mt19937_64 rng(9);
  std::vector<Bn254::Fr> v;
  for (int i = 0; i < 4; ++i) v.push_back(Bn254::Fr::random(rng));
  Format f;
  f.name = "public.json";
  f.good = text_bytes(public_to_json(std::span<const Bn254::Fr>(v)).dump());
  f.parse = [](std::span<const std::uint8_t> b) { (void)parse_public_json<Bn254::Fr>(as_text(b)); };
  f.error_shape = json_error("public.json");
  fuzz(f);
}

// ---- CSR cache --------------------------------------------------------------------------------

// The mutations go to the body; the parse appends a correct checksum and size trailer, so that
// every mutant reaches the structural checks (a hostile writer can compute the checksum too).
TEST(FormatFuzz, CsrCache) {
  TempDir d;
  std::mt19937_64 rng(10);
  const auto s = test::random_system<Fr>(rng, 6, 2, 5, 3);
  const fs::path path = d.p / "c.csr";
  const std::string shape = "fuzz/shape";
  cs::write_csr_cache<Fr>(path, shape, s.r1cs);
  Bytes body = io::read_file_bytes(path);
  body.resize(body.size() - 16);
  Format f;
  f.name = "CSR cache";
  f.good = body;
  f.parse = [shape](std::span<const std::uint8_t> b) {
    Bytes full(b.begin(), b.end());
    cs::cache_detail::Checksum c;
    c.update(full.data(), full.size());
    const std::uint64_t sum = c.digest(), total = full.size() + 16;
    for (int i = 0; i < 8; ++i) full.push_back(static_cast<std::uint8_t>(sum >> (8 * i)));
    for (int i = 0; i < 8; ++i) full.push_back(static_cast<std::uint8_t>(total >> (8 * i)));
    (void)cs::parse_csr_cache<Fr>(full, shape);
  };
  f.error_shape = std::regex(R"(^CSR cache, offset \d+: )");
  const std::size_t len_at = 20 + Fr::kBytes, c = len_at + 4 + shape.size();
  const std::size_t rows = s.r1cs.num_constraints, nnz = s.r1cs.A.nnz();
  const std::size_t row_ptr = c + 12 + 4 + 8, dict = row_ptr + 8 * (rows + 1) + 4 * nnz;
  f.counts = {{"shape id length", len_at, 4},  {"num_vars", c, 4},
              {"num_public", c + 4, 4},        {"num_constraints", c + 8, 4},
              {"A num_cols", c + 12, 4},       {"A nnz", c + 16, 8},
              {"A row_ptr[last]", row_ptr + 8 * rows, 8}, {"A dictionary size", dict, 4}};
  fuzz(f);
}

// ---- the probe's reproductions ----------------------------------------------------------------

struct Refusal {
  std::string message;  // empty: no DecodeError
  double ms = 0;
  long peak_growth_kib = 0;  // VmHWM after - VmRSS before (after resetting the peak)
};

template <class Fn>
Refusal refusal_of(Fn&& fn) {
  Refusal r;
  const bool peak_reset = test::reset_peak_rss();
  const long rss0 = peak_reset ? test::proc_status_kib("VmRSS") : test::proc_status_kib("VmHWM");
  const auto t0 = std::chrono::steady_clock::now();
  {
    const test::DataLimit cap(kMemoryCap);
    try {
      fn();
    } catch (const DecodeError& e) {
      r.message = e.what();
    }  // anything else (std::bad_alloc under the cap) fails the test by escaping
  }
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.peak_growth_kib = test::proc_status_kib("VmHWM") - rss0;
  return r;
}

void expect_has(const std::string& msg, const std::string& needle) {
  EXPECT_NE(msg.find(needle), std::string::npos) << "missing \"" << needle << "\" in: " << msg;
}

// M4: domainSize 2^k in section 2 and coefficient 0's row set to 2^k - 1, in a key of 8 H points.
template <class E>
void huge_domain(int log_domain) {
  TempDir d;
  std::mt19937_64 rng(11);
  Bytes b = write_zkey(test::random_key<E>(7, 2, 8, rng));
  const auto& opt = zkey_detail::kZkeyFile;
  const std::size_t s2 = section_at(b, opt, 2), s4 = section_at(b, opt, 4);
  const std::uint64_t domain = std::uint64_t{1} << log_domain;
  test::put_uint(b, {"domainSize", s2 + 8 + E::Fq::kBytes + E::Fr::kBytes + 8, 4}, domain);
  test::put_uint(b, {"row", s4 + 8, 4}, domain - 1);
  const fs::path path = d.p / "huge-domain.zkey";
  io::write_file_bytes(path, b);
  const Refusal r = refusal_of([&] { (void)read_zkey_file<E>(path); });
  ASSERT_FALSE(r.message.empty()) << "the key was accepted";
  expect_has(r.message, path.string() + ": zkey file, section 9, offset ");
  expect_has(r.message, "section 9 (H points) has " + std::to_string(8 * ec::lem::kPointSize<typename E::G1Curve>) +
                            " bytes, but domainSize 2^" + std::to_string(log_domain) + " needs " +
                            std::to_string(domain) + " points");
  EXPECT_LT(r.ms, kMaxCaseMs);
  EXPECT_LT(r.peak_growth_kib, 64 * 1024) << "peak RSS grew by " << r.peak_growth_kib << " KiB";
  // The counts alone (what a budget is computed from) are refused the same way.
  const Refusal counts = refusal_of([&] { (void)read_zkey_counts<E>(io::BinFile::open(path, opt)); });
  EXPECT_EQ(counts.message, r.message);
  std::printf("%s domainSize 2^%d: refused in %.2f ms, peak RSS +%ld KiB: %s\n", std::string(E::kName).c_str(),
              log_domain, r.ms, r.peak_growth_kib, r.message.c_str());
}

TEST(ProbeRegression, ZkeyDeclaringHugeDomainIsRefusedAtOnce) {
  huge_domain<Bn254>(27);
  huge_domain<Bls12_381>(31);
}

// L1: nWires = 2^24 in a small .r1cs, with its wire-to-label map removed (and, second, kept).
TEST(ProbeRegression, R1csDeclaringHugeWireCountIsRefusedAtOnce) {
  TempDir d;
  std::mt19937_64 rng(12);
  const auto s = test::random_system<Fr>(rng, 6, 2, 10, 3);
  const Bytes with_map = write_r1cs(s.r1cs);
  for (const bool keep_map : {false, true}) {
    Bytes b = keep_map ? with_map : without_section(with_map, r1cs::kR1csFormat, r1cs::kR1csWireToLabelSection);
    const std::size_t s1 = section_at(b, r1cs::kR1csFormat, 1);
    test::put_uint(b, {"nWires", s1 + 4 + Fr::kBytes, 4}, std::uint64_t{1} << 24);
    const fs::path path = d.p / "huge-wires.r1cs";
    io::write_file_bytes(path, b);
    const Refusal r = refusal_of([&] { (void)r1cs::read_r1cs_file<Fr>(path); });
    ASSERT_FALSE(r.message.empty()) << "the .r1cs was accepted (map kept: " << keep_map << ")";
    expect_has(r.message, path.string() + ": r1cs file, section " + (keep_map ? "3" : "1") + ", offset ");
    expect_has(r.message, keep_map ? "wire-to-label map has 48 bytes, expected 8 * nWires = 134217728"
                                   : "nWires = 16777216 but the file has no wire-to-label map (section 3)");
    EXPECT_LT(r.ms, kMaxCaseMs);
    EXPECT_LT(r.peak_growth_kib, 64 * 1024) << "peak RSS grew by " << r.peak_growth_kib << " KiB";
    std::printf("r1cs nWires 2^24 (map %s): refused in %.2f ms, peak RSS +%ld KiB: %s\n", keep_map ? "kept" : "removed",
                r.ms, r.peak_growth_kib, r.message.c_str());
    // The curve detection that `cuzk setup` runs first refuses it too.
    EXPECT_THROW((void)r1cs::detect_r1cs_curve_file(path), DecodeError);
  }
}

// L2: `cuzk prove` and `cuzk export vk` open the container themselves and call read_zkey on it;
// the error must still name the file (once).
TEST(ProbeRegression, ZkeyErrorsNameThePathWhicheverWayTheFileWasOpened) {
  TempDir d;
  std::mt19937_64 rng(13);
  Bytes b = write_zkey(test::random_key<Bn254>(7, 2, 8, rng));
  b.resize(b.size() - 68 - 12);  // without section 10: still a valid key
  test::put_uint(b, {"nSections", 8, 4}, 9);
  b[section_at(b, zkey_detail::kZkeyFile, 9) + 5] ^= 0x40;  // an H point off the curve
  const fs::path path = d.p / "bad-h.zkey";
  io::write_file_bytes(path, b);
  const std::string prefix = path.string() + ": zkey file, section 9, offset ";
  const io::BinFile opened = io::BinFile::open(path, zkey_detail::kZkeyFile);
  for (const auto& read : std::vector<std::function<void()>>{[&] { (void)read_zkey<Bn254>(opened); },
                                                              [&] { (void)read_zkey_file<Bn254>(path); }}) {
    try {
      read();
      ADD_FAILURE() << "a key with an H point off the curve was read";
    } catch (const DecodeError& e) {
      EXPECT_TRUE(std::string_view(e.what()).starts_with(prefix)) << e.what();
      EXPECT_EQ(std::string_view(e.what()).find(path.string(), 1), std::string_view::npos)
          << "path twice: " << e.what();
    }
  }
}

// L2: a number that overflows a double was a json::out_of_range, not a DecodeError; a 5000-character
// string was echoed in full.
TEST(ProbeRegression, JsonErrorsAreDecodeErrorsOfBoundedLength) {
  try {
    (void)parse_public_json<Bn254::Fr>("[1e400]");
    ADD_FAILURE() << "1e400 was accepted";
  } catch (const DecodeError& e) {
    EXPECT_TRUE(std::string_view(e.what()).starts_with("public.json: malformed JSON: ")) << e.what();
  }
  std::mt19937_64 rng(14);
  nlohmann::json j = vk_to_json(test::random_key<Bn254>(4, 1, 4, rng).vk);
  j["curve"] = std::string(5000, '7');
  try {
    (void)vk_from_json<Bn254>(j);
    ADD_FAILURE() << "a 5000-digit curve was accepted";
  } catch (const DecodeError& e) {
    EXPECT_TRUE(std::string_view(e.what()).starts_with("verification_key.json: curve: ")) << e.what();
    EXPECT_LT(std::string_view(e.what()).size(), 300u) << e.what();
  }
}

}  // namespace
