// PoR inclusion circuits against storage-proofs-core tests/por_circuit.rs: the constraint and
// input counts it asserts for each tree (64 leaves per base tree), the public inputs
// PoRCompound::generate_public_inputs gives (the leaf index, then the root when public), the
// circuit satisfied by paths of native trees, and a wrong sibling or index refused.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/filecoin/hashers.hpp"
#include "cuzk/filecoin/por.hpp"
#include "filecoin/merkle_native.hpp"
#include "support/circuit_modes.hpp"

namespace cuzk::filecoin {
namespace {

template <class H>
struct PorCase {
  TreeShape shape;
  std::uint64_t leaves = 0;
  Fr leaf, root;
  std::vector<PathLevel> path;
  bool private_root = false;
  template <class CS>
  void synthesize(CS& cs) const {
    por_circuit<H>(cs, shape, leaves, leaf, path, nullptr, root, private_root);
  }
};

struct TreeCase {
  TreeShape shape;
  std::size_t public_constraints;   // test_por_circuit (root public, 3 inputs)
  std::size_t private_constraints;  // test_por_circuit_private_root (0: not asserted there)
};

template <class H>
void run_tree(const TreeCase& tc, const test::NodeHash& node, std::size_t samples, std::uint64_t seed) {
  const std::uint64_t base_trees = (tc.shape.sub_arity ? tc.shape.sub_arity : 1) * (tc.shape.top_arity ? tc.shape.top_arity : 1);
  const std::uint64_t leaves = 64 * base_trees;  // get_base_tree_count · 64, as the Rust test
  std::mt19937_64 rng(seed);
  std::vector<Fr> data(leaves);
  for (auto& x : data) x = Fr::random(rng);
  const test::NativeTree tree(tc.shape.level_arities(leaves), data, node);
  const std::string name = std::to_string(tc.shape.base_arity) + "-" + std::to_string(tc.shape.sub_arity) + "-" +
                           std::to_string(tc.shape.top_arity);
  for (std::size_t s = 0; s < samples; ++s) {
    const std::uint64_t i = samples >= leaves ? s : rng() % leaves;
    for (bool priv : {false, true}) {
      if (priv && tc.private_constraints == 0) continue;
      PorCase<H> c{tc.shape, leaves, tree.leaf(i), tree.root(), tree.path(i), priv};
      const auto rep = cuzk::test::expect_modes_agree<Fr>(c);
      EXPECT_EQ(rep.constraints, priv ? tc.private_constraints : tc.public_constraints) << name << " leaf " << i;
      ASSERT_EQ(rep.inputs, priv ? 2u : 3u) << name;
      cs::WitnessCS<Fr> w;
      c.synthesize(w);
      EXPECT_EQ(w.assignment().inputs[1], Fr::from_u64(i)) << name << ": the packed path is the leaf index";
      if (!priv) {
        EXPECT_EQ(w.assignment().inputs[2], tree.root()) << name;
      }
    }
  }
  // A wrong sibling, or the path of another leaf, does not reach the root.
  const std::uint64_t i = rng() % leaves;
  PorCase<H> bad{tc.shape, leaves, tree.leaf(i), tree.root(), tree.path(i), false};
  bad.path.back().siblings[0] += Fr::one();
  EXPECT_TRUE(cs::check<Fr>(bad).has_value()) << name;
  PorCase<H> moved{tc.shape, leaves, tree.leaf(i), tree.root(), tree.path((i + 1) % leaves), false};
  const auto fail = cs::check<Fr>(moved);
  ASSERT_TRUE(fail.has_value()) << name;
  EXPECT_NE(fail->name.find("enforce root is correct"), std::string::npos) << fail->name;
}

TEST(FilecoinPor, PoseidonTreesMatchTheRustCounts) {
  // storage-proofs-core/tests/por_circuit.rs: test_por_circuit_poseidon_* and *_private_root.
  const TreeCase cases[] = {
      {{2, 0, 0}, 1887, 1886}, {{4, 0, 0}, 1164, 1163}, {{8, 0, 0}, 1063, 1062}, {{8, 2, 0}, 1377, 0},
      {{8, 4, 2}, 1764, 0},    {{8, 8, 0}, 1593, 0},    {{8, 8, 2}, 1907, 0},    {{8, 2, 4}, 1764, 0},
  };
  for (const auto& tc : cases) run_tree<PoseidonHasher>(tc, test::poseidon_node, 8, tc.shape.base_arity);
}

TEST(FilecoinPor, Sha256TreesMatchTheRustCounts) {
  // test_por_circuit_sha256_base_2 / _4 / _8 (SHA-256 TreeD paths, as PoRep's comm_d uses).
  const TreeCase cases[] = {{{2, 0, 0}, 272'295, 0}, {{4, 0, 0}, 216'258, 0}, {{8, 0, 0}, 250'987, 0}};
  for (const auto& tc : cases) run_tree<Sha256Hasher>(tc, test::sha256_node, 1, 7 + tc.shape.base_arity);
}

// por_no_challenge_input: the index bits come from the caller, the root is allocated by it.
template <class H>
void check_no_challenge_input(const TreeShape& shape, std::uint64_t leaves, const test::NodeHash& node,
                              std::vector<std::uint64_t> indices) {
  std::mt19937_64 rng(11);
  std::vector<Fr> data(leaves);
  for (auto& x : data) x = Fr::random(rng);
  const test::NativeTree tree(shape.level_arities(leaves), data, node);
  for (std::uint64_t i : indices) {
    for (bool corrupt : {false, true}) {
      cs::CheckCS<Fr> cs;
      std::vector<AllocatedBit> bits;
      for (std::size_t b = 0; b < shape.index_bits(leaves); ++b)
        bits.push_back(AllocatedBit::alloc(cs, "bit", ((i >> b) & 1) != 0));
      auto leaf = AllocatedNum::alloc_value(cs, "leaf", tree.leaf(i));
      std::vector<std::vector<AllocatedNum>> path;
      for (const auto& lv : tree.path(i)) {
        path.emplace_back();
        for (const Fr& s : lv.siblings) path.back().push_back(AllocatedNum::alloc_value(cs, "s", s));
      }
      auto root = AllocatedNum::alloc_value(cs, "root", corrupt ? tree.root() + Fr::one() : tree.root());
      por_no_challenge_input<H>(cs, shape, bits, leaf, path, root);
      EXPECT_EQ(cs.is_satisfied(), !corrupt) << "leaf " << i;
    }
  }
}

TEST(FilecoinPor, NoChallengeInputVariantReachesTheRoot) {
  check_no_challenge_input<PoseidonHasher>({8, 8, 2}, 64 * 16, test::poseidon_node, {0, 517, 64 * 16 - 1});
  check_no_challenge_input<Sha256Hasher>({2, 0, 0}, 16, test::sha256_node, {0, 11});
}

}  // namespace
}  // namespace cuzk::filecoin
