#include "partition_verify.hpp"

#include <nlohmann/json.hpp>

#include "cuzk/groth16/bellperson_io.hpp"

namespace cuzk::bench {

namespace {

// "" when public_json is an array of one document per partition listing its inputs; else why not.
std::string public_json_disagrees(const std::string& text, const std::vector<std::vector<filecoin::Fr>>& inputs) {
  try {
    const nlohmann::json doc = nlohmann::json::parse(text);
    if (!doc.is_array() || doc.size() != inputs.size())
      return "is not an array of " + std::to_string(inputs.size()) + " public.json documents";
    for (std::size_t k = 0; k < inputs.size(); ++k)
      if (!public_json_lists(doc[k], inputs[k]))
        return "lists other inputs for partition " + std::to_string(k) + " than the ones derived here";
  } catch (const std::exception& e) {
    return std::string("does not parse: ") + e.what();
  }
  return {};
}

}  // namespace

std::string PartitionExpectation::check(const FilecoinVerifyingKey& key, const ::cuzk::v1::ProofResult& r) const {
  if (std::string why = precheck(r); !why.empty()) return why;
  constexpr std::size_t kSize = groth16::kBellpersonProofSize;
  const std::size_t n = partition_inputs.size();
  const std::string& bytes = r.proof_bytes();
  if (bytes.size() != n * kSize)
    return "proof_bytes holds " + std::to_string(bytes.size()) + " bytes, not " + std::to_string(n) +
           " partition proof(s) x " + std::to_string(kSize) + " = " + std::to_string(n * kSize);
  // Every partition is checked, so that the message names all the bad ones.
  std::string bad;
  for (std::size_t k = 0; k < n; ++k)
    if (std::string why = key.verify(bytes_of(bytes).subspan(k * kSize, kSize), partition_inputs[k]); !why.empty())
      bad += (bad.empty() ? "" : "; ") + ("partition " + std::to_string(k) + "'s proof " + why);
  if (!bad.empty()) return bad;
  if (std::string why = public_json_disagrees(r.public_json(), partition_inputs); !why.empty())
    return "the proofs verify, but the daemon's public_json " + why;
  return {};
}

}  // namespace cuzk::bench
