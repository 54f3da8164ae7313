// cuzk post gen-vanilla --proof P --randomness R [--partition K] --sector-ids 1,2 --out-dir DIR [--seed N]
// SYNTHETIC vanilla proofs (post_vanilla_gen.hpp: sparse trees, no sealed sector) for tests and
// load tests: <DIR>/<sector>.vproof per sector, in filecoin-proofs-api's bincode, and
// <DIR>/sectors.txt with one ID:COMM_R line per sector (comm_r as 64 hex digits), in order, for
// `cuzk post verify --sector`. They are consistent with this randomness and partition only.
#include <cstdio>
#include <filesystem>
#include <string>

#include "commands.hpp"
#include "cuzk/filecoin/post_vanilla_gen.hpp"
#include "cuzk/filecoin/sealed_cid.hpp"
#include "files.hpp"
#include "post_parse.hpp"

namespace cuzk::cli {

int run_post_gen_vanilla(const PostGenVanillaArgs& a) {
  namespace fc = filecoin;
  const fc::RegisteredPoStProof proof = parse_post_proof(a.proof);
  const fc::Bytes32 randomness = parse_randomness(a.randomness, a.chain_randomness);
  const std::vector<std::uint64_t> ids = parse_sector_ids(a.sector_ids);
  const std::vector<fc::SyntheticSector> sectors =
      fc::generate_post_vanilla_proofs(proof, randomness, ids, a.partition, a.seed);
  const std::filesystem::path dir(a.out_dir);
  std::filesystem::create_directories(dir);
  std::string list;
  for (const fc::SyntheticSector& s : sectors) {
    const fc::Bytes32 comm_r = fc::fr_to_bytes(s.comm_r);
    const std::string file = (dir / (std::to_string(s.sector_id) + ".vproof")).string();
    const auto* data = reinterpret_cast<const char*>(s.vanilla_proof.data());
    write_text_file(file, std::string_view(data, s.vanilla_proof.size()));
    list += std::to_string(s.sector_id) + ":" + to_hex(comm_r) + "\n";
    std::printf("%s sector %llu comm_r %s %s\n", file.c_str(), static_cast<unsigned long long>(s.sector_id),
                to_hex(comm_r).c_str(), fc::sealed_cid_from_comm_r(comm_r).c_str());
  }
  write_text_file((dir / "sectors.txt").string(), list);
  std::fprintf(stderr,
               "%zu SYNTHETIC vanilla proof(s) of %s partition %zu in %s (test data, not from sealed sectors)\n",
               sectors.size(), std::string(fc::post_proof_info(proof).name).c_str(), a.partition, a.out_dir.c_str());
  return 0;
}

}  // namespace cuzk::cli
