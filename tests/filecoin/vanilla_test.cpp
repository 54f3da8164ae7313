// PoSt vanilla proofs against a real one: the 32 GiB WindowPoSt proof Curio keeps as golden data
// (sector 1 of miner 1000, zero randomness). Decoding gives the layout the file's size implies;
// every challenge re-derived from the public data is the leaf its path proves; every path hashes
// (neptune Poseidon) to comm_r_last and Poseidon2(comm_c, comm_r_last) is the comm_r the sealed
// CID carries. Then the refusals: a changed byte anywhere (a sample), with the message naming
// what and where for the structural ones, truncation, trailing bytes, partitions that are too
// big, and the registered proof table's numbers as filecoin-proofs defines them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/sealed_cid.hpp"
#include "cuzk/filecoin/vanilla.hpp"
#include "cuzk/filecoin/vanilla_check.hpp"
#include "post_test_data.hpp"
#include "support/decode_error.hpp"

namespace cuzk::filecoin {
namespace {
using cuzk::test::decode_error_of;

using test::window_post_32gib;

// Byte layout of the 32 GiB proof (vanilla.hpp): sector_id 0, comm_r 8, sector count 40,
// inclusion count 48, inclusion proof n at 56 + 2484 n (tag, base path of 9 levels of 240 bytes
// after its length, sub path of 1 level, root, leaf), comm_c 24896, comm_r_last 24928.
constexpr std::size_t kFirstInclusion = 56, kInclusionSize = 2484, kLevelSize = 240;
constexpr std::size_t kCommC = 24896, kCommRLast = 24928;
std::size_t inclusion_at(std::size_t n) { return kFirstInclusion + kInclusionSize * n; }
std::size_t base_level_at(std::size_t n, std::size_t level) { return inclusion_at(n) + 4 + 8 + kLevelSize * level; }
std::size_t root_at(std::size_t n) { return inclusion_at(n) + kInclusionSize - 64; }

constexpr auto kWindow32 = RegisteredPoStProof::StackedDrgWindow32GiBV1;

FallbackPoStSectorProof decode_real() { return decode_vanilla_proof(window_post_32gib().vproof, kWindow32); }

// Decoding or checking `bytes` must fail; returns the message.
std::string refusal(const std::vector<std::uint8_t>& bytes, RegisteredPoStProof p = kWindow32) {
  const auto& d = window_post_32gib();
  return decode_error_of(
      [&] { verify_sector_proof(post_proof_info(p), decode_vanilla_proof(bytes, p), d.randomness, 0); });
}

void put_u64(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

TEST(RegisteredProof, NumbersAsFilecoinProofsDefinesThem) {
  // The public data's PoStProof 8 is StackedDrgWindow32GiBV1 (go-state-types); its sectors' SealProof 8
  // is StackedDrg32GiBV1_1.
  const auto& d = window_post_32gib();
  EXPECT_EQ(post_proof_from_id_or_throw(d.post_proof), kWindow32);
  EXPECT_EQ(post_proof_info(kWindow32).name, "StackedDrgWindow32GiBV1");
  EXPECT_EQ(seal_proof_info(seal_proof_from_id_or_throw(d.seal_proof)).name, "StackedDrg32GiBV1_1");
  EXPECT_FALSE(post_proof_from_id(15).has_value());
  EXPECT_FALSE(post_proof_from_id(-1).has_value());
  EXPECT_THROW(seal_proof_from_id_or_throw(20), DecodeError);

  const auto& w32 = post_proof_info(kWindow32);
  EXPECT_EQ(w32.sector_size, std::uint64_t{32} << 30);
  EXPECT_EQ(w32.nodes, std::uint64_t{1} << 30);
  EXPECT_EQ(w32.tree, (TreeShape{8, 8, 0}));
  EXPECT_EQ(w32.challenge_count, 10u);
  EXPECT_EQ(w32.sector_count, 2349u);
  EXPECT_EQ(w32.api_version, ApiVersion::V1_0_0);
  const auto& w64v12 = post_proof_info(RegisteredPoStProof::StackedDrgWindow64GiBV1_2);
  EXPECT_EQ(w64v12.go_name, "StackedDrgWindow64GiBV1_1");
  EXPECT_EQ(w64v12.api_version, ApiVersion::V1_2_0);
  EXPECT_EQ(w64v12.sector_count, 2300u);
  EXPECT_EQ(w64v12.tree, (TreeShape{8, 8, 2}));
  const auto& win2k = post_proof_info(RegisteredPoStProof::StackedDrgWinning2KiBV1);
  EXPECT_EQ(win2k.challenge_count, 66u);
  EXPECT_EQ(win2k.sector_count, 1u);
  EXPECT_EQ(win2k.circuit_sector_count, 66u);
  EXPECT_EQ(win2k.circuit_challenge_count, 1u);
  EXPECT_EQ(win2k.tree, (TreeShape{8, 0, 0}));
  EXPECT_EQ(post_proof_info(RegisteredPoStProof::StackedDrgWindow512MiBV1).sector_count, 2u);
  EXPECT_EQ(seal_proof_info(RegisteredSealProof::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep).go_name,
            "StackedDrg32GiBV1_2_Feat_NiPoRep");
  EXPECT_EQ(seal_proof_info(RegisteredSealProof::StackedDrg2KiBV1_1_Feat_SyntheticPoRep).api_version,
            ApiVersion::V1_2_0);
  EXPECT_EQ(window_post_for_seal(RegisteredSealProof::StackedDrg32GiBV1_1, true),
            RegisteredPoStProof::StackedDrgWindow32GiBV1_2);
  for (const auto& p : all_post_proofs()) EXPECT_EQ(post_proof_info(p.id).name, p.name);
  // The file's size is the one the shape implies.
  EXPECT_EQ(vanilla_proof_size(kWindow32), d.vproof.size());
  EXPECT_EQ(d.vproof.size(), 24960u);
}

TEST(VanillaProof, DecodesTheReal32GiBWindowPoStProof) {
  const auto& d = window_post_32gib();
  const FallbackPoStSectorProof p = decode_real();
  EXPECT_EQ(p.sector_id, d.sector);
  ASSERT_EQ(p.sectors.size(), 1u);
  ASSERT_EQ(p.sector().inclusion_proofs.size(), 10u);
  for (std::size_t n = 0; n < 10; ++n) {
    const InclusionProof& ip = p.sector().inclusion_proofs[n];
    EXPECT_EQ(ip.kind, MerkleProofKind::Sub);
    EXPECT_EQ(ip.offset, inclusion_at(n));
    ASSERT_EQ(ip.path.size(), 10u);  // 9 base levels (2^27 leaves per sub-tree) + the sub level
    for (const PathLevel& lv : ip.path) EXPECT_EQ(lv.siblings.size(), 7u);
  }
  // comm_r is the sealed CID's digest.
  EXPECT_EQ(fr_to_bytes(p.comm_r), comm_r_from_sealed_cid(d.sealed_cid));
}

TEST(VanillaProof, ChallengesPathsAndCommitmentsOfTheRealProofAgree) {
  const auto& d = window_post_32gib();
  const FallbackPoStSectorProof p = decode_real();
  const SectorProof& s = p.sector();
  // Challenges re-derived from the public data: sector 1 at index 0 of the request.
  for (auto id : {kWindow32, RegisteredPoStProof::StackedDrgWindow32GiBV1_2}) {
    const std::vector<std::uint64_t> ch = sector_leaf_challenges(post_proof_info(id), d.randomness, d.sector, 0);
    ASSERT_EQ(ch.size(), 10u);
    for (std::size_t n = 0; n < 10; ++n) {
      EXPECT_EQ(inclusion_leaf_index(s.inclusion_proofs[n]), ch[n]) << "challenge " << n;
      EXPECT_LT(ch[n], std::uint64_t{1} << 30);
    }
  }
  // Every path hashes to its root, which is comm_r_last; comm_r = H(comm_c, comm_r_last).
  for (std::size_t n = 0; n < 10; ++n) {
    EXPECT_EQ(inclusion_path_root(s.inclusion_proofs[n]), s.inclusion_proofs[n].root) << "path " << n;
    EXPECT_EQ(s.inclusion_proofs[n].root, s.comm_r_last) << "path " << n;
  }
  EXPECT_EQ(comm_r_from_parts(s.comm_c, s.comm_r_last), p.comm_r);
  EXPECT_NO_THROW(verify_sector_proof(post_proof_info(kWindow32), p, d.randomness, 0));
  EXPECT_NO_THROW(verify_partition_vanilla_proofs(post_proof_info(kWindow32), std::span(&p, 1), d.randomness, 0));
  // At another position of the request the V1 challenges move (sector_index · 10 + n), V1_2's do not.
  EXPECT_THROW(verify_sector_proof(post_proof_info(kWindow32), p, d.randomness, 1), DecodeError);
  EXPECT_NO_THROW(
      verify_sector_proof(post_proof_info(RegisteredPoStProof::StackedDrgWindow32GiBV1_2), p, d.randomness, 1));
}

TEST(VanillaProof, StructuralDamageIsRefusedWithWhatAndWhere) {
  const auto& d = window_post_32gib();
  struct Case {
    std::size_t at;
    std::uint64_t value;
    int width;  // bytes written little-endian
    std::string expect;
  };
  const std::size_t tag1 = inclusion_at(1);
  const std::vector<Case> cases = {
      {40, 2, 8, "byte 40: sector proof count is 2; expected 1"},
      {48, 11, 8, "byte 48: inclusion proof count is 11; expected 10"},
      {48, std::uint64_t{1} << 60, 8, "inclusion proof count is 1152921504606846976"},
      {tag1, 0, 4,
       "byte " + std::to_string(tag1) + ": inclusion proof 1: Merkle proof tag 0 (Single); the 8-8-0 tree has Sub (1)"},
      {tag1, 7, 4, "Merkle proof tag 7 (not a variant)"},
      {tag1 + 4, 8, 8, "inclusion proof 1: base path length is 8; expected 9"},
      {base_level_at(2, 3), 6, 8, "inclusion proof 2, base level 3: sibling count is 6; expected 7 (arity 8)"},
      {base_level_at(2, 3) + 8 + 7 * 32, 8, 8,
       "inclusion proof 2, base level 3: insertion index 8 is outside a level of arity 8"},
  };
  for (const Case& c : cases) {
    std::vector<std::uint8_t> b = d.vproof;
    for (int i = 0; i < c.width; ++i) b[c.at + i] = static_cast<std::uint8_t>(c.value >> (8 * i));
    EXPECT_NE(refusal(b).find(c.expect), std::string::npos)
        << "wanted \"" << c.expect << "\", got \"" << refusal(b) << "\"";
  }
  // Non-canonical field elements (all ones is above r).
  for (auto [at, what] :
       {std::pair<std::size_t, std::string>{8, "byte 8: comm_r is not a canonical field element"},
        {kCommC, "comm_c is not a canonical field element"},
        {base_level_at(0, 0) + 8, "inclusion proof 0, base level 0, sibling 0: hash is not a canonical"}}) {
    std::vector<std::uint8_t> b = d.vproof;
    std::fill(b.begin() + at, b.begin() + at + 32, 0xff);
    EXPECT_NE(refusal(b).find(what), std::string::npos) << refusal(b);
  }
  // A registered proof of another tree shape.
  EXPECT_NE(refusal(d.vproof, RegisteredPoStProof::StackedDrgWindow64GiBV1).find("the 8-8-2 tree has Top (2) proofs"),
            std::string::npos);
  EXPECT_NE(
      refusal(d.vproof, RegisteredPoStProof::StackedDrgWinning32GiBV1).find("inclusion proof count is 10; expected 66"),
      std::string::npos);
}

TEST(VanillaProof, TruncatedAndOversizedBuffersAreRefused) {
  const auto& d = window_post_32gib();
  for (std::size_t len :
       {std::size_t{0}, std::size_t{7}, std::size_t{39}, std::size_t{56}, inclusion_at(3) + 17, std::size_t{24959}}) {
    std::vector<std::uint8_t> b(d.vproof.begin(), d.vproof.begin() + static_cast<std::ptrdiff_t>(len));
    // Reported at the start of the item that does not fit.
    const std::string m = refusal(b);
    EXPECT_NE(m.find("truncated"), std::string::npos) << m;
    EXPECT_NE(m.find("left (the buffer has " + std::to_string(len) + ")"), std::string::npos) << m;
  }
  std::vector<std::uint8_t> b = d.vproof;
  b.push_back(0);
  EXPECT_NE(refusal(b).find("byte 24960: 1 trailing bytes"), std::string::npos) << refusal(b);
}

TEST(VanillaProof, InconsistenciesAreRefusedWithWhatFailed) {
  const auto& d = window_post_32gib();
  const std::pair<std::size_t, std::string> cases[] = {
      {0, "the path is for leaf"},                        // sector_id: other challenges
      {8, "!= Poseidon2(comm_c, comm_r_last)"},           // comm_r
      {kCommC, "!= Poseidon2(comm_c, comm_r_last)"},      // comm_c
      {kCommRLast, "comm_r_last"},                        // the field the circuit uses
      {root_at(0), "!= Poseidon2(comm_c, comm_r_last)"},  // root 0 is what comm_r_last is taken from
      {root_at(4), "inclusion proof 4 (byte " + std::to_string(inclusion_at(4)) + "): root"},
      {root_at(4) + 32,
       "inclusion proof 4 (byte " + std::to_string(inclusion_at(4)) + "): the leaf hashed up the path"},
      {base_level_at(6, 5) + 8 + 3 * 32,
       "inclusion proof 6 (byte " + std::to_string(inclusion_at(6)) + "): the leaf hashed"},
  };
  for (const auto& [at, expect] : cases) {
    std::vector<std::uint8_t> b = d.vproof;
    b[at] ^= 0x01;  // a low byte of each value: stays canonical
    const std::string m = refusal(b);
    EXPECT_NE(m.find(expect), std::string::npos)
        << "byte " << at << ": wanted \"" << expect << "\", got \"" << m << "\"";
  }
  // Moving a path to another leaf: swap the insertion index of inclusion proof 9's first level
  // with a sibling's position; the path no longer hashes to the root.
  std::vector<std::uint8_t> b = d.vproof;
  const std::size_t idx_at = base_level_at(9, 0) + 8 + 7 * 32;
  put_u64(b, idx_at, (b[idx_at] + 1) % 8);
  EXPECT_NE(refusal(b).find("inclusion proof 9"), std::string::npos) << refusal(b);
  // Other randomness: other challenges.
  Bytes32 r = d.randomness;
  r[5] = 1;
  EXPECT_THROW(verify_sector_proof(post_proof_info(kWindow32), decode_real(), r, 0), DecodeError);
}

TEST(VanillaProof, AChangedByteAnywhereIsCaught) {
  const auto& d = window_post_32gib();
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < 64; ++i) offsets.push_back(i);
  for (std::size_t i = 64; i < d.vproof.size(); i += 97) offsets.push_back(i);
  for (std::size_t i = d.vproof.size() - 70; i < d.vproof.size(); ++i) offsets.push_back(i);
  for (std::size_t at : offsets) {
    const std::uint8_t flip = at % 2 ? 0x80 : 0x01;  // the low bit, or the high bit (may make an Fr non-canonical)
    std::vector<std::uint8_t> b = d.vproof;
    b[at] ^= flip;
    EXPECT_FALSE(refusal(b).empty()) << "byte " << at << " ^ " << int(flip) << " went unnoticed";
  }
}

TEST(VanillaProof, PartitionListsAreChecked) {
  const auto& d = window_post_32gib();
  const std::span<const std::uint8_t> one(d.vproof);
  EXPECT_EQ(decode_partition_vanilla_proofs(std::vector{one}, kWindow32).size(), 1u);
  EXPECT_NE(decode_error_of([&] { decode_partition_vanilla_proofs({}, kWindow32); }).find("no vanilla proofs"),
            std::string::npos);
  const std::vector<std::span<const std::uint8_t>> too_many(2350, one);
  EXPECT_NE(decode_error_of([&] { decode_partition_vanilla_proofs(too_many, kWindow32); })
                .find("2350 vanilla proofs for one "
                      "StackedDrgWindow32GiBV1 SNARK; a "
                      "partition holds at most 2349 sectors"),
            std::string::npos);
  EXPECT_NE(decode_error_of([&] {
              decode_partition_vanilla_proofs(std::vector{one, one}, kWindow32);
            }).find("vanilla proofs 0 and 1 are both for sector 1"),
            std::string::npos);
  EXPECT_NE(decode_error_of([&] {
              decode_partition_vanilla_proofs(std::vector{one, one}, RegisteredPoStProof::StackedDrgWinning32GiBV1);
            }).find("WinningPoSt proves 1 sector"),
            std::string::npos);
  // A damaged second proof is named by its position.
  std::vector<std::uint8_t> bad = d.vproof;
  bad[0] = 2;                // sector 2
  bad[inclusion_at(0)] = 2;  // tag Top
  EXPECT_NE(decode_error_of([&] {
              decode_partition_vanilla_proofs(std::vector{one, std::span<const std::uint8_t>(bad)}, kWindow32);
            })
                .find("vanilla proof 1 of 2: vanilla proof (StackedDrgWindow32GiBV1), byte 56: inclusion proof 0: "
                      "Merkle proof tag 2"),
            std::string::npos);
}

}  // namespace
}  // namespace cuzk::filecoin
