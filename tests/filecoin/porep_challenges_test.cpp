// PoRep challenges and the replica id: the synthetic challenges against the hard-coded answers
// of challenges.rs test_synth_challenges_against_hardcoded, interactive and non-interactive
// challenges against a reference built from OpenSSL (SHA-256 and BIGNUM's mod), the partition
// properties the Rust tests assert, and the per-partition counts of filecoin-proofs.
#include "cuzk/filecoin/porep_challenges.hpp"

#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cuzk/filecoin/porep_id.hpp"

namespace cuzk::filecoin {
namespace {

Bytes32 fill(std::uint8_t b) {
  Bytes32 x;
  x.fill(b);
  return x;
}

Bytes32 random_bytes(std::mt19937_64& rng) {
  Bytes32 x;
  for (auto& b : x) b = static_cast<std::uint8_t>(rng());
  x[31] &= 0x3f;
  return x;
}

Bytes32 small_fr(std::uint8_t v) {  // Fr::from(v).to_repr()
  Bytes32 x{};
  x[0] = v;
  return x;
}

// challenges.rs test_synth_challenges_against_hardcoded.
TEST(SynthChallenges, HardCodedAnswers) {
  const SynthChallengeGenerator g(1 << 10, small_fr(55), small_fr(101), 21);
  const std::vector<std::uint64_t> synth{178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                         801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  EXPECT_EQ(g.all_synth_challenges(), synth);
  for (std::uint64_t i = 21; i-- > 0;) EXPECT_EQ(g.synth_challenge(i), synth[i]) << i;
  EXPECT_THROW(g.synth_challenge(21), std::out_of_range);
  EXPECT_EQ(g.porep_partition_challenges(10, fill(1), 0),
            (std::vector<std::uint64_t>{176, 781, 801, 986, 290, 211, 692, 856, 986, 332}));
}

// challenges.rs test_synth_challenges_32gib: the default set (2^18), any challenge by seeking
// equal to the sequence's, in range; partitions are consecutive slices of the porep challenges.
TEST(SynthChallenges, Default32GiB) {
  const std::uint64_t nodes = std::uint64_t{1} << 30;
  std::mt19937_64 rng(5);
  const auto g = SynthChallengeGenerator::with_default_count(nodes, random_bytes(rng), random_bytes(rng));
  ASSERT_EQ(g.num_synth_challenges(), std::uint64_t{1} << 18);
  const std::vector<std::uint64_t> all = g.all_synth_challenges();
  ASSERT_EQ(all.size(), std::size_t{1} << 18);
  EXPECT_TRUE(std::all_of(all.begin(), all.end(), [&](std::uint64_t c) { return c >= 1 && c < nodes; }));
  for (std::uint64_t i = 0; i < all.size(); i += 977) ASSERT_EQ(g.synth_challenge(i), all[i]) << i;
  ASSERT_EQ(g.synth_challenge(all.size() - 1), all.back());

  const Bytes32 rand = fill(1);
  const std::vector<std::uint64_t> whole = g.porep_partition_challenges(180, rand, 0);
  const std::vector<std::uint64_t> whole_idx = g.partition_synth_indexes(180, rand, 0);
  for (std::size_t k = 0; k < 10; ++k) {
    EXPECT_EQ(g.porep_partition_challenges(18, rand, k),
              std::vector<std::uint64_t>(whole.begin() + 18 * k, whole.begin() + 18 * (k + 1)));
    const std::vector<std::uint64_t> idx = g.partition_synth_indexes(18, rand, k);
    EXPECT_EQ(idx, std::vector<std::uint64_t>(whole_idx.begin() + 18 * k, whole_idx.begin() + 18 * (k + 1)));
    for (std::size_t i = 0; i < 18; ++i) EXPECT_EQ(whole[18 * k + i], all[idx[i]]);
  }
  // A 2 KiB sector has as many synthetic challenges as nodes.
  EXPECT_EQ(SynthChallengeGenerator::with_default_count(64, fill(0), fill(0)).num_synth_challenges(), 64u);
}

// An independent challenge: OpenSSL SHA-256 of the message, as a little-endian BIGNUM, mod
// (nodes - 1), plus 1.
std::uint64_t reference_challenge(const std::vector<std::uint8_t>& msg, std::uint64_t nodes) {
  std::uint8_t d[32];
  SHA256(msg.data(), msg.size(), d);
  BIGNUM* x = BN_lebin2bn(d, 32, nullptr);
  const BN_ULONG r = BN_mod_word(x, nodes - 1);
  BN_free(x);
  return r + 1;
}

std::vector<std::uint8_t> concat(std::initializer_list<std::span<const std::uint8_t>> parts) {
  std::vector<std::uint8_t> out;
  for (auto p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

std::array<std::uint8_t, 4> u32_le(std::uint32_t v) {
  return {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v >> 16),
          static_cast<std::uint8_t>(v >> 24)};
}

TEST(InteractiveChallenges, MatchReference) {
  std::mt19937_64 rng(9);
  for (std::uint64_t nodes :
       {std::uint64_t{64}, std::uint64_t{1} << 18, std::uint64_t{1} << 30, std::uint64_t{1} << 31}) {
    const Bytes32 replica = random_bytes(rng), seed = random_bytes(rng);
    for (std::size_t k : {0, 1, 9}) {
      const std::vector<std::uint64_t> got = interactive_porep_challenges(nodes, replica, seed, 18, k);
      ASSERT_EQ(got.size(), 18u);
      for (std::size_t i = 0; i < 18; ++i)
        ASSERT_EQ(got[i],
                  reference_challenge(concat({replica, seed, u32_le(static_cast<std::uint32_t>(18 * k + i))}), nodes));
    }
  }
}

TEST(NiChallenges, MatchReference) {
  std::mt19937_64 rng(10);
  const std::string tag = "filecoin.io|PoRep|1|NonInteractive|1";
  const std::span<const std::uint8_t> tag_bytes(reinterpret_cast<const std::uint8_t*>(tag.data()), tag.size());
  for (std::uint64_t nodes : {std::uint64_t{64}, std::uint64_t{1} << 30}) {
    const Bytes32 replica = random_bytes(rng), comm_r = random_bytes(rng);
    for (std::size_t k : {0, 125}) {
      const std::vector<std::uint64_t> got = ni_porep_challenges(nodes, replica, comm_r, 18, k);
      for (std::size_t i = 0; i < 18; ++i)
        ASSERT_EQ(got[i],
                  reference_challenge(
                      concat({tag_bytes, replica, comm_r, u32_le(static_cast<std::uint32_t>(18 * k + i))}), nodes));
    }
  }
}

// challenges.rs challenge_partition_equivalence (and the same for non-interactive), never node
// 0, and challenge_derivation's duplicate statistic (1000 challenges of 2^30 nodes: at most 2 of
// 100 layers with a duplicate).
TEST(InteractiveChallenges, PartitionsAreSlicesOfOneSequence) {
  std::mt19937_64 rng(12);
  const std::uint64_t leaves = std::uint64_t{1} << 30;
  int layers_with_duplicates = 0;
  for (int layer = 0; layer < 100; ++layer) {
    const Bytes32 replica = random_bytes(rng), seed = random_bytes(rng);
    const std::vector<std::uint64_t> one = interactive_porep_challenges(leaves, replica, seed, 200, 0);
    std::vector<std::uint64_t> many, ni_many;
    for (std::size_t k = 0; k < 5; ++k) {
      const auto c = interactive_porep_challenges(leaves, replica, seed, 40, k);
      many.insert(many.end(), c.begin(), c.end());
      const auto n = ni_porep_challenges(leaves, replica, seed, 40, k);
      ni_many.insert(ni_many.end(), n.begin(), n.end());
    }
    ASSERT_EQ(one, many);
    ASSERT_EQ(ni_porep_challenges(leaves, replica, seed, 200, 0), ni_many);
    ASSERT_NE(one, ni_many);
    ASSERT_TRUE(std::all_of(one.begin(), one.end(), [&](std::uint64_t c) { return c >= 1 && c < leaves; }));
    std::set<std::uint64_t> unique;
    for (std::size_t k = 0; k < 5; ++k)
      for (std::uint64_t c : interactive_porep_challenges(leaves, replica, seed, 200, k)) unique.insert(c);
    layers_with_duplicates += unique.size() < 1000;
  }
  EXPECT_LT(layers_with_duplicates, 3);
  // Tiny sectors: only nodes 1..n-1.
  std::set<std::uint64_t> seen;
  for (std::uint64_t c : interactive_porep_challenges(4, fill(2), fill(3), 200, 0)) seen.insert(c);
  EXPECT_EQ(seen, (std::set<std::uint64_t>{1, 2, 3}));
  EXPECT_THROW(interactive_porep_challenges(4, fill(2), fill(3), 2, 256), std::invalid_argument);
}

// filecoin-proofs constants.rs + parameters.rs select_challenges: 2 per partition below 32 GiB
// (1 partition, or 13 non-interactive), 18 for 32 GiB and 64 GiB (176 / 10, 2253 / 126).
TEST(PoRepChallenges, CountsPerPartition) {
  for (const SealProofInfo& info : all_seal_proofs()) {
    const bool big = info.sector_size >= kSectorSize32GiB;
    const bool ni = info.feature == SealFeature::NonInteractivePoRep;
    EXPECT_EQ(porep_minimum_challenges(info), ni ? (big ? 2253u : 26u) : (big ? 176u : 2u)) << info.name;
    EXPECT_EQ(porep_challenges_per_partition(info), big ? 18u : 2u) << info.name;
    EXPECT_EQ(info.porep_partitions, ni ? (big ? 126u : 13u) : (big ? 10u : 1u)) << info.name;
  }
}

TEST(PoRepChallenges, DispatchByProof) {
  const Bytes32 replica = fill(7), seed = fill(8), comm_r = fill(9);
  const auto& i32 = seal_proof_info(RegisteredSealProof::StackedDrg32GiBV1_1);
  EXPECT_EQ(porep_challenges(i32, replica, seed, std::nullopt, 3),
            interactive_porep_challenges(i32.nodes, replica, seed, 18, 3));
  EXPECT_THROW(porep_challenges(i32, replica, std::nullopt, comm_r, 0), std::invalid_argument);

  const auto& s2 = seal_proof_info(RegisteredSealProof::StackedDrg2KiBV1_1_Feat_SyntheticPoRep);
  const auto gen = SynthChallengeGenerator::with_default_count(s2.nodes, replica, comm_r);
  EXPECT_EQ(porep_challenges(s2, replica, seed, comm_r, 0), gen.porep_partition_challenges(2, seed, 0));
  EXPECT_EQ(porep_challenges(s2, replica, std::nullopt, comm_r, 0), gen.all_synth_challenges());
  EXPECT_THROW(porep_challenges(s2, replica, std::nullopt, comm_r, 1), std::invalid_argument);
  EXPECT_THROW(porep_challenges(s2, replica, seed, std::nullopt, 0), std::invalid_argument);

  const auto& n32 = seal_proof_info(RegisteredSealProof::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep);
  EXPECT_EQ(porep_challenges(n32, replica, std::nullopt, comm_r, 125),
            ni_porep_challenges(n32.nodes, replica, comm_r, 18, 125));
}

// params.rs generate_replica_id: SHA-256(prover_id ‖ sector_id BE ‖ ticket ‖ comm_d ‖ porep_id),
// top two bits cleared.
TEST(ReplicaId, Layout) {
  std::mt19937_64 rng(13);
  const Bytes32 prover = random_bytes(rng), ticket = random_bytes(rng), comm_d = random_bytes(rng);
  const PoRepId pid = porep_id(RegisteredSealProof::StackedDrg32GiBV1_1);
  const std::uint64_t sector = 0x0102030405060708ull;
  const std::array<std::uint8_t, 8> be{1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<std::uint8_t> msg = concat({prover, be, ticket, comm_d, pid});
  Bytes32 expected;
  SHA256(msg.data(), msg.size(), expected.data());
  expected[31] &= 0x3f;
  EXPECT_EQ(replica_id(prover, sector, ticket, comm_d, pid), expected);
  EXPECT_NE(replica_id(prover, sector, ticket, comm_d, porep_id(RegisteredSealProof::StackedDrg32GiBV1)), expected);
  for (int i = 0; i < 32; ++i) EXPECT_LT(replica_id(random_bytes(rng), i, ticket, comm_d, pid)[31], 0x40);
}

}  // namespace
}  // namespace cuzk::filecoin
