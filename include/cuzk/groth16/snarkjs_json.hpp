// snarkjs JSON files (shared/INTEROP.md 7.7): proof.json, public.json, verification_key.json.
// Numbers are decimal strings of standard-form integers; points use ffjavascript's object
// form (cuzk/ec/serialize_snarkjs.hpp does the points: G1 [x, y, "1"], G2 [[x.c0, x.c1],
// [y.c0, y.c1], ["1", "0"]]).
//
// Every reader throws cuzk::DecodeError naming the field ("proof.json: pi_b[1][0]: ...") for
// malformed JSON text, a missing/extra-shaped field, a wrong "protocol" or "curve", a string
// that is not a decimal integer, a value >= the modulus, or a point off the curve / outside
// the prime-order subgroup. Writers produce what snarkjs writes (key order aside: nlohmann
// sorts object keys; snarkjs reads them by name).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cuzk/ec/serialize_snarkjs.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::groth16 {

namespace json_detail {
using nlohmann::json;

[[noreturn]] inline void fail(std::string_view file, const std::string& field, const std::string& what) {
  throw DecodeError(std::string(file) + ": " + field + ": " + what);
}

// Every nlohmann exception, not only parse_error: a number that overflows a double ("1e400") is
// an out_of_range error raised while parsing.
inline json parse_text(std::string_view text, std::string_view file) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    throw DecodeError(std::string(file) + ": malformed JSON: " + e.what());
  }
}

// A string from the input, quoted for a message and cut to 64 characters (a file can hold a
// megabyte-long "curve").
inline std::string quoted(const std::string& s) {
  constexpr std::size_t kMax = 64;
  if (s.size() <= kMax) return "\"" + s + "\"";
  return "\"" + s.substr(0, kMax) + "\"... (" + std::to_string(s.size()) + " characters)";
}

inline const std::string& get_string(const json& j, std::string_view file, const std::string& field) {
  if (!j.is_string()) fail(file, field, std::string("expected a string, got ") + j.type_name());
  return j.get_ref<const std::string&>();
}

// A decimal standard-form integer < the modulus of F.
template <class F>
F parse_decimal(const json& j, std::string_view file, const std::string& field) {
  const std::string& s = get_string(j, file, field);
  if (s.empty()) fail(file, field, "empty number string");
  if (s.size() > 200) fail(file, field, "number string too long");
  for (char c : s)
    if (c < '0' || c > '9') fail(file, field, quoted(s) + " is not a decimal integer");
  try {
    return F::from_string(s);
  } catch (const std::exception&) {
    fail(file, field, quoted(s) + " is not less than the field modulus");
  }
}

inline const json& member(const json& obj, const char* key, std::string_view file) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(file, key, "missing field");
  return *it;
}

inline void check_array(const json& j, std::size_t n, std::string_view file, const std::string& field) {
  if (!j.is_array()) fail(file, field, std::string("expected an array, got ") + j.type_name());
  if (j.size() != n) fail(file, field, "expected " + std::to_string(n) + " entries, got " + std::to_string(j.size()));
}

template <class C>
ec::Affine<C> parse_point(const json& j, std::string_view file, const std::string& field) {
  using Base = typename C::Base;
  ec::snarkjs::Strings<C> s{};
  check_array(j, 3, file, field);
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string f = field + "[" + std::to_string(i) + "]";
    if constexpr (ec::detail::QuadraticExt<Base>) {
      check_array(j[i], 2, file, f);
      for (std::size_t k = 0; k < 2; ++k) {
        const std::string fk = f + "[" + std::to_string(k) + "]";
        (void)parse_decimal<typename Base::Base>(j[i][k], file, fk);  // shape, digits and range, with the field name
        s[i][k] = j[i][k].template get<std::string>();
      }
    } else {
      (void)parse_decimal<Base>(j[i], file, f);
      s[i] = j[i].template get<std::string>();
    }
  }
  try {
    return ec::snarkjs::from_strings<C>(s, true);
  } catch (const DecodeError& e) {
    fail(file, field, e.what());
  }
}

template <class C>
json point_json(const ec::Affine<C>& p) {
  return json(ec::snarkjs::to_strings(p));
}

// `curve_optional`: a proof may leave its curve out (rapidsnark's proof.json has no "curve"; the
// verifying key names it); a curve that is there must be E's.
template <class E>
void check_tags(const json& j, std::string_view file, bool curve_optional = false) {
  if (!j.is_object()) fail(file, "(top level)", std::string("expected an object, got ") + j.type_name());
  const std::string& protocol = get_string(member(j, "protocol", file), file, "protocol");
  if (protocol != "groth16") fail(file, "protocol", quoted(protocol) + " is not \"groth16\"");
  if (curve_optional && !j.contains("curve")) return;
  const std::string& curve = get_string(member(j, "curve", file), file, "curve");
  if (curve != E::kSnarkjsName)
    fail(file, "curve", quoted(curve) + " does not match the expected curve \"" + std::string(E::kSnarkjsName) + "\"");
}

template <class F12>
json fp12_json(const F12& g) {
  auto f2 = [](const auto& x) { return json::array({x.c0.to_decimal(), x.c1.to_decimal()}); };
  auto f6 = [&](const auto& x) { return json::array({f2(x.c0), f2(x.c1), f2(x.c2)}); };
  return json::array({f6(g.c0), f6(g.c1)});
}

template <class F12>
F12 parse_fp12(const json& j, std::string_view file, const std::string& field) {
  using F6 = std::decay_t<decltype(F12{}.c0)>;
  using F2 = std::decay_t<decltype(F6{}.c0)>;
  using Fq = typename F2::Base;
  check_array(j, 2, file, field);
  auto f6 = [&](const json& a, const std::string& fa) {
    check_array(a, 3, file, fa);
    F2 c[3];
    for (std::size_t i = 0; i < 3; ++i) {
      const std::string fi = fa + "[" + std::to_string(i) + "]";
      check_array(a[i], 2, file, fi);
      c[i] = F2(parse_decimal<Fq>(a[i][0], file, fi + "[0]"), parse_decimal<Fq>(a[i][1], file, fi + "[1]"));
    }
    F6 r;
    r.c0 = c[0];
    r.c1 = c[1];
    r.c2 = c[2];
    return r;
  };
  F12 r;
  r.c0 = f6(j[0], field + "[0]");
  r.c1 = f6(j[1], field + "[1]");
  return r;
}
}  // namespace json_detail

// ---- proof.json ----
template <class E>
nlohmann::json proof_to_json(const Proof<E>& p) {
  using namespace json_detail;
  return json{{"pi_a", point_json(p.a)},
              {"pi_b", point_json(p.b)},
              {"pi_c", point_json(p.c)},
              {"protocol", "groth16"},
              {"curve", std::string(E::kSnarkjsName)}};
}

// `file`: how messages name the file (its path where the caller has one).
template <class E>
Proof<E> proof_from_json(const nlohmann::json& j, std::string_view file = "proof.json") {
  using namespace json_detail;
  check_tags<E>(j, file, /*curve_optional=*/true);
  Proof<E> p;
  p.a = parse_point<typename E::G1Curve>(member(j, "pi_a", file), file, "pi_a");
  p.b = parse_point<typename E::G2Curve>(member(j, "pi_b", file), file, "pi_b");
  p.c = parse_point<typename E::G1Curve>(member(j, "pi_c", file), file, "pi_c");
  return p;
}

template <class E>
Proof<E> parse_proof_json(std::string_view text, std::string_view file = "proof.json") {
  return proof_from_json<E>(json_detail::parse_text(text, file), file);
}

// ---- public.json: the values of wires 1..num_public (outputs first, then public inputs) ----
template <class Fr>
nlohmann::json public_to_json(std::span<const Fr> inputs) {
  nlohmann::json a = nlohmann::json::array();
  for (const Fr& x : inputs) a.push_back(x.to_decimal());
  return a;
}

template <class Fr>
std::vector<Fr> public_from_json(const nlohmann::json& j, std::string_view file = "public.json") {
  using namespace json_detail;
  if (!j.is_array()) fail(file, "(top level)", std::string("expected an array of decimal strings, got ") + j.type_name());
  std::vector<Fr> out;
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    std::string where = "[";  // built by appends: "[" + to_string(i) trips GCC 12's -Wrestrict (a false positive)
    where += std::to_string(i);
    where += ']';
    out.push_back(parse_decimal<Fr>(j[i], file, where));
  }
  return out;
}

template <class Fr>
std::vector<Fr> parse_public_json(std::string_view text, std::string_view file = "public.json") {
  return public_from_json<Fr>(json_detail::parse_text(text, file), file);
}

// ---- verification_key.json ----
// vk_alphabeta_12 = e(alpha_g1, beta_g2), computed with E::pairing (one pairing, ~1 ms).
template <class E>
nlohmann::json vk_to_json(const VerifyingKey<E>& vk) {
  using namespace json_detail;
  json ic = json::array();
  for (const auto& p : vk.ic) ic.push_back(point_json(p));
  return json{{"protocol", "groth16"},
              {"curve", std::string(E::kSnarkjsName)},
              {"nPublic", vk.num_public()},
              {"vk_alpha_1", point_json(vk.alpha_g1)},
              {"vk_beta_2", point_json(vk.beta_g2)},
              {"vk_gamma_2", point_json(vk.gamma_g2)},
              {"vk_delta_2", point_json(vk.delta_g2)},
              {"vk_alphabeta_12", fp12_json(E::pairing(vk.alpha_g1, vk.beta_g2))},
              {"IC", ic}};
}

struct VkJsonReadOptions {
  // Recompute e(alpha, beta) and compare with vk_alphabeta_12 (the verifier ignores the field,
  // so a mismatch means a corrupt or hand-edited file). It must be well-formed either way.
  bool check_alphabeta = true;
  // How messages name the file (its path where the caller has one).
  std::string_view file = "verification_key.json";
};

// The JSON has no beta_g1 / delta_g1: they come back as the point at infinity.
template <class E>
VerifyingKey<E> vk_from_json(const nlohmann::json& j, const VkJsonReadOptions& opt = {}) {
  using namespace json_detail;
  using G1C = typename E::G1Curve;
  using G2C = typename E::G2Curve;
  const std::string_view file = opt.file;
  check_tags<E>(j, file);
  VerifyingKey<E> vk;
  vk.beta_g1 = E::G1Affine::infinity();
  vk.delta_g1 = E::G1Affine::infinity();
  vk.alpha_g1 = parse_point<G1C>(member(j, "vk_alpha_1", file), file, "vk_alpha_1");
  vk.beta_g2 = parse_point<G2C>(member(j, "vk_beta_2", file), file, "vk_beta_2");
  vk.gamma_g2 = parse_point<G2C>(member(j, "vk_gamma_2", file), file, "vk_gamma_2");
  vk.delta_g2 = parse_point<G2C>(member(j, "vk_delta_2", file), file, "vk_delta_2");
  if (const std::string why = degenerate_vk_reason(vk); !why.empty()) {
    const std::size_t field_end = why.find(' ');
    fail(file, why.substr(0, field_end), why.substr(field_end + 1));
  }
  const json& n = member(j, "nPublic", file);
  if (!n.is_number_unsigned()) fail(file, "nPublic", "expected a non-negative integer");
  const json& ic = member(j, "IC", file);
  const auto np = n.get<std::uint64_t>();
  if (np > (1u << 30)) fail(file, "nPublic", "implausibly large");
  check_array(ic, static_cast<std::size_t>(np) + 1, file, "IC");
  for (std::size_t i = 0; i < ic.size(); ++i)
    vk.ic.push_back(parse_point<G1C>(ic[i], file, "IC[" + std::to_string(i) + "]"));
  using Gt = decltype(E::pairing(vk.alpha_g1, vk.beta_g2));
  const Gt ab = parse_fp12<Gt>(member(j, "vk_alphabeta_12", file), file, "vk_alphabeta_12");
  if (opt.check_alphabeta && !(ab == E::pairing(vk.alpha_g1, vk.beta_g2)))
    fail(file, "vk_alphabeta_12", "is not e(vk_alpha_1, vk_beta_2)");
  return vk;
}

template <class E>
VerifyingKey<E> parse_vk_json(std::string_view text, const VkJsonReadOptions& opt = {}) {
  return vk_from_json<E>(json_detail::parse_text(text, opt.file), opt);
}

}  // namespace cuzk::groth16
