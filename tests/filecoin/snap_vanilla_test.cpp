// SnapDeals vanilla proofs (snap_vanilla.hpp, snap_check.hpp, snap_challenges.hpp): the
// challenges against storage-proofs-update's hard-coded vectors, the bincode layout round trip,
// malformed bytes refused naming the field and offset, and the vanilla checks refusing a changed
// leaf, path, root, apex leaf, commitment or encoding.
#include "cuzk/filecoin/snap_vanilla.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/snap_challenges.hpp"
#include "cuzk/filecoin/snap_check.hpp"
#include "cuzk/filecoin/snap_vanilla_gen.hpp"
#include "support/decode_error.hpp"

namespace cuzk::filecoin {
namespace {
using cuzk::test::decode_error_of;

constexpr std::uint64_t kKiB = 32, kMiB = kKiB << 10, kGiB = kMiB << 10;  // in nodes

// rand_xorshift 0.3 XorShiftRng and blstrs Scalar::random, to draw the Rust tests' comm_r_new
// from TEST_SEED.
struct XorShift128 {
  std::uint32_t x, y, z, w;
  explicit XorShift128(const std::array<std::uint8_t, 16>& s) {
    auto rd = [&](int i) {
      return std::uint32_t(s[i]) | std::uint32_t(s[i + 1]) << 8 | std::uint32_t(s[i + 2]) << 16 |
             std::uint32_t(s[i + 3]) << 24;
    };
    x = rd(0), y = rd(4), z = rd(8), w = rd(12);
  }
  std::uint32_t next_u32() {
    const std::uint32_t t = x ^ (x << 11);
    x = y, y = z, z = w;
    w = w ^ (w >> 19) ^ (t ^ (t >> 8));
    return w;
  }
  std::uint64_t next_u64() {
    const std::uint64_t lo = next_u32();
    return (std::uint64_t{next_u32()} << 32) | lo;
  }
};

Fr blstrs_random(XorShift128& rng) {
  for (;;) {
    Fr::Repr r{};
    for (auto& l : r) l = rng.next_u64();
    r[3] &= ~std::uint64_t{0} >> 1;
    if (ff::big::cmp(r, Fr::kModulus) < 0) return Fr::from_canonical(r);
  }
}

// challenges.rs test_challenges_against_hardcoded: every vector.
TEST(SnapChallenges, AgainstHardcoded) {
  XorShift128 rng({0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d, 0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5});
  const Fr comm_r_new = blstrs_random(rng);
  struct Case {
    std::uint64_t nodes;
    std::size_t k;
    std::array<std::uint32_t, 5> want;
  };
  const Case cases[] = {
      {kKiB, 0, {21, 7, 3, 31, 0}},
      {2 * kKiB, 0, {53, 51, 56, 3, 0}},
      {4 * kKiB, 0, {117, 25, 62, 0, 72}},
      {8 * kKiB, 0, {245, 140, 15, 128, 28}},
      {16 * kKiB, 0, {245, 140, 15, 128, 28}},
      {16 * kKiB, 1, {286, 308, 493, 510, 508}},
      {32 * kKiB, 0, {245, 454, 3, 400, 193}},
      {32 * kKiB, 1, {542, 666, 955, 927, 911}},
      {8 * kMiB, 0, {36085, 32783, 44060, 10950, 3731}},
      {8 * kMiB, 1, {78878, 130797, 112892, 93994, 78379}},
      {16 * kMiB, 0, {101621, 16391, 109319, 25944, 41193}},
      {16 * kMiB, 1, {209950, 163702, 175679, 224741, 197410}},
      {512 * kMiB, 0, {1019125, 116736, 706220, 59698, 799498}},
      {512 * kMiB, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
      {512 * kMiB, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
      {512 * kMiB, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {32 * kGiB, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {32 * kGiB, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
      {32 * kGiB, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
      {32 * kGiB, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
      {64 * kGiB, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
      {64 * kGiB, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
      {64 * kGiB, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
      {64 * kGiB, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
  };
  for (const Case& c : cases) {
    const auto all = snap_challenges(snap_params(c.nodes), comm_r_new, c.k);
    ASSERT_GE(all.size(), 5u);
    EXPECT_EQ(std::vector<std::uint32_t>(all.begin(), all.begin() + 5),
              std::vector<std::uint32_t>(c.want.begin(), c.want.end()))
        << c.nodes << " nodes, k = " << c.k;
  }
}

// challenges.rs test_challenge_bucketing: partition k's challenges lie in its k-th slice.
TEST(SnapChallenges, Bucketing) {
  const Fr comm_r_new = Fr::from_u64(987654321);
  for (std::uint64_t nodes : {kKiB, 16 * kKiB, 8 * kMiB, 512 * kMiB, 64 * kGiB}) {
    const SnapParams p = snap_params(nodes);
    for (std::size_t k = 0; k < p.partition_count; ++k) {
      const auto cs = snap_challenges(p, comm_r_new, k);
      ASSERT_EQ(cs.size(), p.challenge_count);
      for (std::uint32_t c : cs) EXPECT_EQ(c / (nodes / p.partition_count), k) << nodes;
    }
  }
}

struct Fixture {
  SnapTestUpdate u;
  SnapPartitionProof proof;
  std::vector<std::uint8_t> bytes;
  Fixture(std::uint64_t nodes, std::size_t k, std::uint64_t seed)
      : u(make_snap_test_update(snap_params(nodes), snap_h_default(nodes), seed)),
        proof(make_snap_partition_proof(u, k)),
        bytes(encode_snap_partition_proof(proof)) {}
};

// The three TreeR proof variants (Sub at 1 KiB, Single at 2 KiB, Top at 32 KiB) round trip, at the
// size bincode's layout gives.
TEST(SnapVanilla, BincodeRoundTrip) {
  for (std::uint64_t nodes : {kKiB, 2 * kKiB, 32 * kKiB}) {
    const Fixture f(nodes, snap_params(nodes).partition_count - 1, 21);
    EXPECT_EQ(f.bytes.size(), snap_partition_proof_size(f.u.params)) << nodes;
    const SnapPartitionProof d = decode_snap_partition_proof(f.bytes, f.u.params);
    EXPECT_EQ(encode_snap_partition_proof(d), f.bytes) << nodes;
    EXPECT_EQ(d.comm_c, f.proof.comm_c);
    EXPECT_EQ(d.apex_leafs, f.proof.apex_leafs);
    EXPECT_EQ(d.challenge_proofs[3].proof_d_new.path[1].siblings,
              f.proof.challenge_proofs[3].proof_d_new.path[1].siblings);
  }
  // Layout: comm_c, then the apex leaves' length (8), the first leaf, ...
  const Fixture f(kKiB, 0, 22);
  EXPECT_TRUE(std::equal(f.bytes.begin(), f.bytes.begin() + 32, f.proof.comm_c.to_bytes_le().begin()));
  EXPECT_EQ(f.bytes[32], 8);
  EXPECT_EQ(f.bytes[32 + 8 + 8 * 32], 10);     // challenge proof count
  EXPECT_EQ(f.bytes[32 + 8 + 8 * 32 + 8], 1);  // proof_r_old of the 8-4-0 tree: Sub
}

TEST(SnapVanilla, RefusesTruncatedAndTrailingBytes) {
  const Fixture f(kKiB, 0, 23);
  for (std::size_t n : {std::size_t{0}, std::size_t{31}, std::size_t{40}, f.bytes.size() / 2, f.bytes.size() - 1}) {
    const std::string m = decode_error_of(
        [&] { decode_snap_partition_proof(std::span<const std::uint8_t>(f.bytes).first(n), f.u.params); });
    EXPECT_NE(m.find("truncated"), std::string::npos) << m;
    EXPECT_NE(m.find("byte "), std::string::npos) << m;
  }
  std::vector<std::uint8_t> longer = f.bytes;
  longer.push_back(0);
  EXPECT_NE(decode_error_of([&] { decode_snap_partition_proof(longer, f.u.params); }).find("1 trailing bytes"),
            std::string::npos);
}

TEST(SnapVanilla, RefusesChangedBytesNamingTheField) {
  const Fixture f(kKiB, 0, 24);
  const std::size_t challenges_at = 32 + 8 + 8 * 32 + 8;
  auto decode_with = [&](std::size_t at, std::uint8_t value) {
    std::vector<std::uint8_t> b = f.bytes;
    b[at] = value;
    return decode_error_of([&] { decode_snap_partition_proof(b, f.u.params); });
  };
  std::string m = decode_with(32, 9);
  EXPECT_NE(m.find("byte 32 (apex_leafs): apex leaf count is 9; expected 8"), std::string::npos) << m;
  m = decode_with(challenges_at, 2);  // proof_r_old of challenge 0: Top instead of Sub
  EXPECT_NE(m.find("challenge_proofs[0].proof_r_old"), std::string::npos) << m;
  EXPECT_NE(m.find("Merkle proof tag 2 (Top)"), std::string::npos) << m;
  m = decode_with(31, 0xff);  // comm_c's top byte: above the modulus
  EXPECT_NE(m.find("byte 0 (comm_c): comm_c is not a canonical field element"), std::string::npos) << m;
  // The first insertion index of challenge 0's TreeROld base path (after tag, path length, sibling
  // count and 7 siblings): 8 is outside a level of arity 8.
  const std::size_t index_at = challenges_at + 4 + 8 + 8 + 7 * 32;
  m = decode_with(index_at, 8);
  EXPECT_NE(m.find("byte " + std::to_string(index_at)), std::string::npos) << m;
  EXPECT_NE(m.find("proof_r_old.base_path[0]): insertion index 8 is outside a level of arity 8"), std::string::npos)
      << m;
}

// A valid proof passes every check, for every partition.
TEST(SnapCheck, ValidProofsPass) {
  for (std::uint64_t nodes : {kKiB, 4 * kKiB, 16 * kKiB}) {
    const SnapTestUpdate u = make_snap_test_update(snap_params(nodes), 1, 31);
    std::vector<SnapPartitionProof> proofs;
    for (std::size_t k = 0; k < u.params.partition_count; ++k) proofs.push_back(make_snap_partition_proof(u, k));
    EXPECT_NO_THROW(verify_snap_partition_proofs(u.params, u.pub, proofs)) << nodes;
    proofs.pop_back();
    EXPECT_THROW(verify_snap_partition_proofs(u.params, u.pub, proofs), DecodeError);
  }
}

// A production-shaped 32 GiB partition (sparse synthetic update): encoded, decoded and checked.
TEST(SnapCheck, SparseProductionSizePartition) {
  const SnapParams p = snap_params(32 * kGiB);
  const SnapTestUpdate u = make_snap_test_update(p, 10, 32, 4096);
  const auto bytes = encode_snap_partition_proof(make_snap_partition_proof(u, 15));
  EXPECT_EQ(bytes.size(), snap_partition_proof_size(p));
  EXPECT_NO_THROW(verify_snap_partition_proof(p, u.pub, 15, decode_snap_partition_proof(bytes, p)));
  EXPECT_THROW(verify_snap_partition_proof(p, u.pub, 14, decode_snap_partition_proof(bytes, p)), DecodeError);
}

std::string check_message(const SnapParams& p, const SnapPublic& pub, std::size_t k, const SnapPartitionProof& proof) {
  return decode_error_of([&] { verify_snap_partition_proof(p, pub, k, proof); });
}

TEST(SnapCheck, RefusesChangedLeafPathRootAndCommitments) {
  const SnapTestUpdate u = make_snap_test_update(snap_params(16 * kKiB), 1, 33);
  const SnapPartitionProof good = make_snap_partition_proof(u, 1);
  ASSERT_EQ(check_message(u.params, u.pub, 1, good), "");
  const Fr one = Fr::one();
  auto expect = [&](const SnapPartitionProof& bad, const std::vector<std::string>& parts,
                    const SnapPublic* pub = nullptr) {
    const std::string m = check_message(u.params, pub ? *pub : u.pub, 1, bad);
    EXPECT_NE(m.find("SnapDeals partition 1"), std::string::npos) << m;
    for (const auto& s : parts) EXPECT_NE(m.find(s), std::string::npos) << "'" << s << "' not in: " << m;
  };
  SnapPartitionProof bad = good;
  bad.challenge_proofs[4].proof_r_old.leaf += one;
  expect(bad, {"challenge 4 (node ", "proof_r_old", "the leaf hashed up the path gives"});
  bad = good;
  bad.challenge_proofs[2].proof_d_new.path[3].siblings[0] += one;
  expect(bad, {"challenge 2", "proof_d_new", "the leaf hashed up the path gives"});
  bad = good;
  bad.challenge_proofs[5].proof_r_new.root += one;
  expect(bad, {"challenge 5", "proof_r_new", "is not root_r_new"});
  bad = good;
  bad.challenge_proofs[0].proof_r_old.root += one;  // challenge 0's root is root_r_old: comm_r_old fails
  expect(bad, {"Poseidon2(comm_c, root_r_old)", "is not comm_r_old"});
  bad = good;
  bad.comm_c += one;
  expect(bad, {"is not comm_r_old"});
  bad = good;
  bad.apex_leafs[100] += one;
  expect(bad, {"the apex leaves", "not comm_d_new"});
  bad = good;
  bad.challenge_proofs[7].proof_d_new.path[0].index ^= 1;
  expect(bad, {"challenge 7", "proof_d_new", "opens leaf"});
  bad = good;
  std::swap(bad.challenge_proofs[1], bad.challenge_proofs[2]);
  expect(bad, {"challenge 1", "opens leaf"});
  SnapPublic pub = u.pub;
  pub.comm_d_new += one;
  expect(good, {"not comm_d_new"}, &pub);
  pub = u.pub;
  pub.h = 2;
  expect(good, {"h = 2 is not allowed"}, &pub);
  // Partition 1's proof as partition 0's: its apex root is placed by k's bits.
  EXPECT_NE(check_message(u.params, u.pub, 0, good).find("SnapDeals partition 0"), std::string::npos);
}

// The encoding check: a replica encoded with h = 2 does not verify as h = 1 (a custom hs list of a
// 1 KiB shape, as every allowed h of the small sizes is 1). The Merkle proofs are all valid.
TEST(SnapCheck, RefusesWrongEncoding) {
  SnapParams p = snap_params(kKiB);
  p.hs = {1, 2, 3, 4, 5, 1};
  const SnapTestUpdate u = make_snap_test_update(p, 2, 34);
  const SnapPartitionProof proof = make_snap_partition_proof(u, 0);
  EXPECT_EQ(check_message(p, u.pub, 0, proof), "");
  SnapPublic pub = u.pub;
  pub.h = 1;
  const std::string m = check_message(p, pub, 0, proof);
  EXPECT_NE(m.find("is not label_r_old + label_d_new * rho"), std::string::npos) << m;
}

TEST(SnapCheck, CommitmentsMustBeCanonical) {
  Bytes32 b{};
  b.fill(0xff);
  EXPECT_THROW(snap_commitment(b, "comm_r_new"), DecodeError);
  b[31] = 0x0f;
  EXPECT_NO_THROW(snap_commitment(b, "comm_r_new"));
}

}  // namespace
}  // namespace cuzk::filecoin
