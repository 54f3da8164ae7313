// Benchmark circuit: `challenges` inclusion proofs in arity-8 Poseidon trees (neptune parameters)
// of `depth` levels (8^depth leaves). Random siblings per challenge; each root is a public input.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/gadgets/poseidon_neptune.hpp"

namespace cuzk::gadgets::circuits {

template <class F>
struct PoseidonPathWitness {
  F leaf = F::zero(), root = F::zero();
  std::vector<std::vector<F>> siblings;  // 7 per level
  std::vector<unsigned> index;           // position of the running node, 0..7
};

template <class F>
PoseidonPathWitness<F> random_poseidon_path(std::mt19937_64& rng, std::size_t depth, const F* leaf = nullptr) {
  const auto& p = neptune::params<F>(8);
  PoseidonPathWitness<F> w;
  w.leaf = leaf ? *leaf : F::random(rng);
  F cur = w.leaf;
  for (std::size_t l = 0; l < depth; ++l) {
    std::vector<F> s(7);
    for (auto& x : s) x = F::random(rng);
    const unsigned at = static_cast<unsigned>(rng() % 8);
    std::vector<F> ch(s);
    ch.insert(ch.begin() + at, cur);
    cur = poseidon_hash_native<F>(p, ch);
    w.siblings.push_back(std::move(s));
    w.index.push_back(at);
  }
  w.root = cur;
  return w;
}

template <class F, class CS>
AllocatedNum<F> poseidon_path(CS& cs, const PoseidonPathWitness<F>& w, std::size_t depth, const AllocatedNum<F>& leaf) {
  std::vector<PoseidonPathLevel<F>> path(depth);
  for (std::size_t l = 0; l < depth; ++l) {
    for (std::size_t k = 0; k < 7; ++k)
      path[l].siblings.push_back(AllocatedNum<F>::alloc(cs, "sib", [&] { return w.siblings[l][k]; }));
    for (int b = 0; b < 3; ++b)
      path[l].index_bits.push_back(Boolean<F>::alloc(cs, "idx", [&] { return ((w.index[l] >> b) & 1) != 0; }));
  }
  return poseidon_merkle_root<F>(cs, neptune::params<F>(8), leaf, path);
}

template <class F>
struct PoseidonMerkle {
  std::size_t depth = 1, challenges = 1;
  std::vector<PoseidonPathWitness<F>> paths;

  PoseidonMerkle(std::size_t depth_, std::size_t challenges_, std::uint64_t seed = 1)
      : depth(depth_), challenges(challenges_) {
    std::mt19937_64 rng(seed);
    for (std::size_t c = 0; c < challenges; ++c) paths.push_back(random_poseidon_path<F>(rng, depth));
  }

  // Challenges are independent (no wire crosses them): synthesize() is exactly
  // synthesize_challenge(cs, 0), (cs, 1), ... — parallel_witness.hpp relies on this.
  std::size_t num_challenges() const { return challenges; }

  template <class CS>
  void synthesize_challenge(CS& cs, std::size_t c) const {
    cs::Namespace ns(cs, [c] { return "challenge " + std::to_string(c); });
    const auto& w = paths[c];
    auto leaf = AllocatedNum<F>::alloc(cs, "leaf", [&] { return w.leaf; });
    auto root = poseidon_path<F>(cs, w, depth, leaf);
    auto pub = AllocatedNum<F>::alloc_input(cs, "root", [&] { return w.root; });
    enforce_equal<F>(cs, root, pub);
  }

  template <class CS>
  void synthesize(CS& cs) const {
    for (std::size_t c = 0; c < challenges; ++c) synthesize_challenge(cs, c);
  }
};

}  // namespace cuzk::gadgets::circuits
