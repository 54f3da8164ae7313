// Real-tool interop: .r1cs compiled by circom 2 (circom2, WebAssembly) and .wtns computed by snarkjs
// (tests/oracle/gen_circom.mjs), for bn128 and bls12381. Compared against an independent reading
// of the same files (r1csfile + snarkjs, BigInt arithmetic) recorded in circom.json.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <nlohmann/json.hpp>

#include "support/oracle.hpp"

#include "cuzk/ff/fields.hpp"
#include "cuzk/r1cs/circom_r1cs.hpp"
#include "cuzk/r1cs/eval.hpp"
#include "cuzk/r1cs/wtns.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::r1cs;
using nlohmann::json;

using cuzk::test::oracle_dir;

const json& manifest() {
  static const json j = cuzk::test::load_oracle("circom.json");
  return j;
}

template <class F>
void check_case(const json& c) {
  SCOPED_TRACE(c["name"].get<std::string>());
  const auto dir = oracle_dir();
  const auto r1cs_path = dir / c["r1cs"].get<std::string>();
  const auto wtns_path = dir / c["wtns"].get<std::string>();
  ASSERT_EQ(c["n8"].get<int>(), 32);
  ASSERT_EQ(ff::big::parse<4>(c["prime"].get<std::string>()), F::kModulus);

  const R1CS<F> r = read_r1cs_file<F>(r1cs_path);
  const std::vector<F> w = read_wtns_file<F>(wtns_path);

  // Header counts.
  EXPECT_EQ(r.num_vars, c["nVars"].get<std::uint32_t>());
  EXPECT_EQ(r.num_constraints, c["nConstraints"].get<std::uint32_t>());
  ASSERT_TRUE(r.circom.has_value());
  EXPECT_EQ(r.circom->num_outputs, c["nOutputs"].get<std::uint32_t>());
  EXPECT_EQ(r.circom->num_pub_inputs, c["nPubInputs"].get<std::uint32_t>());
  EXPECT_EQ(r.circom->num_prv_inputs, c["nPrvInputs"].get<std::uint32_t>());
  EXPECT_EQ(r.circom->num_labels, c["nLabels"].get<std::uint64_t>());
  EXPECT_EQ(r.num_public, c["nOutputs"].get<std::uint32_t>() + c["nPubInputs"].get<std::uint32_t>());
  EXPECT_EQ(r.wire_labels, c["map"].get<std::vector<std::uint64_t>>());
  ASSERT_NO_THROW(r.validate());

  // Every constraint, term by term (the oracle lists terms sorted by wire; circom emits them sorted too,
  // but compare as sorted lists so that only content matters).
  const auto& cons = c["constraints"];
  ASSERT_EQ(cons.size(), r.num_constraints);
  for (std::size_t i = 0; i < cons.size(); ++i) {
    const CsrMatrix<F>* m[3] = {&r.A, &r.B, &r.C};
    for (int k = 0; k < 3; ++k) {
      std::vector<std::pair<std::uint32_t, F>> got, want;
      const auto row = m[k]->row(i);
      for (std::size_t t = 0; t < row.size(); ++t) got.emplace_back(row.cols[t], row.vals[t]);
      for (const auto& term : cons[i][k]) want.emplace_back(term[0].get<std::uint32_t>(), cuzk::test::parse_field<F>(term[1]));
      auto by_wire = [](const auto& x, const auto& y) { return x.first < y.first; };
      std::sort(got.begin(), got.end(), by_wire);
      ASSERT_EQ(got, want) << "constraint " << i << " matrix " << "ABC"[k];
    }
  }

  // Witness values.
  const auto& wj = c["witness"];
  ASSERT_EQ(w.size(), wj.size());
  for (std::size_t j = 0; j < w.size(); ++j) ASSERT_EQ(w[j], cuzk::test::parse_field<F>(wj[j])) << "wire " << j;

  // The snarkjs witness satisfies the circom R1CS.
  const auto res = check(r, std::span<const F>(w));
  EXPECT_FALSE(res.has_value()) << "constraint " << res->index << " unsatisfied";
  const auto e = evaluate(r, std::span<const F>(w));
  for (std::size_t i = 0; i < e.a.size(); ++i) ASSERT_EQ(e.a[i] * e.b[i], e.c[i]) << i;

  // Adding 1 to a wire makes check mode name the first constraint the oracle finds failing.
  for (const auto& flip : c["flips"]) {
    auto w2 = w;
    const auto k = flip["wire"].get<std::size_t>();
    w2[k] += F::one();
    const auto want = flip["first_bad"].get<std::int64_t>();
    const auto got = check(r, std::span<const F>(w2));
    if (want < 0) {
      EXPECT_FALSE(got.has_value()) << "wire " << k;
    } else {
      ASSERT_TRUE(got.has_value()) << "wire " << k;
      EXPECT_EQ(got->index, static_cast<std::uint64_t>(want)) << "wire " << k;
    }
  }

  // Writing back what was read reproduces circom's and snarkjs's bytes exactly, section by section
  // (circom writes the constraints section before the header; cuzk writes 1, 2, 3).
  const auto r1cs_bytes = io::read_file_bytes(r1cs_path);
  const auto orig = io::BinFile::parse(r1cs_bytes, kR1csFormat);
  const auto mine_bytes = write_r1cs(r);
  const auto mine = io::BinFile::parse(mine_bytes, kR1csFormat);
  ASSERT_EQ(orig.sections().size(), mine.sections().size());
  for (const auto& sec : orig.sections()) {
    const auto a = orig.section_bytes(sec.id), b = mine.section_bytes(sec.id);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << "r1cs section " << sec.id;
  }
  EXPECT_EQ(write_wtns(w), io::read_file_bytes(wtns_path));
}

TEST(CircomInterop, AllCasesPresent) {
  const auto& cases = manifest()["cases"];
  int bn = 0, bls = 0;
  for (const auto& c : cases) (c["curve"] == "bn254" ? bn : bls)++;
  EXPECT_GE(bn, 2);
  EXPECT_GE(bls, 2);
}

TEST(CircomInterop, ReadsCircomAndSnarkjsFiles) {
  for (const auto& c : manifest()["cases"]) {
    const auto path = oracle_dir() / c["r1cs"].get<std::string>();
    const Curve curve = detect_r1cs_curve_file(path);
    EXPECT_EQ(curve_snarkjs_name(curve), c["prime_name"].get<std::string>());
    EXPECT_EQ(detect_wtns_curve_file(oracle_dir() / c["wtns"].get<std::string>()), curve);
    if (curve == Curve::bn254) {
      check_case<ff::bn254::Fr>(c);
      EXPECT_THROW(read_r1cs_file<ff::bls12_381::Fr>(path), DecodeError);
    } else {
      check_case<ff::bls12_381::Fr>(c);
      try {
        read_r1cs_file<ff::bn254::Fr>(path);
        ADD_FAILURE() << "BLS12-381 file read as BN254";
      } catch (const DecodeError& e) {
        EXPECT_NE(std::string(e.what()).find("is for bls12381 but the BN254 (bn128) scalar field was requested"),
                  std::string::npos)
            << e.what();
      }
    }
  }
}

// The parsers on real-tool bytes (circom's section order): every truncation and random byte changes
// either parse or throw DecodeError.
TEST(CircomInterop, TruncatedAndMutatedRealFiles) {
  for (const auto& c : manifest()["cases"]) {
    if (c["circuit"] != "mulchain" || c["curve"] != "bn254") continue;
    using F = ff::bn254::Fr;
    for (const char* key : {"r1cs", "wtns"}) {
      const bool is_r1cs = std::string(key) == "r1cs";
      const auto bytes = io::read_file_bytes(oracle_dir() / c[key].get<std::string>());
      auto parse = [&](std::span<const std::uint8_t> b) {
        if (is_r1cs) (void)read_r1cs<F>(b);
        else (void)read_wtns<F>(b);
      };
      ASSERT_NO_THROW(parse(bytes));
      for (std::size_t n = 0; n < bytes.size(); ++n) {
        std::vector<std::uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_THROW(parse(prefix), DecodeError) << key << " prefix " << n;
      }
      std::mt19937_64 rng(7);
      for (int i = 0; i < 500; ++i) {
        auto b = bytes;
        for (int k = 0; k < 3; ++k) b[rng() % (rng() % 2 ? 96 : b.size())] ^= static_cast<std::uint8_t>(1 + rng() % 255);
        try {
          parse(b);
        } catch (const DecodeError&) {
        } catch (const std::exception& e) {
          ADD_FAILURE() << key << " mutation " << i << ": non-DecodeError " << e.what();
        }
      }
    }
  }
}

TEST(CircomInterop, RejectsCustomGates) {
  const auto path = oracle_dir() / manifest()["custom_gates_r1cs"].get<std::string>();
  EXPECT_EQ(detect_r1cs_curve_file(path), Curve::bn254);
  try {
    read_r1cs_file<ff::bn254::Fr>(path);
    ADD_FAILURE() << "custom-gate .r1cs accepted";
  } catch (const DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("custom gates"), std::string::npos) << e.what();
  }
}

}  // namespace
