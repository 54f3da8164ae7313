// PoRep C1 generation (porep_vanilla_gen.hpp) and the StackedDRG public inputs
// (porep_public_inputs.hpp).
//
// What makes these tests independent of the generator: verify_c1 (c1_check.hpp) recomputes every
// label with its own SHA-256 of the labeling proof (sdr_label), every path, the challenges from
// the public values and the parents from the graph; the circuit (porep_circuit.hpp, equal to
// rust-fil-proofs' constraint for constraint) recomputes all of it in R1CS; the public inputs are
// derived from the C1's public values alone and compared with the ones the witness exposes; empty
// sectors' comm_d are the published values (filecoin-proofs tests/pieces.rs, go-fil-commcid's
// empty 32 GiB and 64 GiB commDs).
#include "cuzk/filecoin/porep_vanilla_gen.hpp"

#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_check.hpp"
#include "cuzk/filecoin/c1_circuit.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/sealed_cid.hpp"
#include "support/decode_error.hpp"

namespace cuzk::filecoin {
namespace {
using cuzk::test::decode_error_of;

using R = RegisteredSealProof;

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

PorepGenParams params(R proof, std::uint64_t seed = 7) {
  PorepGenParams p = porep_gen_params(proof, seed);
  p.prover_id = prover_id_from_actor(1234);
  p.sector = 42;
  return p;
}

C1CheckOptions with_prover(const PorepGenParams& p) {
  C1CheckOptions o;
  o.prover_id = p.prover_id;
  o.sector_number = p.sector;
  return o;
}

std::string refusal(const SealCommitPhase1& c1, const C1CheckOptions& o) {
  return decode_error_of([&] { verify_c1(c1, o); });
}

// Partition k's circuit in check mode: satisfied, and its public inputs are the verifier's.
void expect_partition_satisfied(const SealCommitPhase1& c1, std::size_t k, const SdrGraph* graph = nullptr) {
  cs::CheckCS<Fr> cs;
  c1_partition_circuit(c1, k).synthesize(cs);
  ASSERT_TRUE(cs.is_satisfied()) << "partition " << k << ": " << cs.first_unsatisfied()->name;
  const std::vector<Fr> want =
      porep_public_inputs(c1.registered_proof, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k, graph);
  const auto& got = cs.assignment().inputs;
  ASSERT_EQ(got.size(), want.size() + 1) << "partition " << k;
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i + 1], want[i]) << "partition " << k << ", input " << i;
}

// ---- pieces ----

TEST(FilecoinPorepGen, ProverIdIsTheIdAddressPayload) {
  // go-address: an ID address's payload is the id as an unsigned LEB128 varint.
  EXPECT_EQ(prover_id_from_actor(1000)[0], 0xe8);
  EXPECT_EQ(prover_id_from_actor(1000)[1], 0x07);
  EXPECT_EQ(prover_id_from_actor(1000)[2], 0x00);
  EXPECT_EQ(prover_id_from_actor(127)[0], 0x7f);
  EXPECT_EQ(prover_id_from_actor(127)[1], 0x00);
  EXPECT_EQ(prover_id_from_actor(128)[0], 0x80);
  EXPECT_EQ(prover_id_from_actor(128)[1], 0x01);
  EXPECT_EQ(prover_id_from_actor(0), Bytes32{});
}

TEST(FilecoinPorepGen, SparseTreesEqualDenseTrees) {
  std::mt19937_64 rng(3);
  for (const auto& [hash, shape, leaves] :
       {std::tuple{MerkleHash::Sha256, TreeShape{2, 0, 0}, std::uint64_t{64}},
        std::tuple{MerkleHash::Poseidon, TreeShape{8, 8, 2}, std::uint64_t{1024}}}) {
    std::vector<Fr> all(leaves, Fr::zero());
    std::vector<MerkleTree::Entry> set;
    for (std::uint64_t i : {std::uint64_t{0}, std::uint64_t{5}, std::uint64_t{6}, leaves - 1}) {
      all[i] = Fr::random(rng);
      set.emplace_back(i, all[i]);
    }
    const MerkleTree dense = MerkleTree::dense(hash, shape, all);
    const MerkleTree sparse = MerkleTree::sparse(hash, shape, leaves, set);
    EXPECT_EQ(sparse.root(), dense.root());
    for (std::uint64_t i : {std::uint64_t{1}, std::uint64_t{5}, leaves / 2}) {
      const InclusionProof a = dense.proof(i), b = sparse.proof(i);
      EXPECT_EQ(a.leaf, b.leaf);
      ASSERT_EQ(a.path.size(), b.path.size());
      for (std::size_t l = 0; l < a.path.size(); ++l) {
        EXPECT_EQ(a.path[l].index, b.path[l].index);
        EXPECT_EQ(a.path[l].siblings, b.path[l].siblings);
      }
    }
  }
}

TEST(FilecoinPorepGen, EmptySectorCommDsAreThePublishedOnes) {
  // filecoin-proofs tests/pieces.rs test_compute_comm_d_empty: the 2 KiB empty sector.
  const Bytes32 empty_2k = {252, 126, 146, 130, 150, 229, 22, 250, 173, 233, 134, 178, 143, 146, 212, 74,
                            79,  36,  185, 53,  72,  82,  35, 55,  106, 121, 144, 39,  188, 24,  248, 51};
  const MerkleTree t2k = MerkleTree::sparse(MerkleHash::Sha256, TreeShape{2, 0, 0}, 64, {});
  EXPECT_EQ(t2k.root().to_bytes_le(), empty_2k);
  // go-fil-commcid's test vectors "empty32GiB" and "empty64GiB" (the CC sectors' commD).
  const SealCommitPhase1 c32 = sparse_porep_c1(params(R::StackedDrg32GiBV1_1));
  EXPECT_EQ(unsealed_cid_from_comm_d(c32.comm_d.to_bytes_le()),
            "baga6ea4seaqao7s73y24kcutaosvacpdjgfe5pw76ooefnyqw4ynr3d2y6x2mpq");
  const MerkleTree t64 = MerkleTree::sparse(MerkleHash::Sha256, TreeShape{2, 0, 0}, std::uint64_t{1} << 31, {});
  EXPECT_EQ(unsealed_cid_from_comm_d(t64.root().to_bytes_le()),
            "baga6ea4seaqomqafu276g53zko4k23xzh4h4uecjwicbmvhsuqi7o4bhthhm4aq");
}

// ---- the 2 KiB sealed sector ----

TEST(FilecoinPorepGen, EveryLabelOfASealedSectorIsItsParentsHash) {
  const PorepGenParams p = params(R::StackedDrg2KiBV1_1);
  const SealedSector s = seal_sector(p);
  // The replica id from the prover, sector, ticket, comm_d and porep id.
  EXPECT_EQ(s.replica_id.to_bytes_le(),
            replica_id(p.prover_id, p.sector, p.ticket, s.comm_d().to_bytes_le(), porep_id(p.proof)));
  // Node 0 hashes no parents (create_label: replica_id ‖ layer ‖ node ‖ zeros, 64 bytes).
  for (std::uint32_t layer : {1u, 2u}) {
    std::uint8_t msg[64] = {};
    s.replica_id.to_bytes_le(std::span<std::uint8_t>(msg, 32));
    msg[35] = static_cast<std::uint8_t>(layer);
    Bytes32 d;
    SHA256(msg, sizeof msg, d.data());
    d[31] &= 0x3f;
    EXPECT_EQ(s.labels[layer - 1][0], d) << "layer " << layer;
  }
  // Every other node, checked with c1_check's sdr_label over the parent columns' labels.
  for (std::uint64_t v = 1; v < s.shape.nodes; ++v) {
    const auto ps = s.graph.parents(static_cast<std::uint32_t>(v));
    for (std::size_t l = 1; l <= s.shape.layers; ++l) {
      PorepVanillaProof proof;  // only the columns' rows matter to sdr_label_parents
      for (std::size_t j = 0; j < kSdrDegree; ++j) {
        ColumnOpening c;
        c.rows = s.column(ps[j]);
        (j < kDrgDegree ? proof.drg_parents : proof.exp_parents).push_back(std::move(c));
      }
      const Fr want = sdr_label(s.replica_id, static_cast<std::uint32_t>(l), v, sdr_label_parents(proof, l));
      ASSERT_EQ(s.label(l, v), want) << "node " << v << ", layer " << l;
    }
  }
  // The replica is data + the last layer's label.
  for (std::uint64_t v = 0; v < s.shape.nodes; ++v) EXPECT_EQ(s.tree_r.leaf(v), s.data[v] + s.label(2, v));
}

TEST(FilecoinPorepGen, SealedTwoKiBC1PassesTheChecksAndSatisfiesTheCircuit) {
  for (R proof : {R::StackedDrg2KiBV1_1, R::StackedDrg2KiBV1, R::StackedDrg2KiBV1_1_Feat_SyntheticPoRep,
                  R::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep}) {
    const std::string name(seal_proof_info(proof).name);
    const PorepGenParams p = params(proof);
    const auto t0 = std::chrono::steady_clock::now();
    const SealCommitPhase1 made = generate_porep_c1(p);
    const double gen_s = since(t0);
    // Through the wire form and back, as a node would hand it over.
    const SealCommitPhase1 c1 = decode_c1_json(encode_c1_json(made));
    EXPECT_NO_THROW(verify_c1(c1, with_prover(p))) << name;
    EXPECT_EQ(refusal(c1, with_prover(p)), "") << name;
    const auto t1 = std::chrono::steady_clock::now();
    expect_partition_satisfied(c1, 0);
    if (c1.partitions.size() > 1) expect_partition_satisfied(c1, c1.partitions.size() - 1);
    std::printf("%s: C1 made in %.3f s; circuit checked in %.2f s\n", name.c_str(), gen_s, since(t1));
  }
}

TEST(FilecoinPorepGen, TestTreesAndDeterminism) {
  // Sub and Top test trees (interactive challenges of the shape's count).
  for (const PorepC1Shape& shape : {PorepC1Shape{512, {8, 8, 0}, 2, 1, 2}, PorepC1Shape{1024, {8, 8, 2}, 2, 2, 2}}) {
    PorepGenParams p = params(R::StackedDrg2KiBV1_1);
    p.shape = shape;
    const SdrGraph graph(shape.nodes, porep_id(p.proof), ApiVersion::V1_1_0);
    for (PorepGenMode mode : {PorepGenMode::Sealed, PorepGenMode::Sparse}) {
      const SealCommitPhase1 c1 = generate_porep_c1(p, mode);
      C1CheckOptions o = with_prover(p);
      o.challenges = [&](std::size_t k) {
        return interactive_porep_challenges(shape.nodes, c1.replica_id.to_bytes_le(), p.seed,
                                            shape.challenges_per_partition, k);
      };
      o.parents = [&](std::uint64_t node, std::span<std::uint32_t, kSdrDegree> out) {
        graph.parents(static_cast<std::uint32_t>(node), out);
      };
      EXPECT_NO_THROW(verify_c1(c1, shape, o)) << shape.nodes << (mode == PorepGenMode::Sparse ? " sparse" : " sealed");
    }
  }
  // The same parameters make the same bytes; another data seed another sector.
  const PorepGenParams p = params(R::StackedDrg2KiBV1_1);
  EXPECT_EQ(encode_c1_json(generate_porep_c1(p)), encode_c1_json(generate_porep_c1(p)));
  PorepGenParams q = p;
  q.data_seed += 1;
  EXPECT_NE(generate_porep_c1(q).comm_d, generate_porep_c1(p).comm_d);
}

TEST(FilecoinPorepGen, AChangedLabelByteOrParentRowIsRefused) {
  const PorepGenParams p = params(R::StackedDrg2KiBV1_1);
  const SealedSector good = seal_sector(p);
  const SealCommitPhase1 c1 = sealed_sector_c1(good, p.seed);
  const std::uint64_t challenge = c1.partitions[0][0].challenge();

  // A sector whose trees are all consistent but one label is wrong: byte 3 of the layer-1 label of
  // the challenged node's second DRG parent (TreeC rebuilt over the columns as they now are).
  {
    SealedSector bad = seal_sector(p);
    const std::uint32_t parent = bad.graph.parents(static_cast<std::uint32_t>(challenge))[1];
    bad.labels[0][parent][3] ^= 0x10;
    std::vector<Fr> leaves(bad.shape.nodes);
    for (std::uint64_t v = 0; v < bad.shape.nodes; ++v) leaves[v] = sdr_column_hash(bad.column(v));
    bad.tree_c = MerkleTree::dense(MerkleHash::Poseidon, bad.shape.tree, std::move(leaves));
    const SealCommitPhase1 b = sealed_sector_c1(bad, p.seed);
    const std::string msg = refusal(b, with_prover(p));
    EXPECT_NE(msg.find("partition 0, challenge 0 (node " + std::to_string(challenge) + "): labeling_proofs[0]"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("the label SHA-256(replica_id, layer, node, parents) is"), std::string::npos) << msg;
    cs::CheckCS<Fr> cs;
    c1_partition_circuit(b, 0).synthesize(cs);
    ASSERT_FALSE(cs.is_satisfied());
    EXPECT_NE(cs.first_unsatisfied()->name.find("challenge_0/c_x_inclusion"), std::string::npos)
        << cs.first_unsatisfied()->name;
  }
  // One changed byte of a parent column's row in the C1.
  {
    SealCommitPhase1 b = c1;
    Bytes32 row = b.partitions[0][1].exp_parents[3].rows[0].to_bytes_le();
    row[0] ^= 1;
    b.partitions[0][1].exp_parents[3].rows[0] = Fr::from_bytes_le(row);
    const std::string msg = refusal(b, with_prover(p));
    EXPECT_NE(msg.find("partition 0, challenge 1 (node "), std::string::npos) << msg;
    EXPECT_NE(msg.find("replica_column_proofs.exp_parents[3] (byte 0): the column's hash"), std::string::npos) << msg;
    cs::CheckCS<Fr> cs;
    c1_partition_circuit(b, 0).synthesize(cs);
    ASSERT_FALSE(cs.is_satisfied());
    EXPECT_NE(cs.first_unsatisfied()->name.find("challenge_1/exp_parent_3_inclusion"), std::string::npos)
        << cs.first_unsatisfied()->name;
  }
}

// ---- 8 MiB, sealed ----

TEST(FilecoinPorepGen, SealsAn8MiBSector) {
  const PorepGenParams p = params(R::StackedDrg8MiBV1_1);
  const auto t0 = std::chrono::steady_clock::now();
  const SealedSector s = seal_sector(p);
  const double seal_s = since(t0);
  const auto& t = s.timings;
  std::printf(
      "8 MiB sealed in %.2f s: data %.2f, TreeD %.2f, parents %.2f, labels %.2f (2 x 2^18, sequential), TreeC %.2f, "
      "TreeR %.2f\n",
      seal_s, t.data, t.tree_d, t.parents, t.labels, t.tree_c, t.tree_r);
  const auto t1 = std::chrono::steady_clock::now();
  const SealCommitPhase1 c1 = sealed_sector_c1(s, p.seed);
  const double c1_s = since(t1);
  const auto t2 = std::chrono::steady_clock::now();
  EXPECT_NO_THROW(verify_c1(c1, with_prover(p)));
  EXPECT_EQ(refusal(c1, with_prover(p)), "");
  const double check_s = since(t2);
  const auto t3 = std::chrono::steady_clock::now();
  expect_partition_satisfied(c1, 0);
  std::printf("8 MiB C1 in %.3f s, verify_c1 %.3f s, circuit (3.84M constraints, check mode) %.2f s\n", c1_s, check_s,
              since(t3));
  // Labels of nodes no challenge opens, against c1_check's sdr_label.
  std::mt19937_64 rng(5);
  for (int n = 0; n < 64; ++n) {
    const std::uint64_t v = 1 + rng() % (s.shape.nodes - 1);
    const auto ps = s.graph.parents(static_cast<std::uint32_t>(v));
    PorepVanillaProof proof;
    for (std::size_t j = 0; j < kSdrDegree; ++j) {
      ColumnOpening c;
      c.rows = s.column(ps[j]);
      (j < kDrgDegree ? proof.drg_parents : proof.exp_parents).push_back(std::move(c));
    }
    EXPECT_EQ(s.label(2, v), sdr_label(s.replica_id, 2, v, sdr_label_parents(proof, 2))) << "node " << v;
  }
  EXPECT_LT(seal_s, 120.0);
}

// ---- 32 GiB and 64 GiB, sparse ----

TEST(FilecoinPorepGen, Sparse32GiBC1PassesTheChecksAndOneChallengeSatisfiesTheCircuit) {
  const PorepGenParams p = params(R::StackedDrg32GiBV1_1);
  const auto t0 = std::chrono::steady_clock::now();
  const SealCommitPhase1 c1 = generate_porep_c1(p);
  const double gen_s = since(t0);
  ASSERT_EQ(c1.partitions.size(), 10u);
  ASSERT_EQ(c1.partitions[0].size(), 18u);
  const auto t1 = std::chrono::steady_clock::now();
  const std::string json = encode_c1_json(c1);
  const SealCommitPhase1 d = decode_c1_json(json);
  const double json_s = since(t1);
  const auto t2 = std::chrono::steady_clock::now();
  EXPECT_EQ(refusal(d, with_prover(p)), "");
  const double check_s = since(t2);

  // Header + challenge 5 of partition 3 in check mode; its inputs against the verifier's.
  const std::size_t k = 3, i = 5;
  const auto t3 = std::chrono::steady_clock::now();
  const StackedCircuit circuit = c1_partition_circuit(d, k);
  cs::CheckCS<Fr> cs;
  const PorepHeader h = circuit.synthesize_header(cs);
  circuit.synthesize_challenge(cs, i, h);
  const double circuit_s = since(t3);
  EXPECT_TRUE(cs.is_satisfied()) << cs.first_unsatisfied()->name;
  const std::vector<Fr> want = porep_public_inputs(d.registered_proof, d.replica_id, d.comm_d, d.comm_r, d.seed, k);
  ASSERT_EQ(want.size(), 3u + 18u * 18u);
  const auto& got = cs.assignment().inputs;
  ASSERT_EQ(got.size(), 1u + 3u + 18u);
  for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(got[1 + j], want[j]);
  for (std::size_t j = 0; j < 18; ++j) EXPECT_EQ(got[4 + j], want[3 + 18 * i + j]) << "input " << j;
  std::printf(
      "32 GiB sparse C1 (10 x 18 challenges) made in %.2f s; JSON %.1f MB round trip %.2f s; verify_c1 %.2f s; one "
      "challenge in check mode (%llu constraints) %.1f s\n",
      gen_s, json.size() / 1e6, json_s, check_s, static_cast<unsigned long long>(cs.num_constraints()), circuit_s);
  EXPECT_LT(gen_s, 30.0);
}

TEST(FilecoinPorepGen, Sparse64GiBAndTwoKiBAndWhatSparseCannotMake) {
  const PorepGenParams p64 = params(R::StackedDrg64GiBV1);
  const auto t0 = std::chrono::steady_clock::now();
  const SealCommitPhase1 c64 = generate_porep_c1(p64);
  std::printf("64 GiB sparse C1 made in %.2f s\n", since(t0));
  EXPECT_EQ(refusal(c64, with_prover(p64)), "");
  EXPECT_EQ(c64.partitions[0][0].comm_r_last_proof.kind, MerkleProofKind::Top);
  // A sparse 2 KiB C1 satisfies the whole partition's circuit.
  const PorepGenParams p2 = params(R::StackedDrg2KiBV1_1);
  const SealCommitPhase1 c2 = generate_porep_c1(p2, PorepGenMode::Sparse);
  EXPECT_EQ(refusal(c2, with_prover(p2)), "");
  expect_partition_satisfied(c2, 0);
  // Synthetic and non-interactive challenges come from comm_r: no sparse C1, no 32 GiB seal.
  EXPECT_THROW(sparse_porep_c1(params(R::StackedDrg2KiBV1_1_Feat_SyntheticPoRep)), std::invalid_argument);
  EXPECT_THROW(generate_porep_c1(params(R::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep)), std::invalid_argument);
  EXPECT_THROW(generate_porep_c1(params(R::StackedDrg32GiBV1_1), PorepGenMode::Sealed), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
