#include "proof_check.hpp"

#include <span>
#include <variant>

#include "cuzk/error.hpp"
#include "cuzk/groth16/curve_dispatch.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::server {

struct ProofChecker::Impl {
  std::variant<groth16::VerifyingKey<groth16::Bn254>, groth16::VerifyingKey<groth16::Bls12_381>> vk;
  std::string curve;
};

ProofChecker::ProofChecker(std::string_view vk_text) : impl_(std::make_unique<Impl>()) {
  const nlohmann::json j = groth16::json_detail::parse_text(vk_text, "verification_key.json");
  if (!j.is_object() || !j.contains("curve") || !j["curve"].is_string())
    throw DecodeError("verification_key.json: curve: missing or not a string");
  const std::string c = j["curve"].get<std::string>();
  const std::optional<r1cs::Curve> curve = r1cs::parse_curve_name(c);
  if (!curve) throw DecodeError("verification_key.json: curve: unknown \"" + c + "\"");
  groth16::dispatch_curve(*curve, [&]<class E>() { impl_->vk = groth16::vk_from_json<E>(j); });
  impl_->curve = r1cs::curve_name(*curve);
}

ProofChecker::~ProofChecker() = default;
ProofChecker::ProofChecker(ProofChecker&&) noexcept = default;

const std::string& ProofChecker::curve() const { return impl_->curve; }

bool ProofChecker::verify(std::string_view proof_json, std::string_view public_json, std::string* why) const {
  return std::visit(
      [&]<class E>(const groth16::VerifyingKey<E>& vk) {
        using Fr = typename E::Fr;
        try {
          const groth16::Proof<E> proof = groth16::parse_proof_json<E>(proof_json);
          const std::vector<Fr> pub = groth16::parse_public_json<Fr>(public_json);
          if (pub.size() != vk.num_public()) {
            if (why) *why = "public.json has " + std::to_string(pub.size()) + " values, the key expects " + std::to_string(vk.num_public());
            return false;
          }
          const bool ok = groth16::verify(vk, proof, std::span<const Fr>(pub));
          if (!ok && why) *why = "pairing check failed";
          return ok;
        } catch (const std::exception& e) {
          if (why) *why = e.what();
          return false;
        }
      },
      impl_->vk);
}

}  // namespace cuzk::server
