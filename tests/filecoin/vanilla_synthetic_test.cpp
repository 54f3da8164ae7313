// Vanilla proofs of the tree shapes the real data does not cover (Single: 2 KiB, 8 MiB; Top:
// 64 GiB) and of WinningPoSt (66 challenges of one sector), made by the library's synthetic
// generator (post_vanilla_gen.hpp), then decoded and checked. A partition of several sectors is
// checked at each sector's position (the V1 challenge index depends on it).
//
// The generator and the checker hash with the same optimized Poseidon, so the first tests rebuild
// what the generator made independently: cuzk's textbook neptune permutation
// (gadgets::poseidon_hash_native, checked against neptune's known answers) over a dense tree of
// all the leaves (zero but the challenged ones), and the same permutation up each path of the big
// shapes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/post_vanilla_gen.hpp"
#include "cuzk/filecoin/vanilla.hpp"
#include "cuzk/filecoin/vanilla_check.hpp"
#include "cuzk/gadgets/poseidon_neptune.hpp"
#include "filecoin/merkle_native.hpp"

namespace cuzk::filecoin {
namespace {

Fr textbook_hash(std::span<const Fr> in) {
  return gadgets::poseidon_hash_native<Fr>(gadgets::neptune::params<Fr>(in.size()), in);
}

Fr textbook_path_root(const InclusionProof& p) {
  Fr cur = p.leaf;
  for (const PathLevel& lv : p.path) {
    std::vector<Fr> kids(lv.siblings.begin(), lv.siblings.end());
    kids.insert(kids.begin() + lv.index, cur);
    cur = textbook_hash(kids);
  }
  return cur;
}

Bytes32 random_seed(std::mt19937_64& rng) {
  Bytes32 r;
  for (auto& x : r) x = static_cast<std::uint8_t>(rng());
  return chain_randomness_to_seed(r);
}

// A registered proof's info with another tree: small enough for a dense tree of every leaf.
PoStProofInfo small_shape(RegisteredPoStProof base, TreeShape tree, std::uint64_t nodes) {
  PoStProofInfo info = post_proof_info(base);
  info.tree = tree;
  info.nodes = nodes;
  info.sector_size = nodes * kNodeSize;
  return info;
}

TEST(VanillaSynthetic, TextbookPoseidonRebuildsTheSparseTreeDensely) {
  std::mt19937_64 rng(4);
  const Bytes32 r = random_seed(rng);
  using R = RegisteredPoStProof;
  const std::vector<PoStProofInfo> infos = {
      post_proof_info(R::StackedDrgWindow2KiBV1),                     // Single, 64 leaves, 10 challenges
      post_proof_info(R::StackedDrgWinning2KiBV1),                    // 66 challenges of 64 leaves: repeats
      small_shape(R::StackedDrgWindow2KiBV1_2, {8, 8, 0}, 512),       // Sub (as 32 GiB)
      small_shape(R::StackedDrgWindow2KiBV1, {8, 2, 0}, 128),         // Sub2 (as 16 MiB)
      small_shape(R::StackedDrgWindow2KiBV1, {8, 8, 2}, 1024),        // Top (as 64 GiB)
      small_shape(R::StackedDrgWinning2KiBV1, {8, 8, 2}, std::uint64_t{1} << 13),
  };
  for (const PoStProofInfo& info : infos) {
    SCOPED_TRACE(std::string(info.name) + " with " + std::to_string(info.nodes) + " leaves");
    const std::uint64_t sector_id = 1000 + info.nodes;
    const FallbackPoStSectorProof p = synthetic_sector_proof(info, r, sector_id, 3, 99);
    const SectorProof& s = p.sector();
    const std::vector<std::uint64_t> challenges = sector_leaf_challenges(info, r, sector_id, 3);
    ASSERT_EQ(s.inclusion_proofs.size(), challenges.size());
    // The leaves: zero but the challenged ones, whose values the proofs carry (equal where a leaf
    // is challenged twice).
    std::vector<Fr> leaves(info.nodes, Fr::zero());
    std::vector<bool> set(info.nodes, false);
    for (std::size_t n = 0; n < challenges.size(); ++n) {
      const Fr& v = s.inclusion_proofs[n].leaf;
      EXPECT_NE(v, Fr::zero());
      if (set[challenges[n]]) {
        EXPECT_EQ(leaves[challenges[n]], v) << "leaf " << challenges[n];
      }
      leaves[challenges[n]] = v;
      set[challenges[n]] = true;
    }
    const test::NativeTree dense(info.tree.level_arities(info.nodes), leaves, textbook_hash);
    EXPECT_EQ(s.comm_r_last, dense.root());
    const std::array<Fr, 2> cr = {s.comm_c, s.comm_r_last};
    EXPECT_EQ(p.comm_r, textbook_hash(cr));
    for (std::size_t n = 0; n < challenges.size(); ++n) {
      const InclusionProof& ip = s.inclusion_proofs[n];
      EXPECT_EQ(ip.root, dense.root());
      const std::vector<PathLevel> want = dense.path(challenges[n]);
      ASSERT_EQ(ip.path.size(), want.size());
      for (std::size_t l = 0; l < want.size(); ++l) {
        EXPECT_EQ(ip.path[l].index, want[l].index) << "challenge " << n << " level " << l;
        EXPECT_EQ(ip.path[l].siblings, want[l].siblings) << "challenge " << n << " level " << l;
      }
    }
    EXPECT_NO_THROW(verify_sector_proof(info, p, r, 3));
  }
}

TEST(VanillaSynthetic, TextbookPoseidonRehashesThePathsOfEveryBigShape) {
  std::mt19937_64 rng(8);
  const Bytes32 r = random_seed(rng);
  for (auto id : {RegisteredPoStProof::StackedDrgWindow8MiBV1, RegisteredPoStProof::StackedDrgWindow512MiBV1_2,
                  RegisteredPoStProof::StackedDrgWindow32GiBV1, RegisteredPoStProof::StackedDrgWindow64GiBV1_2}) {
    const PoStProofInfo& info = post_proof_info(id);
    SCOPED_TRACE(info.name);
    const auto gen = generate_post_vanilla_proofs(id, r, std::vector<std::uint64_t>{7}, 0, 1);
    const FallbackPoStSectorProof p = decode_vanilla_proof(gen.at(0).vanilla_proof, id);
    const Fr root = p.sector().comm_r_last;
    for (const InclusionProof& ip : p.sector().inclusion_proofs) EXPECT_EQ(textbook_path_root(ip), root);
    const std::array<Fr, 2> cr = {p.sector().comm_c, root};
    EXPECT_EQ(p.comm_r, textbook_hash(cr));
  }
}

TEST(VanillaSynthetic, SingleTopAndWinningShapesDecodeAndCheck) {
  std::mt19937_64 rng(5);
  const Bytes32 r = random_seed(rng);
  for (auto id : {RegisteredPoStProof::StackedDrgWinning2KiBV1, RegisteredPoStProof::StackedDrgWindow8MiBV1,
                  RegisteredPoStProof::StackedDrgWinning64GiBV1, RegisteredPoStProof::StackedDrgWindow64GiBV1_2}) {
    const PoStProofInfo& info = post_proof_info(id);
    const std::vector<std::uint8_t> bytes =
        generate_post_vanilla_proofs(id, r, std::vector<std::uint64_t>{77}, 0, 5).at(0).vanilla_proof;
    EXPECT_EQ(bytes.size(), vanilla_proof_size(id)) << info.name;
    const FallbackPoStSectorProof p = decode_vanilla_proof(bytes, id);
    ASSERT_EQ(p.sector().inclusion_proofs.size(), info.challenge_count) << info.name;
    const MerkleProofKind kind = info.tree.top_arity   ? MerkleProofKind::Top
                                 : info.tree.sub_arity ? MerkleProofKind::Sub
                                                       : MerkleProofKind::Single;
    EXPECT_EQ(p.sector().inclusion_proofs[0].kind, kind) << info.name;
    EXPECT_NO_THROW(verify_sector_proof(info, p, r, 0)) << info.name;
    // The same bytes under a registered proof of another shape are refused.
    const auto other = info.tree.top_arity ? RegisteredPoStProof::StackedDrgWindow32GiBV1
                                           : RegisteredPoStProof::StackedDrgWindow64GiBV1;
    EXPECT_THROW(decode_vanilla_proof(bytes, other), DecodeError) << info.name;
  }
}

TEST(VanillaSynthetic, PartitionSectorsAreCheckedAtTheirPositions) {
  std::mt19937_64 rng(6);
  const Bytes32 r = random_seed(rng);
  const auto id = RegisteredPoStProof::StackedDrgWindow2KiBV1;  // 2 sectors per partition
  const PoStProofInfo& info = post_proof_info(id);
  // Partition 1 of a request: sectors at positions 2 and 3.
  const auto gen = generate_post_vanilla_proofs(id, r, std::vector<std::uint64_t>{30, 31}, 1, 6);
  const std::vector<std::span<const std::uint8_t>> spans = {gen[0].vanilla_proof, gen[1].vanilla_proof};
  const std::vector<FallbackPoStSectorProof> proofs = decode_partition_vanilla_proofs(spans, id);
  EXPECT_NO_THROW(verify_partition_vanilla_proofs(info, proofs, r, 1));
  try {
    verify_partition_vanilla_proofs(info, proofs, r, 0);
    ADD_FAILURE() << "checked at the wrong positions";
  } catch (const DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("vanilla proof 0 of the partition"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("sector index 0, api 1.0.0"), std::string::npos) << e.what();
  }
  // V1_2 challenges do not depend on the position.
  const auto v12 = RegisteredPoStProof::StackedDrgWindow2KiBV1_2;
  const auto gen12 = generate_post_vanilla_proofs(v12, r, std::vector<std::uint64_t>{30}, 0, 6);
  const FallbackPoStSectorProof p = decode_vanilla_proof(gen12[0].vanilla_proof, v12);
  EXPECT_NO_THROW(verify_sector_proof(post_proof_info(v12), p, r, 5));
}

}  // namespace
}  // namespace cuzk::filecoin
