// cuzk verify --vk verification_key.json --proof proof.json --public public.json
#include <iostream>

#include "commands.hpp"
#include "cuzk/groth16/curve_dispatch.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "files.hpp"

namespace cuzk::cli {

int run_verify(const VerifyArgs& a) {
  return reading_inputs({a.vk, a.proof, a.pub}, [&] {
    const std::string vk_text = read_text_file(a.vk);
    const std::string proof_text = read_text_file(a.proof);
    const std::string pub_text = read_text_file(a.pub);
    const nlohmann::json vk_json = groth16::json_detail::parse_text(vk_text, a.vk);
    if (!vk_json.is_object() || !vk_json.contains("curve") || !vk_json["curve"].is_string())
      throw DecodeError(a.vk + ": curve: missing or not a string");
    const r1cs::Curve curve = curve_from_name(vk_json["curve"].get<std::string>(), a.vk + ": curve");
    return groth16::dispatch_curve(curve, [&]<class E>() {
      using Fr = typename E::Fr;
      groth16::VkJsonReadOptions opt;
      opt.file = a.vk;
      const groth16::VerifyingKey<E> vk = groth16::vk_from_json<E>(vk_json, opt);
      // A malformed or off-curve proof is rejected while parsing (exit 2); a well-formed
      // proof that fails the pairing check is "INVALID" (exit 1). Messages name the files.
      const groth16::Proof<E> proof = groth16::parse_proof_json<E>(proof_text, a.proof);
      const std::vector<Fr> pub = groth16::parse_public_json<Fr>(pub_text, a.pub);
      const bool ok = groth16::verify(vk, proof, std::span<const Fr>(pub));
      std::cout << (ok ? "OK" : "INVALID") << ": " << a.proof << "\n";
      return ok ? 0 : 1;
    });
  });
}

}  // namespace cuzk::cli
