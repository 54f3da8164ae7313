// cuzk snap gen-vanilla --proof P --out-dir DIR [--seed N]
// A SYNTHETIC sector update (snap_vanilla_gen.hpp: an old replica and new data, pseudo-random in
// the seed, the new replica encoded from them) and its vanilla partition proofs, as
// filecoin-proofs-api serializes them: <DIR>/partition-<k>.vproof per partition, and
// <DIR>/commitments.txt with the lines "comm_r_old HEX", "comm_r_new HEX", "comm_d_new HEX" (64 hex
// digits each) for `cuzk snap prove` and `verify`. Up to 8 MiB every node carries data; above, the
// trees are sparse (4,096 random nodes, the rest zero), so a 32 GiB update takes seconds.
#include <cstdio>
#include <filesystem>
#include <string>

#include "commands.hpp"
#include "cuzk/filecoin/sealed_cid.hpp"
#include "cuzk/filecoin/snap_vanilla_gen.hpp"
#include "files.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"

namespace cuzk::cli {

int run_snap_gen_vanilla(const SnapGenVanillaArgs& a) {
  namespace fc = filecoin;
  const fc::UpdateProofInfo& info = fc::update_proof_info(parse_update_proof(a.proof));
  const fc::SnapParams params = fc::snap_params(info.id);
  constexpr std::uint64_t kDenseUpTo = std::uint64_t{1} << 18;  // 8 MiB of 32-byte nodes
  const std::uint64_t random_leaves = params.sector_nodes <= kDenseUpTo ? params.sector_nodes : 4096;
  const fc::SnapTestUpdate u = fc::make_snap_test_update(params, fc::snap_h_default(info.nodes), a.seed, random_leaves);

  const std::filesystem::path dir(a.out_dir);
  std::filesystem::create_directories(dir);
  for (std::size_t k = 0; k < params.partition_count; ++k) {
    const std::vector<std::uint8_t> bytes = fc::encode_snap_partition_proof(fc::make_snap_partition_proof(u, k));
    const std::string file = (dir / ("partition-" + std::to_string(k) + ".vproof")).string();
    write_text_file(file, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    std::printf("%s partition %zu, %zu bytes\n", file.c_str(), k, bytes.size());
  }
  const fc::Bytes32 old_r = fc::fr_to_bytes(u.pub.comm_r_old), new_r = fc::fr_to_bytes(u.pub.comm_r_new),
                    new_d = fc::fr_to_bytes(u.pub.comm_d_new);
  const std::string list =
      "comm_r_old " + to_hex(old_r) + "\ncomm_r_new " + to_hex(new_r) + "\ncomm_d_new " + to_hex(new_d) + "\n";
  write_text_file((dir / "commitments.txt").string(), list);
  std::printf("%scomm_r_old %s\ncomm_r_new %s\ncomm_d_new %s\n", list.c_str(),
              fc::sealed_cid_from_comm_r(old_r).c_str(), fc::sealed_cid_from_comm_r(new_r).c_str(),
              fc::unsealed_cid_from_comm_d(new_d).c_str());
  std::fprintf(stderr,
               "%zu SYNTHETIC vanilla partition proof(s) of a %s sector update (h = %u%s) in %s (test data, not from a "
               "real sector)\n",
               params.partition_count, std::string(info.name).c_str(), u.pub.h,
               random_leaves < params.sector_nodes ? ", sparse trees" : "", a.out_dir.c_str());
  return 0;
}

}  // namespace cuzk::cli
