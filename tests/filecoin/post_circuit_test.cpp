// The FallbackPoSt circuit: the constraint and input counts of every registered PoSt proof
// (the 32 GiB ones published by rust-fil-proofs, the others following from the same gadgets),
// the recorded system independent of the witness (one key per shape), and the slot-parallel
// witness identical to the sequential one on a satisfied 2 KiB partition of native trees.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/filecoin/post_circuit.hpp"
#include "cuzk/filecoin/post_record.hpp"
#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "filecoin/merkle_native.hpp"
#include "support/circuit_modes.hpp"

namespace cuzk::filecoin {
namespace {

struct Expected {
  RegisteredPoStProof proof;
  std::size_t constraints, inputs;  // inputs with ONE
};

TEST(FilecoinPostCircuit, CountsOfEveryRegisteredPoStProof) {
  const Expected cases[] = {
      {RegisteredPoStProof::StackedDrgWindow2KiBV1, 21'866, 23},
      {RegisteredPoStProof::StackedDrgWindow8MiBV1, 64'266, 23},
      {RegisteredPoStProof::StackedDrgWindow512MiBV1, 85'466, 23},
      {RegisteredPoStProof::StackedDrgWindow32GiBV1, 125'279'217, 25'840},
      {RegisteredPoStProof::StackedDrgWindow64GiBV1, 129'887'900, 25'301},
      {RegisteredPoStProof::StackedDrgWindow2KiBV1_2, 21'866, 23},
      {RegisteredPoStProof::StackedDrgWindow32GiBV1_2, 125'279'217, 25'840},
      {RegisteredPoStProof::StackedDrgWindow64GiBV1_2, 129'887'900, 25'301},
      {RegisteredPoStProof::StackedDrgWinning2KiBV1, 90'750, 133},
      {RegisteredPoStProof::StackedDrgWinning8MiBV1, 230'670, 133},
      {RegisteredPoStProof::StackedDrgWinning512MiBV1, 300'630, 133},
      {RegisteredPoStProof::StackedDrgWinning32GiBV1, 370'590, 133},
      {RegisteredPoStProof::StackedDrgWinning64GiBV1, 391'314, 133},
  };
  for (const auto& e : cases) {
    const auto& info = post_proof_info(e.proof);
    cs::CountCS<Fr> count;
    FallbackPostCircuit::blank(post_shape(info)).synthesize(count);
    EXPECT_EQ(count.num_constraints(), e.constraints) << info.name;
    EXPECT_EQ(count.num_inputs(), e.inputs) << info.name;
  }
}

// A partition of `shape` over native trees: every slot its own sector (distinct trees), the
// challenged leaves random; returns the circuit and, in `public_inputs`, what it must expose.
FallbackPostCircuit random_partition(const PostShape& shape, std::uint64_t seed, std::vector<Fr>* public_inputs) {
  std::mt19937_64 rng(seed);
  std::vector<PostSectorValues> sectors;
  for (std::size_t k = 0; k < shape.sectors; ++k) {
    std::vector<Fr> data(shape.sector_nodes);
    for (auto& x : data) x = Fr::random(rng);
    const test::NativeTree tree(shape.tree.level_arities(shape.sector_nodes), data, test::poseidon_node);
    PostSectorValues s;
    s.comm_r_last = tree.root();
    s.comm_c = Fr::random(rng);
    s.comm_r = poseidon_hash2(s.comm_c, s.comm_r_last);
    public_inputs->push_back(s.comm_r);
    for (std::size_t c = 0; c < shape.challenges; ++c) {
      const std::uint64_t leaf = rng() % shape.sector_nodes;
      s.leafs.push_back(tree.leaf(leaf));
      s.paths.push_back(tree.path(leaf));
      public_inputs->push_back(Fr::from_u64(leaf));
    }
    sectors.push_back(std::move(s));
  }
  return FallbackPostCircuit(shape, std::move(sectors));
}

TEST(FilecoinPostCircuit, SatisfiedByAPartitionOfNativeTreesWithItsPublicInputs) {
  for (auto proof : {RegisteredPoStProof::StackedDrgWindow2KiBV1, RegisteredPoStProof::StackedDrgWinning2KiBV1}) {
    const PostShape shape = post_shape(post_proof_info(proof));
    std::vector<Fr> pub;
    const FallbackPostCircuit c = random_partition(shape, 17, &pub);
    cuzk::test::expect_modes_agree<Fr>(c);
    const auto w = cs::witness<Fr>(c);
    ASSERT_EQ(w.inputs.size(), pub.size() + 1);
    for (std::size_t i = 0; i < pub.size(); ++i) EXPECT_EQ(w.inputs[i + 1], pub[i]) << "input " << i;
    cuzk::test::expect_faults_caught<Fr>(c, 6, 3);
  }
}

TEST(FilecoinPostCircuit, RecordedSystemDoesNotDependOnTheWitness) {
  const PostShape shape = post_shape(post_proof_info(RegisteredPoStProof::StackedDrgWindow2KiBV1));
  std::vector<Fr> pub1, pub2;
  const auto blank = cs::record<Fr>(FallbackPostCircuit::blank(shape));
  const auto a = cs::record<Fr>(random_partition(shape, 1, &pub1));
  const auto b = cs::record<Fr>(random_partition(shape, 2, &pub2));
  for (const auto* r : {&a, &b}) {
    EXPECT_EQ(r->num_vars, blank.num_vars);
    EXPECT_EQ(r->num_public, blank.num_public);
    EXPECT_EQ(r->A.cols, blank.A.cols);
    EXPECT_EQ(r->A.vals, blank.A.vals);
    EXPECT_EQ(r->B.cols, blank.B.cols);
    EXPECT_EQ(r->B.vals, blank.B.vals);
    EXPECT_EQ(r->C.cols, blank.C.cols);
    EXPECT_EQ(r->C.vals, blank.C.vals);
    EXPECT_EQ(r->A.row_ptr, blank.A.row_ptr);
  }
}

TEST(FilecoinPostCircuit, SlotParallelWitnessEqualsTheSequentialOne) {
  const PostShape shape = post_shape(post_proof_info(RegisteredPoStProof::StackedDrgWinning2KiBV1));
  std::vector<Fr> pub;
  const FallbackPostCircuit c = random_partition(shape, 5, &pub);
  const auto seq = cs::witness<Fr>(c);
  for (std::size_t per : {1u, 7u, 66u}) {
    const auto par = gadgets::circuits::parallel_witness<Fr>(c, {0, per});
    EXPECT_EQ(par.inputs, seq.inputs) << per;
    EXPECT_EQ(par.aux, seq.aux) << per;
    EXPECT_EQ(gadgets::circuits::parallel_witness_full<Fr>(c, {0, per}), seq.full()) << per;
  }
}

TEST(FilecoinPostCircuit, SlotReplicatedRecordingEqualsTheWholeRecording) {
  for (auto proof : {RegisteredPoStProof::StackedDrgWindow2KiBV1, RegisteredPoStProof::StackedDrgWinning2KiBV1,
                     RegisteredPoStProof::StackedDrgWindow8MiBV1}) {
    const PostShape shape = post_shape(post_proof_info(proof));
    const auto whole = cs::record<Fr>(FallbackPostCircuit::blank(shape));
    const auto fast = record_post_circuit(shape);
    EXPECT_TRUE(fast == whole) << post_proof_info(proof).name;
    EXPECT_NO_THROW(fast.validate());
  }
}

TEST(FilecoinPostCircuit, RefusesSlotsOfTheWrongShape) {
  const PostShape shape = post_shape(post_proof_info(RegisteredPoStProof::StackedDrgWindow2KiBV1));
  std::vector<PostSectorValues> one{blank_post_sector(shape)};
  EXPECT_THROW(FallbackPostCircuit(shape, one), std::invalid_argument);
  auto s = blank_post_sector(shape);
  s.paths[3].pop_back();
  EXPECT_THROW(FallbackPostCircuit(shape, {s, s}), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
