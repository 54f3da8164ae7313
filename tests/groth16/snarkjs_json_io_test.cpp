// snarkjs JSON (proof.json, public.json, verification_key.json): round trips on random values and
// malformed inputs with messages naming the field. The alphabeta value is checked against
// snarkjs itself in snarkjs_interop_io_test.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "random_key.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::groth16;
using nlohmann::json;

template <class E>
Proof<E> random_proof(std::mt19937_64& rng) {
  return {test::random_point<typename E::G1Curve>(rng), test::random_point<typename E::G2Curve>(rng),
          test::random_point<typename E::G1Curve>(rng)};
}

template <class E>
void round_trip() {
  std::mt19937_64 rng(21);
  const auto p = random_proof<E>(rng);
  const json j = proof_to_json(p);
  EXPECT_EQ(j["curve"], std::string(E::kSnarkjsName));
  EXPECT_EQ(j["pi_a"][2], "1");
  EXPECT_EQ(j["pi_b"][2], json::array({"1", "0"}));
  EXPECT_EQ(parse_proof_json<E>(j.dump()), p);
  // Infinity in snarkjs form.
  Proof<E> q = p;
  q.c = E::G1Affine::infinity();
  EXPECT_EQ(proof_from_json<E>(proof_to_json(q)), q);
  // rapidsnark's proof.json names no curve: the verifying key's is taken; another curve is refused.
  json rapidsnark = proof_to_json(p);
  rapidsnark.erase("curve");
  EXPECT_EQ(proof_from_json<E>(rapidsnark), p);
  rapidsnark["curve"] = "bls12-377";
  EXPECT_THROW(proof_from_json<E>(rapidsnark), DecodeError);

  std::vector<typename E::Fr> pub{E::Fr::from_u64(33), -E::Fr::one(), E::Fr::random(rng)};
  const json pj = public_to_json<typename E::Fr>(pub);
  EXPECT_EQ(pj[1], (-E::Fr::one()).to_decimal());
  EXPECT_EQ(parse_public_json<typename E::Fr>(pj.dump()), pub);

  auto pk = test::random_key<E>(6, 3, 8, rng);
  const json vj = vk_to_json(pk.vk);
  EXPECT_EQ(vj["nPublic"], 3);
  auto vk = parse_vk_json<E>(vj.dump());
  auto want = pk.vk;
  want.beta_g1 = want.delta_g1 = E::G1Affine::infinity();
  EXPECT_TRUE(vk == want);
  json bad = vj;
  bad["vk_alphabeta_12"][1][2][0] = "5";
  EXPECT_THROW(vk_from_json<E>(bad), DecodeError);
  EXPECT_NO_THROW(vk_from_json<E>(bad, {false}));
}

TEST(SnarkjsJson, RoundTripBn254) { round_trip<Bn254>(); }
TEST(SnarkjsJson, RoundTripBls12_381) { round_trip<Bls12_381>(); }

template <class Fn>
std::string error_of(Fn fn) {
  try {
    fn();
  } catch (const std::exception& e) {  // DecodeError, or verify's std::invalid_argument
    return e.what();
  }
  return "(no error)";
}

TEST(SnarkjsJson, Malformed) {
  std::mt19937_64 rng(22);
  const auto p = random_proof<Bn254>(rng);
  const json good = proof_to_json(p);
  auto err = [](const json& j) { return error_of([&] { (void)proof_from_json<Bn254>(j); }); };
  auto has = [](const std::string& e, const std::string& s) {
    EXPECT_NE(e.find(s), std::string::npos) << "message \"" << e << "\" lacks \"" << s << "\"";
  };
  has(error_of([] { (void)parse_proof_json<Bn254>("{\"pi_a\": [1,"); }), "malformed JSON");
  has(error_of([] { (void)parse_proof_json<Bn254>("[]"); }), "expected an object");
  json j = good;
  j["curve"] = "bls12381";
  has(err(j), "curve: \"bls12381\" does not match");
  j = good;
  j["protocol"] = "plonk";
  has(err(j), "protocol: \"plonk\" is not \"groth16\"");
  j = good;
  j.erase("pi_c");
  has(err(j), "pi_c: missing field");
  j = good;
  j["pi_a"].erase(2);
  has(err(j), "pi_a: expected 3 entries");
  j = good;
  j["pi_b"][1] = "7";
  has(err(j), "pi_b[1]: expected an array");
  j = good;
  j["pi_a"][0] = 12;
  has(err(j), "pi_a[0]: expected a string");
  j = good;
  j["pi_a"][1] = "0x12";
  has(err(j), "pi_a[1]: \"0x12\" is not a decimal integer");
  j = good;
  j["pi_a"][0] = "21888242871839275222246405745257275088696311157297823662689037894645226208583";  // q
  has(err(j), "pi_a[0]: \"2188");
  has(err(j), "not less than the field modulus");
  j = good;
  j["pi_c"][1] = (p.c.y + Bn254::Fq::one()).to_decimal();
  has(err(j), "pi_c: ");
  has(err(j), "not on the curve");
  j = good;
  j["pi_b"][0][1] = (p.b.x.c1 + Bn254::Fq::one()).to_decimal();
  has(err(j), "pi_b: ");

  has(error_of([] { (void)parse_public_json<Bn254::Fr>("[\"1\", 2]"); }), "public.json: [1]: expected a string");
  has(error_of([] {
        (void)parse_public_json<Bn254::Fr>(
            "[\"21888242871839275222246405745257275088548364400416034343698204186575808495617\"]");
      }),
      "public.json: [0]:");
  has(error_of([] { (void)parse_public_json<Bn254::Fr>("{}"); }), "expected an array");

  auto pk = test::random_key<Bn254>(5, 1, 4, rng);
  const json vj = vk_to_json(pk.vk);
  auto verr = [](const json& v) { return error_of([&] { (void)vk_from_json<Bn254>(v); }); };
  json v = vj;
  v["IC"].erase(0);
  has(verr(v), "IC: expected 2 entries");
  v = vj;
  v["nPublic"] = -1;
  has(verr(v), "nPublic: expected a non-negative integer");
  v = vj;
  v["vk_alphabeta_12"][0][1] = json::array({"1"});
  has(verr(v), "vk_alphabeta_12[0][1]: expected 2 entries");
  v = vj;
  v["vk_gamma_2"][2] = json::array({"1", "0", "0"});
  has(verr(v), "vk_gamma_2[2]: expected 2 entries");
  v = vj;
  v["curve"] = "bn254";
  has(verr(v), "curve:");
  // Degenerate keys (forged proofs would verify under them) are refused at load and by verify.
  for (auto* point : {&pk.vk.gamma_g2, &pk.vk.delta_g2}) {
    auto degenerate = pk.vk;
    const bool gamma = point == &pk.vk.gamma_g2;
    (gamma ? degenerate.gamma_g2 : degenerate.delta_g2) = Bn254::G2Affine::infinity();
    has(verr(vk_to_json(degenerate)), gamma ? "verification_key.json: vk_gamma_2: is the point at infinity"
                                            : "verification_key.json: vk_delta_2: is the point at infinity");
    const Proof<Bn254> any{Bn254::G1Affine::infinity(), Bn254::G2Affine::infinity(), Bn254::G1Affine::infinity()};
    const std::vector<Bn254::Fr> inputs(degenerate.num_public(), Bn254::Fr::one());
    has(error_of([&] { (void)verify<Bn254>(degenerate, any, inputs); }), "degenerate key");
  }
}

}  // namespace
