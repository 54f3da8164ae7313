// Merkle inclusion gadgets against roots computed natively (OpenSSL SHA-256, native Poseidon).
#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <random>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/gadgets/poseidon_neptune.hpp"
#include "support/circuit_modes.hpp"

namespace {
using namespace cuzk;
using Digest = std::array<std::uint8_t, 32>;

Digest sha_pair(const Digest& l, const Digest& r) {
  std::uint8_t buf[64];
  std::copy(l.begin(), l.end(), buf);
  std::copy(r.begin(), r.end(), buf + 32);
  Digest d;
  SHA256(buf, 64, d.data());
  return d;
}

template <class F>
struct ShaPathCircuit {
  Digest leaf, root;
  std::vector<Digest> sib;
  std::vector<bool> dirs;
  template <class CS>
  void synthesize(CS& cs) const {
    auto leaf_bits = gadgets::alloc_bytes_be<F>(cs, leaf);
    std::vector<std::vector<gadgets::Boolean<F>>> s;
    std::vector<gadgets::Boolean<F>> d;
    for (std::size_t i = 0; i < sib.size(); ++i) {
      s.push_back(gadgets::alloc_bytes_be<F>(cs, sib[i]));
      d.push_back(gadgets::Boolean<F>::alloc(cs, "dir", [&] { return bool(dirs[i]); }));
    }
    auto r = gadgets::sha256_merkle_root<F>(cs, leaf_bits, s, d);
    std::vector<gadgets::Boolean<F>> pub;
    for (int i = 0; i < 256; ++i)
      pub.push_back(gadgets::Boolean<F>::alloc_input(cs, "root", [&] { return ((root[i / 8] >> (7 - i % 8)) & 1) != 0; }));
    gadgets::enforce_equal_bits<F>(cs, r, pub);
  }
};

TEST(MerkleSha256, PathVerifiesAgainstNativeRoot) {
  using F = ff::bls12_381::Fr;
  std::mt19937 rng(4);
  ShaPathCircuit<F> c;
  for (auto& b : c.leaf) b = static_cast<std::uint8_t>(rng());
  Digest cur = c.leaf;
  for (int lvl = 0; lvl < 3; ++lvl) {
    Digest s;
    for (auto& b : s) b = static_cast<std::uint8_t>(rng());
    const bool right = rng() & 1;
    c.sib.push_back(s);
    c.dirs.push_back(right);
    cur = right ? sha_pair(s, cur) : sha_pair(cur, s);
  }
  c.root = cur;
  auto rep = test::expect_modes_agree<F>(c);
  std::printf("SHA-256 Merkle path, depth 3: %zu constraints\n", rep.constraints);
  // allocations 256 + 3·257, root pins 256·2, per level 512 selects + SHA-256 of 512 bits (45,280)
  EXPECT_EQ(rep.constraints, 256u + 3 * 257 + 512 + 3 * (512 + 45280));
  test::expect_faults_caught<F>(c, 3);
  // A wrong root is rejected.
  ShaPathCircuit<F> bad = c;
  bad.root[5] ^= 1;
  EXPECT_TRUE(cs::check<F>(bad).has_value());
  // A wrong direction bit is rejected.
  bad = c;
  bad.dirs[1] = !bad.dirs[1];
  EXPECT_TRUE(cs::check<F>(bad).has_value());
}

using Fb = ff::bls12_381::Fr;
struct PoseidonPathCircuit {
  Fb leaf, root;
  std::vector<std::vector<Fb>> sib;  // 7 per level
  std::vector<unsigned> idx;
  template <class CS>
  void synthesize(CS& cs) const {
    const auto& p = gadgets::neptune::params<Fb>(8);
    auto l = gadgets::AllocatedNum<Fb>::alloc(cs, "leaf", [&] { return leaf; });
    std::vector<gadgets::PoseidonPathLevel<Fb>> path(sib.size());
    for (std::size_t i = 0; i < sib.size(); ++i) {
      for (const auto& s : sib[i]) path[i].siblings.push_back(gadgets::AllocatedNum<Fb>::alloc(cs, "sib", [&] { return s; }));
      for (int b = 0; b < 3; ++b)
        path[i].index_bits.push_back(gadgets::Boolean<Fb>::alloc(cs, "idx", [&] { return ((idx[i] >> b) & 1) != 0; }));
    }
    auto r = gadgets::poseidon_merkle_root<Fb>(cs, p, l, path);
    auto pub = gadgets::AllocatedNum<Fb>::alloc_input(cs, "root", [&] { return root; });
    gadgets::enforce_equal<Fb>(cs, r, pub);
  }
};

TEST(MerklePoseidon, Arity8PathVerifiesAgainstNativeRoot) {
  const auto& p = gadgets::neptune::params<Fb>(8);
  std::mt19937_64 rng(6);
  for (int trial = 0; trial < 3; ++trial) {
    PoseidonPathCircuit c;
    c.leaf = Fb::random(rng);
    Fb cur = c.leaf;
    for (int lvl = 0; lvl < 3; ++lvl) {
      std::vector<Fb> s(7);
      for (auto& x : s) x = Fb::random(rng);
      const unsigned at = trial == 0 ? (lvl == 0 ? 0 : lvl == 1 ? 7 : 3) : static_cast<unsigned>(rng() % 8);
      std::vector<Fb> children(s);
      children.insert(children.begin() + at, cur);
      cur = gadgets::poseidon_hash_native<Fb>(p, children);
      c.sib.push_back(s);
      c.idx.push_back(at);
    }
    c.root = cur;
    auto rep = test::expect_modes_agree<Fb>(c);
    // per level: 12 (one-hot) + 1 + 6·2 + 1 (insertion) + 505 (Poseidon), plus 3 index booleans
    EXPECT_EQ(rep.constraints, 3u * (12 + 14 + 505 + 3) + 1) << "trial " << trial;
    test::expect_faults_caught<Fb>(c, 6, trial);
    PoseidonPathCircuit bad = c;
    bad.idx[2] ^= 1;
    EXPECT_TRUE(cs::check<Fb>(bad).has_value());
    bad = c;
    bad.root += Fb::one();
    EXPECT_TRUE(cs::check<Fb>(bad).has_value());
  }
}

// Smaller arities with the same gadget (neptune arity 2 and 4 parameters).
TEST(MerklePoseidon, Arity2And4Paths) {
  std::mt19937_64 rng(12);
  for (std::size_t arity : {2u, 4u}) {
    const auto& p = gadgets::neptune::params<Fb>(arity);
    const std::size_t k = arity == 2 ? 1 : 2, depth = 4;
    Fb leaf = Fb::random(rng), cur = leaf;
    std::vector<std::vector<Fb>> sib;
    std::vector<unsigned> idx;
    for (std::size_t l = 0; l < depth; ++l) {
      std::vector<Fb> s(arity - 1);
      for (auto& x : s) x = Fb::random(rng);
      const unsigned at = static_cast<unsigned>(rng() % arity);
      std::vector<Fb> ch(s);
      ch.insert(ch.begin() + at, cur);
      cur = gadgets::poseidon_hash_native<Fb>(p, ch);
      sib.push_back(s);
      idx.push_back(at);
    }
    auto circuit = [&](auto& cs) {
      auto l = gadgets::AllocatedNum<Fb>::alloc(cs, "leaf", [&] { return leaf; });
      std::vector<gadgets::PoseidonPathLevel<Fb>> path(depth);
      for (std::size_t i = 0; i < depth; ++i) {
        for (const auto& s : sib[i]) path[i].siblings.push_back(gadgets::AllocatedNum<Fb>::alloc(cs, "sib", [&] { return s; }));
        for (std::size_t b = 0; b < k; ++b)
          path[i].index_bits.push_back(gadgets::Boolean<Fb>::alloc(cs, "idx", [&] { return ((idx[i] >> b) & 1) != 0; }));
      }
      auto r = gadgets::poseidon_merkle_root<Fb>(cs, p, l, path);
      auto pub = gadgets::AllocatedNum<Fb>::alloc_input(cs, "root", [&] { return cur; });
      gadgets::enforce_equal<Fb>(cs, r, pub);
    };
    test::expect_modes_agree<Fb>(circuit);
    test::expect_faults_caught<Fb>(circuit, 4, arity);
  }
}

}  // namespace
