#include "post_verify.hpp"

#include <span>

#include "cuzk/error.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::bench {

using Bls = groth16::Bls12_381;

PostVerifyingKey::PostVerifyingKey(std::string_view json)
    : vk_(groth16::parse_vk_json<Bls>(json)) {}

std::string PostVerifyingKey::check(const PostExpectation& e, const ::cuzk::v1::ProofResult& r) const {
  if (r.circuit_id() != e.circuit_id) return "proved by circuit " + r.circuit_id() + ", expected " + e.circuit_id;
  if (!e.underivable.empty()) return "cannot derive the public inputs here: " + e.underivable;
  const std::string& bytes = r.proof_bytes();
  if (bytes.size() != groth16::kBellpersonProofSize)
    return "proof_bytes holds " + std::to_string(bytes.size()) + " bytes, not a " +
           std::to_string(groth16::kBellpersonProofSize) + "-byte proof";
  if (vk_.num_public() != e.public_inputs.size())
    return "the verifying key of " + e.circuit_id + " has " + std::to_string(vk_.num_public()) +
           " public inputs; the ones derived here are " + std::to_string(e.public_inputs.size());
  const std::span<const std::uint8_t> b(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  try {
    const groth16::Proof<Bls> proof = groth16::read_bellperson_proof(b);
    if (!groth16::verify(vk_, proof, std::span<const filecoin::Fr>(e.public_inputs)))
      return "the 192-byte proof does not verify against the public inputs derived from the randomness and the sectors";
  } catch (const DecodeError& ex) {
    return std::string("the 192-byte proof does not decode: ") + ex.what();
  }
  // The proof is good; the daemon's account of its inputs must be too.
  try {
    if (groth16::parse_public_json<filecoin::Fr>(r.public_json()) != e.public_inputs)
      return "the proof verifies, but the daemon's public_json lists other inputs than the ones derived here";
  } catch (const std::exception& ex) {
    return std::string("the proof verifies, but the daemon's public_json does not parse: ") + ex.what();
  }
  return {};
}

}  // namespace cuzk::bench
