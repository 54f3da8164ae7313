#include "filecoin_verify.hpp"

#include <algorithm>

#include "cuzk/error.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::bench {

using Bls = groth16::Bls12_381;

FilecoinVerifyingKey::FilecoinVerifyingKey(std::string circuit_id, std::string_view json)
    : circuit_id_(std::move(circuit_id)), vk_(groth16::parse_vk_json<Bls>(json)) {}

std::string FilecoinVerifyingKey::verify(std::span<const std::uint8_t> proof,
                                         std::span<const filecoin::Fr> inputs) const {
  if (vk_.num_public() != inputs.size())
    return "cannot be checked: the verifying key of " + circuit_id_ + " has " + std::to_string(vk_.num_public()) +
           " public inputs; the ones derived here are " + std::to_string(inputs.size());
  try {
    if (!groth16::verify(vk_, groth16::read_bellperson_proof(proof), inputs))
      return "does not verify against the public inputs derived here";
  } catch (const DecodeError& e) {
    return std::string("does not decode: ") + e.what();
  }
  return {};
}

std::string FilecoinExpectation::precheck(const ::cuzk::v1::ProofResult& r) const {
  if (!underivable.empty()) return "cannot derive the public inputs here: " + underivable;
  if (r.circuit_id() != circuit_id) return "proved by circuit " + r.circuit_id() + ", expected " + circuit_id;
  return {};
}

bool public_json_lists(const nlohmann::json& doc, std::span<const filecoin::Fr> inputs) {
  const std::vector<filecoin::Fr> listed = groth16::public_from_json<filecoin::Fr>(doc);
  return std::equal(listed.begin(), listed.end(), inputs.begin(), inputs.end());
}

}  // namespace cuzk::bench
