// Multithreaded WitnessOnly synthesis across challenges: bit-identical to single-threaded
// cs::witness and satisfying the recorded R1CS.
#include <gtest/gtest.h>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "cuzk/gadgets/circuits/porep_like.hpp"
#include "cuzk/gadgets/circuits/poseidon_merkle.hpp"
#include "cuzk/gadgets/circuits/sha256_merkle.hpp"
#include "cuzk/r1cs/eval.hpp"

namespace {
using namespace cuzk;
using Fb = ff::bls12_381::Fr;
using gadgets::circuits::ParallelWitnessOptions;

template <class Circuit>
void expect_identical(const Circuit& c) {
  const auto want = cs::witness<Fb>(c);
  ASSERT_GT(want.aux.size(), 0u);
  for (int threads : {1, 2})
    for (std::size_t per : {std::size_t{1}, std::size_t{2}, std::size_t{100}}) {
      const auto got = gadgets::circuits::parallel_witness<Fb>(c, ParallelWitnessOptions{threads, per});
      EXPECT_TRUE(got.inputs == want.inputs) << threads << " threads, " << per << " per task";
      EXPECT_TRUE(got.aux == want.aux) << threads << " threads, " << per << " per task";
    }
}

template <class Circuit>
void expect_satisfies_record(const Circuit& c) {
  const auto r = cs::record<Fb>(c, /*keep_names=*/true);
  auto w = gadgets::circuits::parallel_witness<Fb>(c, ParallelWitnessOptions{2, 1}).full();
  ASSERT_EQ(w.size(), r.num_vars);
  auto bad = r1cs::check<Fb>(r, w);
  EXPECT_FALSE(bad.has_value()) << "unsatisfied at " << bad->index << " (" << bad->name << ")";
  // The check can fail: a wrong value in the last challenge's aux is caught.
  w[w.size() - 5] += Fb::one();
  EXPECT_TRUE(r1cs::check<Fb>(r, w).has_value());
}

TEST(ParallelWitness, PoseidonMerkleIdenticalAndSatisfying) {
  gadgets::circuits::PoseidonMerkle<Fb> c(2, 5, 11);
  expect_identical(c);
  expect_satisfies_record(c);
}

TEST(ParallelWitness, Sha256MerkleIdenticalAndSatisfying) {
  gadgets::circuits::Sha256Merkle<Fb> c(1, 3, 12);
  expect_identical(c);
  expect_satisfies_record(c);
}

TEST(ParallelWitness, PorepLikeIdenticalAndSatisfying) {
  gadgets::circuits::PorepLike<Fb> c(2, 3, 2, 1, 13);  // 4 nodes, 3 challenges, 2 layers, 1 parent
  expect_identical(c);
  expect_satisfies_record(c);
  // A wrong public comm_r in one challenge is not masked by the parallel path.
  auto bad = c;
  bad.ch[1].comm_r += Fb::one();
  const auto r = cs::record<Fb>(c);
  EXPECT_TRUE(r1cs::check<Fb>(r, gadgets::circuits::parallel_witness<Fb>(bad).full()).has_value());
}

// Challenge i allocates i + 2 wires and one input: the fast path's equal-shape assumption fails,
// so parallel_witness must detect it and fall back to the concatenating path.
struct UnevenChallenges {
  std::size_t n = 5;
  std::size_t num_challenges() const { return n; }
  template <class CS>
  void synthesize_challenge(CS& cs, std::size_t c) const {
    auto x = gadgets::AllocatedNum<Fb>::alloc(cs, "x", [&] { return Fb::from_u64(c + 3); });
    for (std::size_t k = 0; k < c; ++k) x = x.square(cs);
    auto out = gadgets::AllocatedNum<Fb>::alloc_input(cs, "out", [&] { return x.value(); });
    gadgets::enforce_equal<Fb>(cs, x, out);
  }
  template <class CS>
  void synthesize(CS& cs) const {
    for (std::size_t c = 0; c < n; ++c) synthesize_challenge(cs, c);
  }
};

TEST(ParallelWitness, UnevenChallengesFallBack) {
  UnevenChallenges c;
  const auto want = cs::witness<Fb>(c);
  for (std::size_t per : {std::size_t{1}, std::size_t{2}}) {
    const auto got = gadgets::circuits::parallel_witness<Fb>(c, ParallelWitnessOptions{2, per});
    EXPECT_TRUE(got.inputs == want.inputs);
    EXPECT_TRUE(got.aux == want.aux);
    const auto cat = gadgets::circuits::parallel_witness_concat<Fb>(c, ParallelWitnessOptions{2, per});
    EXPECT_TRUE(cat.inputs == want.inputs);
    EXPECT_TRUE(cat.aux == want.aux);
  }
  EXPECT_FALSE(r1cs::check<Fb>(cs::record<Fb>(c), gadgets::circuits::parallel_witness<Fb>(c).full()).has_value());
}

TEST(ParallelWitness, ConcatPathMatchesOnBenchCircuit) {
  gadgets::circuits::PoseidonMerkle<Fb> c(1, 4, 21);
  const auto want = cs::witness<Fb>(c);
  const auto got = gadgets::circuits::parallel_witness_concat<Fb>(c, ParallelWitnessOptions{2, 3});
  EXPECT_TRUE(got.inputs == want.inputs);
  EXPECT_TRUE(got.aux == want.aux);
}

TEST(ParallelWitness, ZeroChallenges) {
  gadgets::circuits::PoseidonMerkle<Fb> c(1, 0, 1);
  const auto got = gadgets::circuits::parallel_witness<Fb>(c);
  EXPECT_EQ(got.inputs.size(), 1u);
  EXPECT_TRUE(got.aux.empty());
}

}  // namespace
