// cuzk post verify --proof P --randomness R [--partition K] --sector ID:COMM_R [--sector ...]
//                  --proof-file proof.bin [--vk FILE | --params-dir DIR]
// What a chain verifier has: the registered proof, the randomness, the partition and its sectors
// (ids and comm_r). The challenges and public inputs are derived here, from these alone; the
// 192-byte proof is checked with the .vk. Exit 0 valid, 1 invalid, 2 bad input.
//
// WindowPoSt: the --sector list is the partition's sectors in order (sector i of partition K is
// sector K·sector_count + i of the deadline's list, which decides its challenges); WinningPoSt:
// exactly one sector, partition 0.
#include <cstdio>
#include <iostream>
#include <vector>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_keys.hpp"
#include "cuzk/filecoin/post_public_inputs.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "files.hpp"
#include "key_cli.hpp"
#include "post_parse.hpp"

namespace cuzk::cli {

namespace fc = filecoin;

int run_post_verify(const PostVerifyArgs& a) {
  const fc::PoStProofInfo& info = fc::post_proof_info(parse_post_proof(a.proof));
  const fc::Bytes32 randomness = parse_randomness(a.randomness, a.chain_randomness);
  std::vector<fc::PublicSector> sectors;
  for (const std::string& s : a.sectors) sectors.push_back(parse_sector(s));
  if (sectors.empty()) throw DecodeError("no --sector given");
  if (info.type == fc::PoStType::Winning && (sectors.size() != 1 || a.partition != 0))
    throw DecodeError(std::string(info.name) + ": a WinningPoSt proves exactly one sector (partition 0); got " +
                      std::to_string(sectors.size()) + " sectors, partition " + std::to_string(a.partition));
  if (info.type == fc::PoStType::Window && sectors.size() > info.sector_count)
    throw DecodeError(std::string(info.name) + ": a partition holds at most " + std::to_string(info.sector_count) +
                      " sectors; got " + std::to_string(sectors.size()));
  const std::vector<fc::Fr> inputs =
      info.type == fc::PoStType::Window
          ? fc::partition_public_inputs(fc::fallback_post_params(info), randomness, sectors, a.partition)
          : fc::post_public_inputs(info, randomness, sectors, 0);

  const std::string proof_bytes = read_text_file(a.proof_file);
  if (proof_bytes.size() != groth16::kBellpersonProofSize)
    throw DecodeError(a.proof_file + ": " + std::to_string(proof_bytes.size()) + " bytes; a Groth16 proof is " +
                      std::to_string(groth16::kBellpersonProofSize));
  const CliVk vk = read_cli_vk(a.vk, fc::post_key_paths(a.params_dir, info), info.name, fc::kPostSetupCommand);
  if (vk.test) std::fprintf(stderr, "WARNING: %s is a cuzk TEST key, not Filecoin's official one\n", vk.path.c_str());
  if (vk.vk.num_public() != inputs.size())
    throw DecodeError(vk.path + " has " + std::to_string(vk.vk.num_public()) + " public inputs; a " +
                      std::string(info.name) + " proof has " + std::to_string(inputs.size()) +
                      " (the key is another circuit's)");

  // 192 bytes whose points do not decode (off the curve, outside the subgroup, bad flags) are
  // not a valid proof: INVALID, as a chain verifier rejects them, not bad input.
  bool ok = false;
  std::string why;
  try {
    const groth16::Proof<fc::Bls12> proof = groth16::read_bellperson_proof(as_bytes(proof_bytes));
    ok = groth16::verify(vk.vk, proof, std::span<const fc::Fr>(inputs));
  } catch (const DecodeError& e) {
    why = std::string(" (") + e.what() + ")";
  }
  std::cout << (ok ? "OK" : "INVALID") << ": " << a.proof_file << why << "\n";
  return ok ? 0 : 1;
}

}  // namespace cuzk::cli
