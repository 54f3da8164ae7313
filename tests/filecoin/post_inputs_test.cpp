// What a PoSt SNARK is about: the public inputs of a partition (the real 32 GiB proof's comm_r and
// the leaves its paths prove, then the last sector repeated), the V1 / V1_2 challenge index rules,
// the WinningPoSt layout (66 slots of one challenge), partition counts and slots, WinningPoSt
// sector selection, the prover id of a miner, randomness handling and sealed CIDs.
#include <gtest/gtest.h>

#include <openssl/sha.h>

#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/post_public_inputs.hpp"
#include "cuzk/filecoin/sealed_cid.hpp"
#include "cuzk/filecoin/vanilla.hpp"
#include "cuzk/filecoin/vanilla_check.hpp"
#include "post_test_data.hpp"
#include "support/decode_error.hpp"

namespace cuzk::filecoin {
namespace {
using cuzk::test::decode_error_of;

using test::window_post_32gib;

TEST(PostPublicInputs, RealWindowPoStPartition) {
  const auto& d = window_post_32gib();
  const FallbackPoStSectorProof p = decode_vanilla_proof(d.vproof, RegisteredPoStProof::StackedDrgWindow32GiBV1);
  const PublicSector sector{d.sector, Fr::from_bytes_le(comm_r_from_sealed_cid(d.sealed_cid))};
  for (auto id : {RegisteredPoStProof::StackedDrgWindow32GiBV1, RegisteredPoStProof::StackedDrgWindow32GiBV1_2}) {
    const std::vector<Fr> in = post_public_inputs(post_proof_info(id), d.randomness, std::span(&sector, 1), 0);
    ASSERT_EQ(in.size(), 2349u * 11);
    // comm_r, then the leaf each path proves, for every slot (the one sector repeated).
    for (std::size_t slot = 0; slot < 2349; ++slot) {
      ASSERT_EQ(in[slot * 11], p.comm_r) << "slot " << slot;
      for (std::size_t n = 0; n < 10; ++n)
        ASSERT_EQ(in[slot * 11 + 1 + n], Fr::from_u64(inclusion_leaf_index(p.sector().inclusion_proofs[n])))
            << "slot " << slot << " challenge " << n;
    }
  }
  // A partition with no sectors, or too many.
  EXPECT_THROW(post_public_inputs(post_proof_info(RegisteredPoStProof::StackedDrgWindow32GiBV1), d.randomness,
                                  std::span(&sector, 1), 1),
               std::invalid_argument);
  const std::vector<PublicSector> too_many(2350, sector);
  EXPECT_THROW(
      partition_public_inputs(fallback_post_params(post_proof_info(RegisteredPoStProof::StackedDrgWindow32GiBV1)),
                              d.randomness, too_many, 0),
      std::invalid_argument);
}

// The second sector of a list: V1 challenges it with indices 10..19, V1_2 with 0..9; in partition
// 1 of a 2 KiB WindowPoSt (2 sectors each), the first sector is sector index 2.
TEST(PostPublicInputs, ChallengeIndexRulesPerApiVersion) {
  const Bytes32 r{7, 1, 2, 3};
  const std::vector<PublicSector> sectors = {{11, Fr::from_u64(5)}, {12, Fr::from_u64(6)}, {13, Fr::from_u64(7)}};
  const auto& v1 = post_proof_info(RegisteredPoStProof::StackedDrgWindow2KiBV1);
  const auto& v12 = post_proof_info(RegisteredPoStProof::StackedDrgWindow2KiBV1_2);
  EXPECT_EQ(num_partitions(v1, sectors.size()), 2u);
  const std::vector<Fr> a = post_public_inputs(v1, r, sectors, 0), b = post_public_inputs(v12, r, sectors, 0);
  ASSERT_EQ(a.size(), 22u);
  for (std::size_t n = 0; n < 10; ++n) {
    EXPECT_EQ(a[12 + n], Fr::from_u64(leaf_challenge(r, 12, 10 + n, 64)));
    EXPECT_EQ(b[12 + n], Fr::from_u64(leaf_challenge(r, 12, n, 64)));
    EXPECT_EQ(challenge_index(ApiVersion::V1_1_0, 1, 10, n), 10 + n);
  }
  const std::vector<Fr> c = post_public_inputs(v1, r, sectors, 1);
  ASSERT_EQ(c.size(), 22u);  // one sector, repeated
  EXPECT_EQ(c[0], Fr::from_u64(7));
  for (std::size_t n = 0; n < 10; ++n) EXPECT_EQ(c[1 + n], Fr::from_u64(leaf_challenge(r, 13, 20 + n, 64)));
  for (std::size_t j = 0; j < 11; ++j) EXPECT_EQ(c[11 + j], c[j]);
  // The same as the whole-list form, and as a prover holding only partition 1's sector computes it.
  EXPECT_EQ(partition_public_inputs(fallback_post_params(v1), r, std::span(sectors).subspan(2), 1), c);
  // fallback_sector_challenges (what the vanilla proofs are generated for) agrees.
  const std::vector<std::uint64_t> ids = {11, 12, 13};
  const auto ch = fallback_sector_challenges(v1, r, ids);
  ASSERT_EQ(ch.size(), 3u);
  for (std::size_t n = 0; n < 10; ++n) EXPECT_EQ(c[1 + n], Fr::from_u64(ch[2][n]));
}

TEST(PostPublicInputs, WinningPoStSlotsAreTheOneSectorsChallenges) {
  const Bytes32 r{1, 2, 3};
  const auto& win = post_proof_info(RegisteredPoStProof::StackedDrgWinning2KiBV1);
  const PublicSector s{42, Fr::from_u64(99)};
  const std::vector<Fr> in = post_public_inputs(win, r, std::span(&s, 1), 0);
  ASSERT_EQ(in.size(), 66u * 2);
  const std::vector<std::uint64_t> leaves = sector_leaf_challenges(win, r, 42, 0);
  ASSERT_EQ(leaves.size(), 66u);
  for (std::size_t k = 0; k < 66; ++k) {
    EXPECT_EQ(in[2 * k], Fr::from_u64(99));
    EXPECT_EQ(in[2 * k + 1], Fr::from_u64(leaves[k])) << "slot " << k;
  }
  const auto slots = partition_slots(win, 1);
  ASSERT_EQ(slots.size(), 66u);
  for (std::size_t k = 0; k < 66; ++k) EXPECT_EQ(slots[k], (PartitionSlot{0, k, 1}));
  const std::vector<PublicSector> two(2, s);
  EXPECT_THROW(post_public_inputs(win, r, two, 0), std::invalid_argument);
  EXPECT_THROW(partition_slots(win, 2), std::invalid_argument);
}

TEST(PostPartitions, CountsAndSlots) {
  const auto& w32 = post_proof_info(RegisteredPoStProof::StackedDrgWindow32GiBV1);
  EXPECT_EQ(num_partitions(w32, 0), 1u);
  EXPECT_EQ(num_partitions(w32, 2349), 1u);
  EXPECT_EQ(num_partitions(w32, 2350), 2u);
  EXPECT_EQ(num_partitions(w32, 3 * 2349), 3u);
  EXPECT_EQ(num_partitions(post_proof_info(RegisteredPoStProof::StackedDrgWinning32GiBV1), 5), 1u);
  const auto slots = partition_slots(w32, 3);
  ASSERT_EQ(slots.size(), 2349u);
  EXPECT_EQ(slots[0], (PartitionSlot{0, 0, 10}));
  EXPECT_EQ(slots[2], (PartitionSlot{2, 0, 10}));
  EXPECT_EQ(slots[2348], (PartitionSlot{2, 0, 10}));
  EXPECT_THROW(partition_slots(w32, 2350), std::invalid_argument);
}

// generate_sector_challenge hashes prover_id ‖ randomness ‖ u64_le(n); checked here with an
// independent SHA-256 of the concatenation.
TEST(PostChallenges, WinningSectorSelection) {
  const auto& win = post_proof_info(RegisteredPoStProof::StackedDrgWinning32GiBV1);
  const Bytes32 r{9, 8, 7};
  const Bytes32 prover = prover_id_from_actor_id(1000);
  std::uint8_t msg[72] = {};
  std::copy(prover.begin(), prover.end(), msg);
  std::copy(r.begin(), r.end(), msg + 32);
  std::uint8_t dg[32];
  SHA256(msg, sizeof msg, dg);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | dg[i];
  const auto got = winning_post_sector_challenge(win, r, 1234, prover);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], v % 1234);
  EXPECT_THROW(winning_post_sector_challenge(win, r, 0, prover), std::invalid_argument);
  EXPECT_THROW(
      winning_post_sector_challenge(post_proof_info(RegisteredPoStProof::StackedDrgWindow32GiBV1), r, 5, prover),
      std::invalid_argument);
}

TEST(PostChallenges, ProverIdAndRandomness) {
  // ID address payload: uvarint(1000) = e8 07.
  const Bytes32 p = prover_id_from_actor_id(1000);
  EXPECT_EQ(p[0], 0xe8);
  EXPECT_EQ(p[1], 0x07);
  for (std::size_t i = 2; i < 32; ++i) EXPECT_EQ(p[i], 0);
  EXPECT_EQ(prover_id_from_actor_id(0)[0], 0);
  Bytes32 ones;
  ones.fill(0xff);
  const auto& w = post_proof_info(RegisteredPoStProof::StackedDrgWindow2KiBV1);
  try {
    sector_leaf_challenges(w, ones, 1, 0);
    ADD_FAILURE() << "non-canonical randomness accepted";
  } catch (const DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("randomness is not a canonical field element"), std::string::npos);
  }
  const Bytes32 seed = chain_randomness_to_seed(ones);
  EXPECT_EQ(seed[31], 0x3f);
  EXPECT_NO_THROW(sector_leaf_challenges(w, seed, 1, 0));
}

TEST(SealedCid, DecodesEncodesAndRefuses) {
  const auto& d = window_post_32gib();
  const Bytes32 comm_r = comm_r_from_sealed_cid(d.sealed_cid);
  EXPECT_EQ(sealed_cid_from_comm_r(comm_r), d.sealed_cid);
  // The digest is the comm_r the vanilla proof carries at byte 8.
  EXPECT_TRUE(std::equal(comm_r.begin(), comm_r.end(), d.vproof.begin() + 8));
  auto message = [](std::string_view cid) { return decode_error_of([&] { comm_r_from_sealed_cid(cid); }); };
  EXPECT_NE(message("z" + d.sealed_cid.substr(1)).find("multibase"), std::string::npos);
  EXPECT_NE(message(d.sealed_cid.substr(0, 57)).find("digest of 27 bytes"), std::string::npos);
  EXPECT_NE(message(d.sealed_cid + "a").find("does not end on a byte"), std::string::npos);
  EXPECT_NE(message(d.sealed_cid.substr(0, 10) + "1" + d.sealed_cid.substr(11)).find("not base32"), std::string::npos);
  const std::string unsealed = unsealed_cid_from_comm_d(comm_r);
  EXPECT_NE(message(unsealed).find("codec 0xf101, expected 0xf102"), std::string::npos);
  EXPECT_EQ(comm_d_from_unsealed_cid(unsealed), comm_r);
  EXPECT_EQ(comm_r_from_sealed_cid("B" + std::string(d.sealed_cid.begin() + 1, d.sealed_cid.end())), comm_r);
}

}  // namespace
}  // namespace cuzk::filecoin
