// Parameter file names against rust-fil-proofs' parameters.json (the published v28 files): every
// registered PoSt proof's .params and .vk are listed with its sector size, and every PoSt entry
// listed is some registered proof's; the same for PoRep (all 20 seal proofs) and SnapDeals.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cuzk/filecoin/parameter_names.hpp"
#include "post_test_data.hpp"

namespace cuzk::filecoin {
namespace {

const nlohmann::json& parameters() {
  static const nlohmann::json j = test::load_json("parameters.json");
  return j;
}

// Checks both files of `id` are listed with `sector_size`; adds them to `seen`.
void expect_listed(const std::string& id, std::uint64_t sector_size, std::set<std::string>& seen) {
  for (const std::string& f : {params_file_name(id), vk_file_name(id)}) {
    ASSERT_TRUE(parameters().contains(f)) << f;
    EXPECT_EQ(parameters()[f].at("sector_size").get<std::uint64_t>(), sector_size) << f;
    seen.insert(f);
  }
}

std::set<std::string> listed_with_prefix(const std::string& prefix) {
  std::set<std::string> out;
  for (const auto& [name, v] : parameters().items())
    if (name.rfind(prefix, 0) == 0) out.insert(name);
  return out;
}

TEST(ParameterNames, PoStNamesAreTheOfficialOnes) {
  std::set<std::string> seen;
  for (const PoStProofInfo& p : all_post_proofs()) expect_listed(post_cache_identifier(p), p.sector_size, seen);
  EXPECT_EQ(seen, listed_with_prefix("v28-proof-of-spacetime-fallback-"));
  EXPECT_EQ(seen.size(), 20u);  // 10 circuits: V1 and V1_2 WindowPoSt share theirs
  const auto& w32 = post_proof_info(RegisteredPoStProof::StackedDrgWindow32GiBV1);
  EXPECT_EQ(post_parameter_set_identifier(w32),
            "FallbackPoSt::PublicParams{sector_size: 34359738368, challenge_count: 10, sector_count: 2349}");
  EXPECT_EQ(params_file_name(post_cache_identifier(w32)),
            "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
            "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params");
}

TEST(ParameterNames, PoRepAndUpdateNamesAreTheOfficialOnes) {
  std::set<std::string> seen;
  for (const SealProofInfo& s : all_seal_proofs()) expect_listed(porep_cache_identifier(s), s.sector_size, seen);
  EXPECT_EQ(seen, listed_with_prefix("v28-stacked-proof-of-replication-"));
  seen.clear();
  for (std::uint64_t size : {kSectorSize2KiB, kSectorSize8MiB, kSectorSize512MiB, kSectorSize32GiB, kSectorSize64GiB})
    expect_listed(update_cache_identifier(size), size, seen);
  for (std::uint64_t size : {kSectorSize32GiB, kSectorSize64GiB})
    expect_listed(update_cache_identifier(size, true), size, seen);
  EXPECT_EQ(seen, listed_with_prefix("v28-empty-sector-update-"));
}

TEST(ParameterNames, CacheDirectory) {
  EXPECT_EQ(parameter_cache_dir(static_cast<const char*>(nullptr)),
            std::filesystem::path("/var/tmp/filecoin-proof-parameters/"));
  EXPECT_EQ(parameter_cache_dir(std::optional<std::string>()), std::filesystem::path(kDefaultParameterCacheDir));
  EXPECT_EQ(parameter_cache_dir("/data/params"), std::filesystem::path("/data/params"));
  EXPECT_EQ(parameter_cache_dir(std::optional<std::string>("/x")) / vk_file_name("id"),
            std::filesystem::path("/x/v28-id.vk"));
}

}  // namespace
}  // namespace cuzk::filecoin
