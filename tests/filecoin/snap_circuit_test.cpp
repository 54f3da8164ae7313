// The SnapDeals partition circuit (snap_circuit.hpp, snap_gadgets.hpp, snap_record.hpp): the
// constraint counts rust-fil-proofs asserts (storage-proofs-update tests/circuit.rs and gadgets.rs
// tests, and the table for the sizes the Rust tests skip), the public inputs, a consistent
// synthetic partition satisfying it in every mode, wrong witnesses caught and named, and the
// replicated recording and parallel witness equal to the whole ones.
#include "cuzk/filecoin/snap_circuit.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/snap_challenges.hpp"
#include "cuzk/filecoin/snap_check.hpp"
#include "cuzk/filecoin/snap_record.hpp"
#include "cuzk/filecoin/snap_vanilla_gen.hpp"
#include "cuzk/r1cs/eval.hpp"

namespace cuzk::filecoin {
namespace {

constexpr std::uint64_t kKiB = 32, kMiB = kKiB << 10, kGiB = kMiB << 10;  // in nodes

struct Counts {
  std::size_t constraints, inputs, aux;
};

template <class Circuit>
Counts count(const Circuit& c) {
  cs::CountCS<Fr> cs;
  c.synthesize(cs);
  return {cs.num_constraints(), cs.num_inputs(), cs.num_aux()};
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The circuit of partition k of a synthetic update, from its encoded vanilla proof (the path a
// node's bytes take: decode, check, convert).
EmptySectorUpdateCircuit partition_circuit(const SnapTestUpdate& u, std::size_t k) {
  const auto bytes = encode_snap_partition_proof(make_snap_partition_proof(u, k));
  return snap_partition_circuit(u.params, u.pub, k, bytes);
}

// constants.rs, per allowed size.
TEST(SnapParams, ConstantsPerSectorSize) {
  struct Row {
    std::uint64_t nodes;
    std::size_t partitions, challenges, apex;
    unsigned h;
    TreeShape tree;
  };
  const Row rows[] = {
      {kKiB, 1, 10, 8, 1, {8, 4, 0}},           {2 * kKiB, 1, 10, 8, 1, {8, 0, 0}},
      {4 * kKiB, 1, 10, 8, 1, {8, 2, 0}},       {8 * kKiB, 1, 10, 8, 1, {8, 4, 0}},
      {16 * kKiB, 2, 10, 128, 1, {8, 8, 0}},    {32 * kKiB, 2, 10, 128, 1, {8, 8, 2}},
      {8 * kMiB, 4, 10, 128, 10, {8, 0, 0}},    {16 * kMiB, 4, 10, 128, 10, {8, 2, 0}},
      {512 * kMiB, 16, 86, 128, 10, {8, 0, 0}}, {32 * kGiB, 16, 86, 128, 10, {8, 8, 0}},
      {64 * kGiB, 16, 86, 128, 10, {8, 8, 2}},
  };
  for (const Row& r : rows) {
    const SnapParams p = snap_params(r.nodes);
    EXPECT_EQ(p.partition_count, r.partitions) << r.nodes;
    EXPECT_EQ(p.challenge_count, r.challenges) << r.nodes;
    EXPECT_EQ(p.apex_leaf_count, r.apex) << r.nodes;
    EXPECT_EQ(snap_h_default(r.nodes), r.h) << r.nodes;
    EXPECT_EQ(p.tree_r, r.tree) << r.nodes;
  }
  EXPECT_THROW(snap_params(128 * kKiB), std::invalid_argument);
  EXPECT_EQ(snap_params(RegisteredUpdateProof::StackedDrg32GiBV1), snap_params(32 * kGiB));
  EXPECT_EQ(update_proof_info(RegisteredUpdateProof::StackedDrg2KiBV1).sector_size, 2048u);
  EXPECT_FALSE(update_proof_from_id(5).has_value());
  for (const UpdateProofInfo& info : all_update_proofs()) EXPECT_EQ(update_proof_of_size(info.sector_size), info.id);
  EXPECT_EQ(update_proof_of_size(std::uint64_t{32} << 30), RegisteredUpdateProof::StackedDrg32GiBV1);  // bytes
  EXPECT_FALSE(update_proof_of_size(4096));
}

// circuit.rs PublicInputs::new / to_vec.
TEST(SnapParams, PublicInputs) {
  const Fr a = Fr::from_u64(11), b = Fr::from_u64(22), c = Fr::from_u64(33);
  // 32 GiB: 16 partitions (4 bits), h = 10 = hs[3]: h_select = 8.
  EXPECT_EQ(snap_public_inputs(snap_params(32 * kGiB), 3, 10, a, b, c),
            (std::vector<Fr>{Fr::from_u64(3 | 8 << 4), a, b, c}));
  // 2 KiB: one partition, all hs are 1: h_select = 1 (the first).
  EXPECT_EQ(snap_public_inputs(snap_params(2 * kKiB), 0, 1, a, b, c), (std::vector<Fr>{Fr::one(), a, b, c}));
  EXPECT_THROW(snap_k_and_h_select(snap_params(32 * kGiB), 16, 10), std::invalid_argument);
  EXPECT_THROW(snap_k_and_h_select(snap_params(32 * kGiB), 0, 6), std::invalid_argument);
}

// gadgets.rs test_gen_challenge_bits_gadget: constraints per size, and the bits are the native
// challenges' (with the partition bits appended).
TEST(SnapGadgets, GenChallengeBits) {
  const std::uint64_t sizes[] = {kKiB,     2 * kKiB,  4 * kKiB,   8 * kKiB,  16 * kKiB, 32 * kKiB,
                                 8 * kMiB, 16 * kMiB, 512 * kMiB, 32 * kGiB, 64 * kGiB};
  const std::size_t expected[] = {568, 568, 568, 568, 568, 568, 568, 568, 4544, 5680, 5680};
  const Fr comm_r_new = Fr::from_u64(0x1234567) * Fr::from_u64(0xfedcba987);
  for (std::size_t s = 0; s < std::size(sizes); ++s) {
    const SnapParams p = snap_params(sizes[s]);
    const std::size_t k = p.partition_count - 1;
    cs::CheckCS<Fr> cs;
    const AllocatedNum r = AllocatedNum::alloc(cs, "comm_r_new", [&] { return comm_r_new; });
    const AllocatedNum part = AllocatedNum::alloc(cs, "k", [&] { return Fr::from_u64(k); });
    const std::size_t before = cs.num_constraints();
    const auto bits = snap_gen_challenge_bits(cs, r, part, p.challenge_count, p.random_bits_per_challenge());
    EXPECT_EQ(cs.num_constraints() - before, expected[s]) << sizes[s];
    EXPECT_TRUE(cs.is_satisfied());
    const auto native = snap_challenges(p, comm_r_new, k);
    ASSERT_EQ(bits.size(), native.size());
    for (std::size_t i = 0; i < bits.size(); ++i) {
      std::uint64_t c = std::uint64_t{k} << p.random_bits_per_challenge();
      for (std::size_t b = 0; b < bits[i].size(); ++b) c |= std::uint64_t{bits[i][b].value()} << b;
      EXPECT_EQ(c, native[i]) << sizes[s] << " challenge " << i;
    }
  }
}

// gadgets.rs test_apex_por_gadget: constraints of apex_por over a real TreeD, satisfied.
void apex_por_case(std::uint64_t nodes, std::size_t partitions, std::size_t apex_leafs, std::size_t expected,
                   bool check) {
  std::vector<Fr> leaves(nodes);
  std::mt19937_64 rng(nodes + partitions);
  for (auto& l : leaves) l = Fr::from_u64(rng());
  const MerkleTree t = MerkleTree::dense(MerkleHash::Sha256, TreeShape{2, 0, 0}, leaves);
  const std::size_t height = log2_exact(nodes, "n"), pbits = log2_exact(partitions, "p");
  const std::size_t roots_row = height - pbits, leafs_row = roots_row - log2_exact(apex_leafs, "a");
  for (std::size_t k : {std::size_t{0}, partitions - 1}) {
    auto run = [&](auto& cs) {
      const AllocatedNum comm_d = AllocatedNum::alloc(cs, "comm_d", [&] { return t.root(); });
      std::vector<AllocatedBit> pb;
      for (std::size_t i = 0; i < pbits; ++i)
        pb.push_back(AllocatedBit::alloc(cs, "partition bit", ((k >> i) & 1) != 0));
      std::vector<AllocatedNum> leafs;
      for (std::size_t i = 0; i < apex_leafs; ++i)
        leafs.push_back(AllocatedNum::alloc(cs, "apex leaf", [&] { return t.node(leafs_row, k * apex_leafs + i); }));
      std::vector<std::vector<AllocatedNum>> path;
      for (std::size_t i = 0; i < pbits; ++i)
        path.push_back({AllocatedNum::alloc(cs, "sibling", [&] { return t.node(roots_row + i, (k >> i) ^ 1); })});
      const std::size_t before = cs.num_constraints();
      snap_apex_por(cs, leafs, pb, path, comm_d);
      EXPECT_EQ(cs.num_constraints() - before, expected) << nodes << " " << partitions << "x" << apex_leafs;
    };
    if (check) {
      cs::CheckCS<Fr> cs;
      run(cs);
      EXPECT_TRUE(cs.is_satisfied()) << (cs.first_unsatisfied() ? cs.first_unsatisfied()->name : "");
    } else {
      cs::CountCS<Fr> cs;
      run(cs);
    }
  }
}

TEST(SnapGadgets, ApexPor) {
  apex_por_case(kKiB, 1, 8, 317654, true);       // 1 .. 8 KiB
  apex_por_case(16 * kKiB, 8, 8, 453797, true);  // test_apex_por_gadget_16kib_4_8_partitions
  apex_por_case(16 * kKiB, 4, 16, 771448, true);
  apex_por_case(16 * kKiB, 2, 128, 5808515, false);  // 16 and 32 KiB
}

// tests/circuit.rs test_empty_sector_update_circuit_{1,2,4,8,16,32}kib and _constraints_32gib; the
// issue's counts for 8 MiB, 512 MiB and 64 GiB. The whole blank circuit is synthesized (counting
// mode: nothing computed or recorded). Every size has 5 public inputs, ONE included.
TEST(SnapCircuit, ConstraintCounts) {
  const std::pair<std::uint64_t, std::size_t> cases[] = {
      {kKiB, 1248389},      {2 * kKiB, 1705039},  {4 * kKiB, 2165109},    {8 * kKiB, 2620359},   {16 * kKiB, 6300021},
      {32 * kKiB, 6760091}, {8 * kMiB, 10007503}, {512 * kMiB, 57450479}, {32 * kGiB, 81049499}, {64 * kGiB, 85006101},
  };
  for (const auto& [nodes, expected] : cases) {
    const auto t0 = std::chrono::steady_clock::now();
    const Counts c = count(EmptySectorUpdateCircuit::blank(snap_params(nodes)));
    EXPECT_EQ(c.constraints, expected) << nodes << " nodes";
    EXPECT_EQ(c.inputs, 5u) << nodes << " nodes";
    std::printf("  %llu nodes: %zu constraints, %zu wires (%.1f s)\n", static_cast<unsigned long long>(nodes),
                c.constraints, c.inputs + c.aux, seconds_since(t0));
  }
}

// The sizes from the header + one challenge recording (what record_snap_circuit replicates) are
// the whole circuit's, at a production size whose challenges take bits from 10 digests.
TEST(SnapCircuit, SizeByPartsAt32GiB) {
  const SnapParams p = snap_params(32 * kGiB);
  ASSERT_EQ(p.digests_per_partition(), 10u);
  const SnapCircuitSize size = snap_circuit_size(p);
  const Counts c = count(EmptySectorUpdateCircuit::blank(p));
  EXPECT_EQ(size.constraints, 81049499u);
  EXPECT_EQ(size.public_inputs, 4u);
  EXPECT_EQ(size.vars, c.inputs + c.aux);
}

// A shape with two partitions, several digests of challenge bits (4 random bits each: 63 per
// digest, 70 challenges) and no TreeD path below the apex leaves: not a Filecoin size, it makes
// the replication cover challenges whose random bits come from a later digest, cheaply.
SnapParams two_digest_params() {
  SnapParams p = snap_params(kKiB);
  p.partition_count = 2, p.partition_bit_len = 1;
  p.apex_leaf_count = 16, p.apex_leaf_bit_len = 4;
  p.challenge_count = 70;
  validate_snap_params(p);
  return p;
}

// record_snap_circuit is the whole recording (same wires, rows, coefficients, order).
TEST(SnapCircuit, ReplicatedRecordingEqualsWholeRecording) {
  for (const SnapParams& p : {snap_params(kKiB), snap_params(2 * kKiB), two_digest_params()}) {
    const r1cs::R1CS<Fr> whole = cs::record<Fr>(EmptySectorUpdateCircuit::blank(p));
    const r1cs::R1CS<Fr> fast = record_snap_circuit(p);
    EXPECT_EQ(fast.num_vars, whole.num_vars);
    EXPECT_EQ(fast.num_public, 4u);
    EXPECT_EQ(fast.num_constraints, whole.num_constraints);
    EXPECT_TRUE(fast.A == whole.A && fast.B == whole.B && fast.C == whole.C)
        << p.sector_nodes << " nodes, " << p.challenge_count << " challenges";
    const SnapCircuitSize size = snap_circuit_size(p);
    EXPECT_EQ(size.a_nnz, whole.A.nnz());
    EXPECT_EQ(size.b_nnz, whole.B.nnz());
    EXPECT_EQ(size.c_nnz, whole.C.nnz());
    EXPECT_EQ(size.constraints, whole.num_constraints);
    EXPECT_EQ(size.vars, whole.num_vars);
  }
  EXPECT_EQ(two_digest_params().digests_per_partition(), 2u);
}

// A consistent synthetic partition satisfies the circuit: check mode, the recorded R1CS with the
// witness, the parallel witness equal to the sequential one, the public inputs the verifier's.
void expect_satisfied(const SnapTestUpdate& u, std::size_t k) {
  const EmptySectorUpdateCircuit c = partition_circuit(u, k);
  cs::CheckCS<Fr> check;
  c.synthesize(check);
  ASSERT_TRUE(check.is_satisfied()) << check.first_unsatisfied()->name;
  const std::vector<Fr> inputs(check.assignment().inputs.begin() + 1, check.assignment().inputs.end());
  EXPECT_EQ(inputs, snap_public_inputs(u.params, k, u.pub.h, u.pub.comm_r_old, u.pub.comm_d_new, u.pub.comm_r_new));
  const std::vector<Fr> w = snap_witness_full(c);
  EXPECT_EQ(w, check.assignment().full());
  const r1cs::R1CS<Fr> r = record_snap_circuit(u.params);
  const auto bad = r1cs::check<Fr>(r, w);
  EXPECT_FALSE(bad.has_value()) << "row " << bad->index;
}

TEST(SnapCircuit, SyntheticPartitionSatisfies1KiB) {
  expect_satisfied(make_snap_test_update(snap_params(kKiB), 1, 7), 0);
}

TEST(SnapCircuit, SyntheticPartitionSatisfies2KiB) {
  expect_satisfied(make_snap_test_update(snap_params(2 * kKiB), 1, 8), 0);
}

// The witness written in place into a caller's buffer (a reused one: its old values ignored)
// equals the sequential witness; a buffer of the wrong size, or a layout of another size, is refused.
TEST(SnapCircuit, WitnessIntoReusedBufferAndWrongSizes) {
  const SnapTestUpdate u = make_snap_test_update(snap_params(kKiB), 1, 9);
  const EmptySectorUpdateCircuit c = partition_circuit(u, 0);
  const SnapWitnessLayout l = snap_witness_layout(u.params);
  const std::vector<Fr> expected = cs::witness<Fr>(c).full();
  ASSERT_EQ(l.size(), expected.size());
  std::vector<Fr> buf(l.size(), Fr::from_u64(12345));
  snap_witness_into(c, l, buf);
  EXPECT_EQ(buf, expected);
  std::vector<Fr> short_buf(l.size() - 1);
  EXPECT_THROW(snap_witness_into(c, l, short_buf), std::invalid_argument);
  const SnapWitnessLayout other = snap_witness_layout(snap_params(2 * kKiB));
  std::vector<Fr> other_buf(other.size());
  EXPECT_THROW(snap_witness_into(c, other, other_buf), std::invalid_argument);
}

// An update of a 2 KiB sector sealed by the PoRep generator (the old replica is the sealed
// sector's TreeR leaves, comm_r_old its comm_r): the vanilla proofs pass the checks and satisfy
// the circuit; another sector's comm_r as comm_r_old is refused.
TEST(SnapCircuit, UpdateOfSealedSectorSatisfies2KiB) {
  const SealedSector sector = seal_sector(porep_gen_params(RegisteredSealProof::StackedDrg2KiBV1_1, 3));
  const SnapParams p = snap_params(2 * kKiB);
  const SnapTestUpdate u = snap_update_of_sealed(sector, p, 1, 3);
  EXPECT_EQ(u.pub.comm_r_old, sector.comm_r());
  expect_satisfied(u, 0);
  SnapPublic other = u.pub;
  other.comm_r_old = seal_sector(porep_gen_params(RegisteredSealProof::StackedDrg2KiBV1_1, 4)).comm_r();
  EXPECT_THROW(verify_snap_partition_proof(p, other, 0, make_snap_partition_proof(u, 0)), DecodeError);
  EXPECT_THROW(snap_update_of_sealed(sector, snap_params(4 * kKiB), 1, 3), std::invalid_argument);
}

// 16 KiB: the first size with two partitions (a partition path), partition 1; check mode only.
TEST(SnapCircuit, SyntheticPartitionSatisfies16KiBPartition1) {
  const SnapTestUpdate u = make_snap_test_update(snap_params(16 * kKiB), 1, 12);
  cs::CheckCS<Fr> check;
  partition_circuit(u, 1).synthesize(check);
  EXPECT_TRUE(check.is_satisfied()) << check.first_unsatisfied()->name;
  EXPECT_EQ(check.num_constraints(), 6300021u);
}

TEST(SnapCircuit, SyntheticPartitionSatisfiesTwoDigestShape) {
  const SnapTestUpdate u = make_snap_test_update(two_digest_params(), 1, 9);
  expect_satisfied(u, 0);
  expect_satisfied(u, 1);
}

// A wrong value is caught and the constraint named: a data leaf that is not the one the new
// replica was encoded from breaks TreeRNew's root (leaf_r_new is computed from it), and random
// single-wire faults are all caught.
TEST(SnapCircuit, WrongWitnessIsCaught) {
  const SnapTestUpdate u = make_snap_test_update(snap_params(kKiB), 1, 10);
  const EmptySectorUpdateCircuit good = partition_circuit(u, 0);
  SnapPartitionValues v = good.values();
  v.challenges[2].leaf_d_new += Fr::one();
  {
    cs::CheckCS<Fr> check;
    EmptySectorUpdateCircuit(u.params, v).synthesize(check);
    ASSERT_FALSE(check.is_satisfied());
    EXPECT_EQ(check.first_unsatisfied()->name, "por tree_r_new (c_index=2)/calculated root == provided root");
  }
  v = good.values();
  v.apex_leafs[5] += Fr::one();
  {
    cs::CheckCS<Fr> check;
    EmptySectorUpdateCircuit(u.params, v).synthesize(check);
    ASSERT_FALSE(check.is_satisfied());
    EXPECT_EQ(check.first_unsatisfied()->name, "apex_gadget/partition-tree por/calculated root == provided root");
  }
  const std::vector<Fr> aux = cs::witness<Fr>(good).aux;
  std::mt19937_64 rng(3);
  for (int t = 0; t < 6; ++t) {
    const auto idx = static_cast<std::uint32_t>(rng() % aux.size());
    cs::CheckCS<Fr> check;
    check.inject_fault(idx, aux[idx] + Fr::one());
    good.synthesize(check);
    ASSERT_FALSE(check.is_satisfied()) << "aux " << idx;
    EXPECT_FALSE(check.first_unsatisfied()->name.empty());
  }
}

// The circuit refuses values of the wrong shape before allocating anything (circuit.rs asserts).
TEST(SnapCircuit, RefusesMalformedValues) {
  const SnapTestUpdate u = make_snap_test_update(snap_params(kKiB), 1, 11);
  const SnapPartitionValues good = partition_circuit(u, 0).values();
  SnapPartitionValues v = good;
  v.apex_leafs.pop_back();
  EXPECT_THROW(EmptySectorUpdateCircuit(u.params, v), std::invalid_argument);
  v = good;
  v.challenges[1].path_r_new.pop_back();
  EXPECT_THROW(EmptySectorUpdateCircuit(u.params, v), std::invalid_argument);
  v = good;
  v.k_and_h_select = Fr::from_u64(3);  // two h_select bits
  EXPECT_THROW(EmptySectorUpdateCircuit(u.params, v), std::invalid_argument);
  v = good;
  v.k_and_h_select = Fr::from_u64(1 << 6);  // a bit above h_select
  EXPECT_THROW(EmptySectorUpdateCircuit(u.params, v), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
