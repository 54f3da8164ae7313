// The StackedDRG circuit's shape against rust-fil-proofs: the constraint and input counts of one
// partition for every sector size (filecoin-proofs' published figures) and of the test graphs
// storage-proofs-porep/tests/stacked_circuit.rs asserts (8 nodes per base tree, 2 layers, one
// challenge); the challenge-replicated recording and the step-parallel witness against a
// sequential synthesis of the whole circuit.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <random>
#include <string>
#include <utility>

#include "cuzk/filecoin/c1_circuit.hpp"
#include "cuzk/filecoin/porep_circuit.hpp"
#include "cuzk/filecoin/porep_record.hpp"
#include "cuzk/filecoin/porep_vanilla_gen.hpp"
#include "cuzk/filecoin/porep_witness.hpp"

namespace cuzk::filecoin {
namespace {

struct Counts {
  std::size_t constraints, inputs;
};

Counts count(const PorepShape& shape) {
  cs::CountCS<Fr> c;
  StackedCircuit::blank(shape).synthesize(c);
  return {c.num_constraints(), c.num_inputs()};
}

TEST(FilecoinPorepCircuit, TestGraphCountsOfTheRustTests) {
  struct Case {
    TreeShape tree;
    std::size_t constraints;
  };
  // test_stacked_porep_circuit_poseidon_base_2 / base_8 / sub_8_4 / top_8_4_2: 22 inputs each.
  const Case cases[] = {{{2, 0, 0}, 1'206'212}, {{8, 0, 0}, 1'199'620}, {{8, 4, 0}, 1'296'576}, {{8, 4, 2}, 1'346'982}};
  for (const auto& c : cases) {
    const std::uint64_t base_trees = (c.tree.sub_arity ? c.tree.sub_arity : 1) * (c.tree.top_arity ? c.tree.top_arity : 1);
    const Counts got = count(PorepShape{c.tree, 8 * base_trees, 2, 1});
    EXPECT_EQ(got.constraints, c.constraints) << c.tree.base_arity << "-" << c.tree.sub_arity << "-" << c.tree.top_arity;
    EXPECT_EQ(got.inputs, 22u);
  }
}

TEST(FilecoinPorepCircuit, PartitionCountsOfEverySectorSize) {
  struct Case {
    RegisteredSealProof proof;
    std::size_t constraints, inputs;
  };
  const Case cases[] = {
      {RegisteredSealProof::StackedDrg2KiBV1_1, 2'687'921, 40},
      {RegisteredSealProof::StackedDrg8MiBV1_1, 3'844'929, 40},
      {RegisteredSealProof::StackedDrg512MiBV1_1, 4'423'433, 40},
      {RegisteredSealProof::StackedDrg32GiBV1_1, 130'278'541, 328},
      {RegisteredSealProof::StackedDrg64GiBV1_1, 131'185'849, 328},
      {RegisteredSealProof::StackedDrg2KiBV1, 2'687'921, 40},
  };
  for (const auto& c : cases) {
    const auto& info = seal_proof_info(c.proof);
    const Counts got = count(porep_shape(info));
    EXPECT_EQ(got.constraints, c.constraints) << info.name;
    EXPECT_EQ(got.inputs, c.inputs) << info.name;
  }
}

TEST(FilecoinPorepCircuit, CountingAndRecordingSeeTheSameSystem) {
  // Gadgets may skip work in modes that record nothing (MultiEq keeps no combinations there); the
  // constraints and wires must be the same in every mode.
  const PorepShape shape{{8, 0, 0}, 8, 2, 1};
  cs::CountCS<Fr> c;
  StackedCircuit::blank(shape).synthesize(c);
  const auto r = cs::record<Fr>(StackedCircuit::blank(shape));
  EXPECT_EQ(c.num_constraints(), r.num_constraints);
  EXPECT_EQ(c.num_inputs() + c.num_aux(), r.num_vars);
  EXPECT_EQ(c.num_inputs(), r.num_public + 1);
}

// A partition with random values of the right shape (not a satisfied one: the witness's
// construction does not depend on satisfaction).
StackedCircuit random_partition(const PorepShape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto path = [&](const TreeShape& t) {
    std::vector<PathLevel> p;
    for (unsigned a : t.level_arities(shape.nodes)) {
      PathLevel l{{}, static_cast<std::uint32_t>(rng() % a)};
      for (unsigned k = 0; k + 1 < a; ++k) l.siblings.push_back(Fr::random(rng));
      p.push_back(l);
    }
    return p;
  };
  auto column = [&] {
    PorepColumn c;
    for (std::size_t l = 0; l < shape.layers; ++l) c.rows.push_back(Fr::random(rng));
    c.path = path(shape.tree);
    return c;
  };
  std::vector<PorepChallengeValues> ch(shape.challenges);
  for (auto& v : ch) {
    v.challenge = rng() % shape.nodes;
    v.data_leaf = Fr::random(rng);
    v.comm_d_path = path(TreeShape{2, 0, 0});
    v.comm_r_last_path = path(shape.tree);
    v.comm_c_path = path(shape.tree);
    for (std::size_t k = 0; k < kSdrDrgParents; ++k) v.drg_parents.push_back(column());
    for (std::size_t k = 0; k < kSdrExpParents; ++k) v.exp_parents.push_back(column());
  }
  const PorepHeaderValues h{Fr::random(rng), Fr::random(rng), Fr::random(rng), Fr::random(rng), Fr::random(rng)};
  return StackedCircuit(shape, h, std::move(ch));
}

TEST(FilecoinPorepCircuit, ChallengeReplicatedRecordingEqualsTheWholeRecording) {
  for (const PorepShape& shape : {PorepShape{{8, 0, 0}, 64, 2, 3}, PorepShape{{8, 4, 2}, 512, 2, 2}}) {
    const auto whole = cs::record<Fr>(StackedCircuit::blank(shape));
    const auto fast = record_porep_circuit(shape);
    EXPECT_TRUE(fast == whole) << shape.nodes;
    const PorepCircuitSize n = porep_circuit_size(shape);
    EXPECT_EQ(n.public_inputs, whole.num_public);
    EXPECT_EQ(n.vars, whole.num_vars);
    EXPECT_EQ(n.constraints, whole.num_constraints);
    EXPECT_EQ(n.a_nnz, whole.A.nnz());
    EXPECT_EQ(n.b_nnz, whole.B.nnz());
    EXPECT_EQ(n.c_nnz, whole.C.nnz());
  }
}

// The step-parallel witness (porep_witness.hpp) against a sequential synthesis of the whole circuit.
void expect_witness_equal(const StackedCircuit& c, const std::string& what) {
  const std::vector<Fr> want = cs::witness<Fr>(c).full();
  const std::vector<Fr> got = porep_witness_full(c);
  ASSERT_EQ(got.size(), want.size()) << what;
  ASSERT_EQ(porep_witness_layout(c.shape()).size(), want.size()) << what;
  std::size_t differ = 0, first = 0;
  for (std::size_t i = got.size(); i-- > 0;)
    if (got[i] != want[i]) ++differ, first = i;
  EXPECT_EQ(differ, 0u) << what << ": first differing wire " << first;
}

TEST(FilecoinPorepCircuit, StepParallelWitnessEqualsTheSequentialOne) {
  expect_witness_equal(random_partition(PorepShape{{8, 0, 0}, 64, 2, 3}, 7), "8-0-0, 64 nodes, 3 challenges");
  expect_witness_equal(random_partition(PorepShape{{8, 4, 2}, 512, 2, 2}, 8), "8-4-2, 512 nodes, 2 challenges");
  // The 32 GiB circuit's shape (8-8-0 trees of 2^30 nodes, 11 layers: expander parents, 30 TreeD
  // levels), two of its 18 challenges.
  expect_witness_equal(random_partition(PorepShape{{8, 8, 0}, std::uint64_t{1} << 30, 11, 2}, 9), "32 GiB shape");
}

TEST(FilecoinPorepCircuit, StepParallelWitnessOfSealedAndSparseC1s) {
  // A sealed 2 KiB sector and a sparse 8 MiB one: satisfied partitions, as the prover gets them.
  for (auto [proof, mode] : {std::pair{RegisteredSealProof::StackedDrg2KiBV1_1, PorepGenMode::Sealed},
                             std::pair{RegisteredSealProof::StackedDrg8MiBV1_1, PorepGenMode::Sparse}}) {
    const SealCommitPhase1 c1 = generate_porep_c1(porep_gen_params(proof, 3), mode);
    expect_witness_equal(c1_partition_circuit(c1, 0), std::string(seal_proof_info(proof).name));
  }
}

TEST(FilecoinPorepCircuit, StepParallelWitnessOnAnyThreadsAndIntoAnUnclearedBuffer) {
  const StackedCircuit c = random_partition(PorepShape{{8, 4, 0}, 256, 2, 3}, 11);
  const std::vector<Fr> want = cs::witness<Fr>(c).full();
  std::mt19937_64 rng(12);
  for (int threads : {1, 2}) {
    // Every wire is written: a buffer of leftovers comes back as the assignment.
    std::vector<Fr> got(want.size());
    for (Fr& x : got) x = Fr::random(rng);
    tbb::task_arena arena(threads);
    arena.execute([&] { porep_witness_into(c, got); });
    EXPECT_TRUE(got == want) << threads << " threads";
  }
  std::vector<Fr> short_by_one(want.size() - 1);
  EXPECT_THROW(porep_witness_into(c, short_by_one), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
