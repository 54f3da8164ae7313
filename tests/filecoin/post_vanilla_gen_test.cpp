// Writing vanilla proofs and making synthetic ones. The encoder is checked against the real 32 GiB
// WindowPoSt proof (Curio's golden data): decoding it and encoding again gives the file, byte for
// byte. The generator's proofs of every registered PoSt (three sizes of Single tree, Sub, Top;
// WindowPoSt V1 and V1_2, WinningPoSt) must pass the decoder and the partition checker at the
// partition they were made for, carry the comm_r the generator reports, give the public inputs
// their paths prove, and come out the same for the same seed. A full 32 GiB partition (2349
// sectors) is timed.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/post_public_inputs.hpp"
#include "cuzk/filecoin/post_vanilla_gen.hpp"
#include "cuzk/filecoin/vanilla.hpp"
#include "cuzk/filecoin/vanilla_check.hpp"
#include "post_test_data.hpp"

namespace cuzk::filecoin {
namespace {

using test::window_post_32gib;
using R = RegisteredPoStProof;

// Field by field (the decoder's byte offsets aside).
void expect_same_proof(const FallbackPoStSectorProof& a, const FallbackPoStSectorProof& b) {
  EXPECT_EQ(a.sector_id, b.sector_id);
  EXPECT_EQ(a.comm_r, b.comm_r);
  ASSERT_EQ(a.sectors.size(), b.sectors.size());
  for (std::size_t k = 0; k < a.sectors.size(); ++k) {
    const SectorProof &x = a.sectors[k], &y = b.sectors[k];
    EXPECT_EQ(x.comm_c, y.comm_c);
    EXPECT_EQ(x.comm_r_last, y.comm_r_last);
    ASSERT_EQ(x.inclusion_proofs.size(), y.inclusion_proofs.size());
    for (std::size_t n = 0; n < x.inclusion_proofs.size(); ++n) {
      const InclusionProof &p = x.inclusion_proofs[n], &q = y.inclusion_proofs[n];
      EXPECT_EQ(p.kind, q.kind) << "inclusion proof " << n;
      EXPECT_EQ(p.root, q.root) << "inclusion proof " << n;
      EXPECT_EQ(p.leaf, q.leaf) << "inclusion proof " << n;
      ASSERT_EQ(p.path.size(), q.path.size()) << "inclusion proof " << n;
      for (std::size_t l = 0; l < p.path.size(); ++l) {
        EXPECT_EQ(p.path[l].index, q.path[l].index) << "inclusion proof " << n << " level " << l;
        EXPECT_EQ(p.path[l].siblings, q.path[l].siblings) << "inclusion proof " << n << " level " << l;
      }
    }
  }
}

Bytes32 seed_bytes(std::uint8_t fill) {
  Bytes32 r;
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<std::uint8_t>(fill + 37 * i);
  return chain_randomness_to_seed(r);
}

std::vector<FallbackPoStSectorProof> decode_all(const std::vector<SyntheticSector>& gen, R id) {
  std::vector<std::span<const std::uint8_t>> spans;
  for (const SyntheticSector& s : gen) spans.emplace_back(s.vanilla_proof);
  return decode_partition_vanilla_proofs(spans, id);
}

TEST(VanillaEncode, ReEncodingTheRealProofGivesItsBytes) {
  const auto& d = window_post_32gib();
  const FallbackPoStSectorProof p = decode_vanilla_proof(d.vproof, R::StackedDrgWindow32GiBV1);
  const std::vector<std::uint8_t> bytes = encode_vanilla_proof(p);
  ASSERT_EQ(bytes.size(), d.vproof.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) ASSERT_EQ(bytes[i], d.vproof[i]) << "byte " << i;
}

TEST(VanillaEncode, DecodingWhatWasEncodedGivesTheProofOfEveryShape) {
  const Bytes32 r = seed_bytes(3);
  for (const PoStProofInfo& info : all_post_proofs()) {
    SCOPED_TRACE(info.name);
    const FallbackPoStSectorProof x = synthetic_sector_proof(info, r, 12, 0, 4);
    const std::vector<std::uint8_t> bytes = encode_vanilla_proof(x);
    EXPECT_EQ(bytes.size(), vanilla_proof_size(info.id));
    expect_same_proof(decode_vanilla_proof(bytes, info.id), x);
  }
}

TEST(VanillaEncode, WritesWhatTheStructHoldsAndTheDecoderJudges) {
  const FallbackPoStSectorProof real = decode_vanilla_proof(window_post_32gib().vproof, R::StackedDrgWindow32GiBV1);
  // One inclusion proof fewer: encoded as it is, refused by the decoder with the count.
  FallbackPoStSectorProof fewer = real;
  fewer.sectors[0].inclusion_proofs.pop_back();
  const std::vector<std::uint8_t> b = encode_vanilla_proof(fewer);
  EXPECT_EQ(b.size(), vanilla_proof_size(R::StackedDrgWindow32GiBV1) - 2484);
  try {
    decode_vanilla_proof(b, R::StackedDrgWindow32GiBV1);
    ADD_FAILURE() << "nine inclusion proofs decoded";
  } catch (const DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("inclusion proof count is 9; expected 10"), std::string::npos) << e.what();
  }
  // A Sub proof whose path cannot be split into base and sub paths cannot be written.
  FallbackPoStSectorProof empty_path = real;
  empty_path.sectors[0].inclusion_proofs[3].path.clear();
  EXPECT_THROW(encode_vanilla_proof(empty_path), std::invalid_argument);
}

TEST(PoStVanillaGen, ProofsOfEveryRegisteredPoStPassTheChecker) {
  const Bytes32 r = seed_bytes(11);
  for (const PoStProofInfo& info : all_post_proofs()) {
    SCOPED_TRACE(info.name);
    const std::vector<std::uint64_t> ids =
        info.type == PoStType::Winning ? std::vector<std::uint64_t>{42} : std::vector<std::uint64_t>{42, 7, 1000};
    const std::vector<std::uint64_t> used(ids.begin(), ids.begin() + std::min(ids.size(), info.sector_count));
    const std::vector<SyntheticSector> gen = generate_post_vanilla_proofs(info.id, r, used, 0, 2024);
    ASSERT_EQ(gen.size(), used.size());
    const std::vector<FallbackPoStSectorProof> proofs = decode_all(gen, info.id);
    EXPECT_NO_THROW(verify_partition_vanilla_proofs(info, proofs, r, 0));
    std::vector<PublicSector> pub;
    for (std::size_t i = 0; i < gen.size(); ++i) {
      EXPECT_EQ(gen[i].sector_id, used[i]);
      EXPECT_EQ(proofs[i].sector_id, used[i]);
      EXPECT_EQ(proofs[i].comm_r, gen[i].comm_r);
      EXPECT_EQ(gen[i].vanilla_proof.size(), vanilla_proof_size(info.id));
      pub.push_back({gen[i].sector_id, gen[i].comm_r});
    }
    // The SNARK's public inputs: per slot comm_r, then the leaf each of its inclusion paths proves.
    const std::vector<Fr> inputs = post_public_inputs(info, r, pub, 0);
    const std::vector<PartitionSlot> slots = partition_slots(info, proofs.size());
    ASSERT_EQ(inputs.size(), slots.size() * (1 + info.circuit_challenge_count));
    std::size_t k = 0;
    for (const PartitionSlot& slot : slots) {
      const FallbackPoStSectorProof& p = proofs[slot.proof];
      EXPECT_EQ(inputs[k++], p.comm_r);
      for (std::size_t n = 0; n < slot.inclusion_count; ++n) {
        const InclusionProof& ip = p.sector().inclusion_proofs[slot.first_inclusion + n];
        EXPECT_EQ(inputs[k++], Fr::from_u64(inclusion_leaf_index(ip)));
      }
    }
  }
}

TEST(PoStVanillaGen, LaterPartitionsAreMadeAtTheirPositions) {
  const Bytes32 r = seed_bytes(12);
  for (R id : {R::StackedDrgWindow2KiBV1, R::StackedDrgWindow8MiBV1, R::StackedDrgWindow512MiBV1,
               R::StackedDrgWindow2KiBV1_2, R::StackedDrgWindow512MiBV1_2}) {
    const PoStProofInfo& info = post_proof_info(id);
    SCOPED_TRACE(info.name);
    ASSERT_EQ(info.sector_count, 2u);
    const std::vector<std::uint64_t> ids = {5, 9};
    const auto p0 = decode_all(generate_post_vanilla_proofs(id, r, ids, 0, 1), id);
    const auto p1 = decode_all(generate_post_vanilla_proofs(id, r, ids, 1, 1), id);
    EXPECT_NO_THROW(verify_partition_vanilla_proofs(info, p0, r, 0));
    EXPECT_NO_THROW(verify_partition_vanilla_proofs(info, p1, r, 1));
    if (info.api_version == ApiVersion::V1_2_0) {
      // The challenges do not depend on the position, so neither do the proofs.
      expect_same_proof(p0[0], p1[0]);
      EXPECT_NO_THROW(verify_partition_vanilla_proofs(info, p1, r, 0));
    } else {
      EXPECT_NE(p0[0].comm_r, p1[0].comm_r);
      EXPECT_THROW(verify_partition_vanilla_proofs(info, p1, r, 0), DecodeError);
      EXPECT_THROW(verify_partition_vanilla_proofs(info, p0, r, 1), DecodeError);
    }
  }
}

TEST(PoStVanillaGen, DeterministicInSeedAndSector) {
  const Bytes32 r = seed_bytes(13);
  const R id = R::StackedDrgWindow32GiBV1_2;
  const std::vector<std::uint64_t> ids = {1, 2, 3};
  const auto a = generate_post_vanilla_proofs(id, r, ids, 0, 77);
  const auto b = generate_post_vanilla_proofs(id, r, ids, 0, 77);
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(a[i].vanilla_proof, b[i].vanilla_proof);
  // A sector's proof does not depend on the other sectors of the list (V1_2: nor on its position).
  const auto alone = generate_post_vanilla_proofs(id, r, std::vector<std::uint64_t>{2}, 0, 77);
  EXPECT_EQ(alone[0].vanilla_proof, a[1].vanilla_proof);
  // Another seed: other leaves and comm_c.
  const auto c = generate_post_vanilla_proofs(id, r, ids, 0, 78);
  EXPECT_NE(c[0].comm_r, a[0].comm_r);
  // comm_c and the value of a leaf depend on (seed, sector, leaf) only, not on the randomness.
  const auto d = generate_post_vanilla_proofs(id, seed_bytes(14), ids, 0, 77);
  const auto pa = decode_vanilla_proof(a[0].vanilla_proof, id), pd = decode_vanilla_proof(d[0].vanilla_proof, id);
  EXPECT_EQ(pa.sector().comm_c, pd.sector().comm_c);
  EXPECT_NE(pa.comm_r, pd.comm_r);
  const SectorProof& sa = pa.sector();
  for (std::size_t n = 1; n < sa.inclusion_proofs.size(); ++n)
    if (inclusion_leaf_index(sa.inclusion_proofs[n]) != inclusion_leaf_index(sa.inclusion_proofs[0])) {
      EXPECT_NE(sa.inclusion_proofs[n].leaf, sa.inclusion_proofs[0].leaf);
    }
}

TEST(PoStVanillaGen, RefusesListsThatDoNotFitThePartition) {
  const Bytes32 r = seed_bytes(15);
  const std::vector<std::uint64_t> none, two = {1, 2}, three = {1, 2, 3}, twice = {4, 4};
  EXPECT_THROW(generate_post_vanilla_proofs(R::StackedDrgWindow2KiBV1, r, none, 0, 1), std::invalid_argument);
  EXPECT_THROW(generate_post_vanilla_proofs(R::StackedDrgWindow2KiBV1, r, three, 0, 1), std::invalid_argument);
  EXPECT_THROW(generate_post_vanilla_proofs(R::StackedDrgWindow2KiBV1, r, twice, 0, 1), std::invalid_argument);
  EXPECT_THROW(generate_post_vanilla_proofs(R::StackedDrgWinning2KiBV1, r, two, 0, 1), std::invalid_argument);
  EXPECT_THROW(generate_post_vanilla_proofs(R::StackedDrgWinning2KiBV1, r, std::vector<std::uint64_t>{1}, 1, 1),
               std::invalid_argument);
  Bytes32 big = r;
  big[31] = 0xff;
  EXPECT_THROW(generate_post_vanilla_proofs(R::StackedDrgWindow2KiBV1, big, two, 0, 1), DecodeError);
}

TEST(PoStVanillaGen, AFull32GiBPartitionTakesSeconds) {
  const R id = R::StackedDrgWindow32GiBV1;
  const PoStProofInfo& info = post_proof_info(id);
  const Bytes32 r = seed_bytes(16);
  std::vector<std::uint64_t> ids(info.sector_count);
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = 100000 + 3 * i;
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<SyntheticSector> gen = generate_post_vanilla_proofs(id, r, ids, 1, 9);
  const auto t1 = std::chrono::steady_clock::now();
  ASSERT_EQ(gen.size(), 2349u);
  // All decode as one partition; a sample (checking all costs as much as making them) is checked
  // at its position in partition 1, the last sector included.
  const std::vector<FallbackPoStSectorProof> proofs = decode_all(gen, id);
  std::vector<std::size_t> sample;
  for (std::size_t i = 0; i < proofs.size(); i += 48) sample.push_back(i);
  sample.push_back(proofs.size() - 1);
  for (std::size_t i : sample)
    EXPECT_NO_THROW(verify_sector_proof(info, proofs[i], r, info.sector_count + i)) << "sector " << i;
  const auto ms = [](auto d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
  std::cout << "[ timing ] " << ids.size() << " sectors of " << info.name << ": generated in " << ms(t1 - t0)
            << " ms\n";
}

}  // namespace
}  // namespace cuzk::filecoin
