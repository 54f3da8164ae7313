// SnapDeals key names and request inputs (snap_keys.hpp, snap_request.hpp, snap_params.hpp): every
// registered update proof's .params and .vk are named as in rust-fil-proofs' parameters.json with
// its sector size, the circuit names the daemon serves, and the public inputs a verifier derives
// from the commitments (circuit.rs PublicInputs: k | h_select << partition bits, with filecoin-proofs'
// production h).
#include "cuzk/filecoin/snap_keys.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/snap_request.hpp"
#include "post_test_data.hpp"
#include "support/decode_error.hpp"

namespace cuzk::filecoin {
namespace {
using cuzk::test::decode_error_of;

TEST(SnapKeys, OfficialNamesForEveryUpdateProof) {
  const nlohmann::json listed = test::load_json("parameters.json");
  std::set<std::string> names;
  for (const UpdateProofInfo& info : all_update_proofs()) {
    const KeyPaths paths = snap_key_paths("/params", info);
    EXPECT_EQ(paths.params.parent_path(), std::filesystem::path("/params"));
    for (const std::filesystem::path& f : {paths.params, paths.vk}) {
      const std::string name = f.filename().string();
      ASSERT_TRUE(listed.contains(name)) << info.name << ": " << name;
      EXPECT_EQ(listed[name].at("sector_size").get<std::uint64_t>(), info.sector_size) << name;
      EXPECT_TRUE(name.starts_with("v28-empty-sector-update-merkletree-poseidon_hasher-")) << name;
      names.insert(name);
    }
    EXPECT_EQ(paths.test_marker.string(), paths.params.string() + ".cuzk-test");
  }
  EXPECT_EQ(names.size(), 10u);  // five sizes, two files each, none shared
  EXPECT_EQ(snap_key_paths("/p", update_proof_info(RegisteredUpdateProof::StackedDrg32GiBV1)).params.filename(),
            "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
            "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params");
}

TEST(SnapKeys, CircuitNames) {
  std::vector<std::string> got;
  for (const UpdateProofInfo& info : all_update_proofs()) got.push_back(snap_circuit_name(info));
  EXPECT_EQ(got, (std::vector<std::string>{"snap-2kib", "snap-8mib", "snap-512mib", "snap-32gib", "snap-64gib"}));
  EXPECT_EQ(all_update_proofs().size(), kNumRegisteredUpdateProofs);
  for (std::size_t i = 0; i < all_update_proofs().size(); ++i)
    EXPECT_EQ(static_cast<std::size_t>(all_update_proofs()[i].id), i);
}

Bytes32 bytes_of(std::uint64_t v) {
  Bytes32 b{};
  for (int i = 0; i < 8; ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * i));
  return b;
}

TEST(SnapRequest, VerifierInputsFromTheCommitments) {
  const Bytes32 old_r = bytes_of(11), new_r = bytes_of(22), new_d = bytes_of(33);
  // 32 GiB: 16 partitions, h = 10 = hs[3], so h_select = 8 above 4 partition bits.
  const auto inputs = snap_verifier_inputs(RegisteredUpdateProof::StackedDrg32GiBV1, old_r, new_r, new_d);
  ASSERT_EQ(inputs.size(), 16u);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    ASSERT_EQ(inputs[k].size(), 4u);
    EXPECT_EQ(inputs[k][0], Fr::from_u64(k | 8u << 4)) << k;
    EXPECT_EQ(inputs[k][1], Fr::from_u64(11));  // comm_r_old, comm_d_new, comm_r_new: the verifier's order
    EXPECT_EQ(inputs[k][2], Fr::from_u64(33));
    EXPECT_EQ(inputs[k][3], Fr::from_u64(22));
  }
  // 2 KiB: one partition; hs are all 1, and h_select is the first index holding h (constants.rs
  // h_select: position), so 2^0, above no partition bits.
  const auto small = snap_verifier_inputs(RegisteredUpdateProof::StackedDrg2KiBV1, old_r, new_r, new_d);
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(small[0][0], Fr::from_u64(1));
  const auto& info = update_proof_info(RegisteredUpdateProof::StackedDrg512MiBV1);
  const SnapPublic pub = snap_public_from_bytes(info, old_r, new_r, new_d);
  EXPECT_EQ(pub.h, 10u);
  EXPECT_EQ(snap_partition_inputs(info, pub, 15), snap_verifier_inputs(info, pub)[15]);
  EXPECT_THROW(snap_partition_inputs(info, pub, 16), std::invalid_argument);
}

TEST(SnapRequest, NonCanonicalCommitmentsAreNamed) {
  Bytes32 bad{};
  bad.fill(0xff);
  const auto& info = update_proof_info(RegisteredUpdateProof::StackedDrg2KiBV1);
  const Bytes32 ok = bytes_of(1);
  auto message = [&](const Bytes32& a, const Bytes32& b, const Bytes32& c) {
    return decode_error_of([&] { snap_public_from_bytes(info, a, b, c, "snap."); });
  };
  EXPECT_NE(message(bad, ok, ok).find("snap.comm_r_old is not a canonical field element"), std::string::npos);
  EXPECT_NE(message(ok, bad, ok).find("snap.comm_r_new is not a canonical"), std::string::npos);
  EXPECT_NE(message(ok, ok, bad).find("snap.comm_d_new is not a canonical"), std::string::npos);
  EXPECT_EQ(message(ok, ok, ok), "");
}

}  // namespace
}  // namespace cuzk::filecoin
