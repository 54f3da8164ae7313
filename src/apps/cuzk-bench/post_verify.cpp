#include "post_verify.hpp"

#include <nlohmann/json.hpp>

#include "cuzk/groth16/bellperson_io.hpp"

namespace cuzk::bench {

std::string PostExpectation::check(const FilecoinVerifyingKey& key, const ::cuzk::v1::ProofResult& r) const {
  if (std::string why = precheck(r); !why.empty()) return why;
  const std::string& bytes = r.proof_bytes();
  if (bytes.size() != groth16::kBellpersonProofSize)
    return "proof_bytes holds " + std::to_string(bytes.size()) + " bytes, not a " +
           std::to_string(groth16::kBellpersonProofSize) + "-byte proof";
  if (std::string why = key.verify(bytes_of(bytes), public_inputs); !why.empty())
    return "the 192-byte proof " + why + " (from the randomness and the sectors)";
  // The proof is good; the daemon's account of its inputs must be too.
  try {
    if (!public_json_lists(nlohmann::json::parse(r.public_json()), public_inputs))
      return "the proof verifies, but the daemon's public_json lists other inputs than the ones derived here";
  } catch (const std::exception& ex) {
    return std::string("the proof verifies, but the daemon's public_json does not parse: ") + ex.what();
  }
  return {};
}

}  // namespace cuzk::bench
