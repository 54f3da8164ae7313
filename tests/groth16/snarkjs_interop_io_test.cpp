// Interop with the real snarkjs (fixtures from tests/oracle/gen_zkey.mjs, a 3-constraint circom
// circuit on bn128 and bls12381 with a real ceremony):
//  - snarkjs's .zkey read by us agrees with snarkjs's verification_key.json (alpha, beta, gamma,
//    delta, IC), and its section-4 coefficients decode to the circuit's A and B (read from the
//    .r1cs by the r1cs layer) plus the public binding rows;
//  - the snarkjs proof and public inputs verify with our pairing, and JSON written back equals
//    snarkjs's after parsing; our vk JSON (with e(alpha, beta)) equals snarkjs's;
//  - the .zkey written back by us has the same point sections, and snarkjs accepts it:
//    `zkey export verificationkey` gives the same JSON, `groth16 prove` + `verify` succeed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/r1cs/circom_r1cs.hpp"
#include "support/oracle.hpp"

#ifndef CUZK_NODE
#error "CUZK_NODE (node executable) must be defined"
#endif
#ifndef CUZK_ORACLE_SRC
#error "CUZK_ORACLE_SRC (tests/oracle) must be defined"
#endif

namespace {
using namespace cuzk;
using namespace cuzk::groth16;
using nlohmann::json;
namespace fs = std::filesystem;

json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  return json::parse(in);
}
std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the snarkjs CLI; returns its exit status (output goes to log).
int snarkjs(const std::string& args, const fs::path& log) {
  const std::string cmd = std::string("\"") + CUZK_NODE + "\" \"" + CUZK_ORACLE_SRC +
                          "/node_modules/snarkjs/build/cli.cjs\" " + args + " > \"" + log.string() + "\" 2>&1";
  return std::system(cmd.c_str());
}

// Rows as sorted (col, value) lists, duplicates merged, zeros dropped.
template <class F>
std::map<std::uint32_t, F> row_map(const r1cs::CsrMatrix<F>& m, std::size_t i) {
  std::map<std::uint32_t, F> out;
  if (i >= m.num_rows()) return out;
  const auto r = m.row(i);
  for (std::size_t k = 0; k < r.size(); ++k) out[r.cols[k]] += r.vals[k];
  std::erase_if(out, [](const auto& kv) { return kv.second.is_zero(); });
  return out;
}

template <class E>
void check_case(const json& c) {
  using Fr = typename E::Fr;
  const fs::path dir = test::oracle_dir();
  const fs::path zkey_path = dir / c["zkey"].get<std::string>();
  SCOPED_TRACE(zkey_path.string());

  EXPECT_EQ(zkey_curve(io::read_file_bytes(zkey_path)), *r1cs::curve_of_scalar_field<Fr>());
  ZkeyExtra extra;
  const auto pk = read_zkey_file<E>(zkey_path, {PointCheck::kSubgroup}, &extra);
  EXPECT_EQ(extra.num_contributions, 1u);  // gen_zkey made one zkey contribution

  // verification_key.json vs the zkey.
  const json vkj = read_json(dir / c["vk"].get<std::string>());
  const auto vk = vk_from_json<E>(vkj);  // also checks vk_alphabeta_12 == e(alpha, beta) with our pairing
  EXPECT_TRUE(vk.alpha_g1 == pk.vk.alpha_g1);
  EXPECT_TRUE(vk.beta_g2 == pk.vk.beta_g2);
  EXPECT_TRUE(vk.gamma_g2 == pk.vk.gamma_g2);
  EXPECT_TRUE(vk.gamma_g2 == E::G2Curve::generator());
  EXPECT_TRUE(vk.delta_g2 == pk.vk.delta_g2);
  EXPECT_FALSE(vk.delta_g2 == E::G2Curve::generator());
  EXPECT_TRUE(vk.ic == pk.vk.ic);
  EXPECT_EQ(vk_to_json(pk.vk), vkj);  // our writer, including e(alpha, beta), equals snarkjs's

  // Coefficients vs the circuit.
  const auto r = r1cs::read_r1cs_file<Fr>(dir / c["r1cs"].get<std::string>());
  const std::size_t nc = r.num_constraints, np = r.num_public;
  EXPECT_EQ(pk.num_vars, r.num_vars);
  EXPECT_EQ(pk.num_public(), np);
  EXPECT_EQ(pk.a.num_rows(), nc + np + 1);
  EXPECT_EQ(pk.b.num_rows(), nc + np + 1);
  EXPECT_GE(pk.domain_size, nc + np + 1);
  bool saw_non_one = false;
  for (std::size_t i = 0; i < nc; ++i) {
    EXPECT_EQ(row_map(pk.a, i), row_map(r.A, i)) << "A row " << i;
    EXPECT_EQ(row_map(pk.b, i), row_map(r.B, i)) << "B row " << i;
    for (const auto& [k, v] : row_map(r.A, i)) saw_non_one |= !v.is_one();
  }
  EXPECT_TRUE(saw_non_one) << "the fixture should have coefficients other than 1";
  for (std::size_t s = 0; s <= np; ++s) {
    EXPECT_EQ(row_map(pk.a, nc + s), (std::map<std::uint32_t, Fr>{{static_cast<std::uint32_t>(s), Fr::one()}}));
    EXPECT_TRUE(row_map(pk.b, nc + s).empty());
  }

  // proof.json / public.json: parse, verify with our pairing, write back.
  const json pj = read_json(dir / c["proof"].get<std::string>());
  const json pubj = read_json(dir / c["public"].get<std::string>());
  const auto proof = parse_proof_json<E>(pj.dump());
  const auto pub = parse_public_json<Fr>(read_text(dir / c["public"].get<std::string>()));
  ASSERT_EQ(pub.size(), np);
  EXPECT_EQ(proof_to_json(proof), pj);
  EXPECT_EQ(public_to_json<Fr>(pub), pubj);
  auto x = E::G1::from_affine(vk.ic[0]);
  for (std::size_t i = 0; i < np; ++i) x = x + E::G1::from_affine(vk.ic[i + 1]) * pub[i];
  const typename E::Pair pairs[] = {{-proof.a, proof.b}, {x.to_affine(), vk.gamma_g2}, {proof.c, vk.delta_g2},
                                    {vk.alpha_g1, vk.beta_g2}};
  EXPECT_TRUE(E::pairing_check(pairs)) << "snarkjs proof does not verify with our pairing";

  // Our .zkey writer: same points, and snarkjs can use it.
  const fs::path out = dir / (c["dir"].get<std::string>() + "_cuzk");
  fs::create_directories(out);
  write_zkey_file(out / "ours.zkey", pk);
  {
    const auto a = io::BinFile::open(zkey_path, {"zkey", 1, 1, false});
    const auto b = io::BinFile::open(out / "ours.zkey", {"zkey", 1, 1, false});
    for (std::uint32_t id : {1u, 2u, 3u, 5u, 6u, 7u, 8u, 9u}) {
      const auto sa = a.section_bytes(id), sb = b.section_bytes(id);
      EXPECT_TRUE(std::equal(sa.begin(), sa.end(), sb.begin(), sb.end())) << "section " << id;
    }
    EXPECT_EQ(a.section(4).size, b.section(4).size);
  }
  ASSERT_EQ(snarkjs("zkey export verificationkey \"" + (out / "ours.zkey").string() + "\" \"" +
                        (out / "vk.json").string() + "\"",
                    out / "export.log"),
            0)
      << read_text(out / "export.log");
  EXPECT_EQ(read_json(out / "vk.json"), vkj);
  const std::string wtns = (dir / c["wtns"].get<std::string>()).string();
  ASSERT_EQ(snarkjs("groth16 prove \"" + (out / "ours.zkey").string() + "\" \"" + wtns + "\" \"" +
                        (out / "proof.json").string() + "\" \"" + (out / "public.json").string() + "\"",
                    out / "prove.log"),
            0)
      << read_text(out / "prove.log");
  ASSERT_EQ(snarkjs("groth16 verify \"" + (out / "vk.json").string() + "\" \"" + (out / "public.json").string() +
                        "\" \"" + (out / "proof.json").string() + "\"",
                    out / "verify.log"),
            0)
      << read_text(out / "verify.log");
  EXPECT_NE(read_text(out / "verify.log").find("OK"), std::string::npos) << read_text(out / "verify.log");
  // And the proof snarkjs made with our key verifies with our pairing too.
  const auto p2 = parse_proof_json<E>(read_text(out / "proof.json"));
  const typename E::Pair pairs2[] = {{-p2.a, p2.b}, {x.to_affine(), vk.gamma_g2}, {p2.c, vk.delta_g2},
                                     {vk.alpha_g1, vk.beta_g2}};
  EXPECT_TRUE(E::pairing_check(pairs2));
}

const json& find_case(const std::string& curve) {
  static const json doc = test::load_oracle("zkey.json");
  for (const auto& c : doc["cases"])
    if (c["curve"] == curve) return c;
  throw std::runtime_error("zkey.json has no case for " + curve);
}

TEST(SnarkjsInterop, Bn254) { check_case<Bn254>(find_case("bn128")); }
TEST(SnarkjsInterop, Bls12_381) { check_case<Bls12_381>(find_case("bls12381")); }

}  // namespace
