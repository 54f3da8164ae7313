// A real 32 GiB WindowPoSt (Curio's golden vanilla proof: one sector, ten challenges) through the
// whole preparation: decoded, checked, its challenges and public inputs derived from the public
// data alone, and the 125M-constraint partition circuit (the sector repeated into all 2349 slots,
// as filecoin-proofs pads a partition) satisfied slot by slot, exposing exactly those inputs.
// A changed byte, a wrong sector id, or a wrong value in one slot is refused or named.
#include <gtest/gtest.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_check.hpp"
#include "cuzk/filecoin/post_partition.hpp"
#include "cuzk/filecoin/sealed_cid.hpp"
#include "filecoin/post_test_data.hpp"

namespace cuzk::filecoin {
namespace {

PostPartitionInputs real_inputs(RegisteredPoStProof proof) {
  const auto& d = test::window_post_32gib();
  PostPartitionInputs in;
  in.proof = proof;
  in.randomness = d.randomness;
  in.vanilla_proofs = {std::span<const std::uint8_t>(d.vproof)};
  in.sector_ids = std::vector<std::uint64_t>{d.sector};
  return in;
}

TEST(FilecoinPostRealData, WindowPost32GiBPartitionIsSatisfiedWithTheDerivedInputs) {
  const auto& d = test::window_post_32gib();
  ASSERT_EQ(post_proof_from_id_or_throw(d.post_proof), RegisteredPoStProof::StackedDrgWindow32GiBV1);
  const PostPartition part = prepare_post_partition(real_inputs(RegisteredPoStProof::StackedDrgWindow32GiBV1));
  ASSERT_EQ(part.sectors.size(), 1u);
  EXPECT_EQ(fr_to_bytes(part.sectors[0].comm_r), comm_r_from_sealed_cid(d.sealed_cid));
  ASSERT_EQ(part.public_inputs.size(), 2349u * 11u);
  // Every slot of the 125M-constraint partition (the sector repeated), in check mode.
  const PostCheckReport report = check_post_partition(part.circuit);
  EXPECT_EQ(report.constraints, 125'279'217u);
  EXPECT_FALSE(report.first_failure.has_value())
      << "slot " << report.first_failure->slot << ": " << report.first_failure->name;
  EXPECT_EQ(report.public_inputs, part.public_inputs);
  // V1_2 derives the same challenges for the first sector of partition 0: the same inputs.
  const PostPartition v12 = prepare_post_partition(real_inputs(RegisteredPoStProof::StackedDrgWindow32GiBV1_2));
  EXPECT_EQ(v12.public_inputs, part.public_inputs);
  const PostCheckReport first = check_post_partition(v12.circuit, 0, 3);
  EXPECT_FALSE(first.first_failure.has_value());
}

TEST(FilecoinPostRealData, AWrongValueInOneSlotIsNamed) {
  const PostPartition part = prepare_post_partition(real_inputs(RegisteredPoStProof::StackedDrgWindow32GiBV1));
  std::vector<PostSectorValues> slots = part.circuit.sectors();
  slots[1234].paths[7][3].siblings[2] += Fr::one();
  const PostCheckReport report =
      check_post_partition(FallbackPostCircuit(part.circuit.shape(), std::move(slots)), 1230, 10);
  ASSERT_TRUE(report.first_failure.has_value());
  EXPECT_EQ(report.first_failure->slot, 1234u);
  EXPECT_NE(report.first_failure->name.find("challenge_inclusion_7"), std::string::npos) << report.first_failure->name;
}

TEST(FilecoinPostRealData, InconsistentRequestsAreRefusedBeforeProving) {
  auto wrong_id = real_inputs(RegisteredPoStProof::StackedDrgWindow32GiBV1);
  wrong_id.sector_ids = std::vector<std::uint64_t>{2};
  EXPECT_THROW(prepare_post_partition(wrong_id), DecodeError);

  std::vector<std::uint8_t> bytes = test::window_post_32gib().vproof;
  bytes[5000] ^= 0x01;  // inside a path element
  auto changed = real_inputs(RegisteredPoStProof::StackedDrgWindow32GiBV1);
  changed.vanilla_proofs = {std::span<const std::uint8_t>(bytes)};
  EXPECT_THROW(prepare_post_partition(changed), DecodeError);

  auto other_seed = real_inputs(RegisteredPoStProof::StackedDrgWindow32GiBV1);
  other_seed.randomness[0] = 1;  // other challenges: the paths prove the wrong leaves
  EXPECT_THROW(prepare_post_partition(other_seed), DecodeError);

  auto winning = real_inputs(RegisteredPoStProof::StackedDrgWinning32GiBV1);  // 10 inclusion proofs, not 66
  EXPECT_THROW(prepare_post_partition(winning), DecodeError);
}

}  // namespace
}  // namespace cuzk::filecoin
