// Benchmark circuit: `challenges` inclusion proofs in binary SHA-256 trees of depth `depth`.
// Each challenge has its own random leaf and siblings (so a 2^27 domain needs no tree in memory);
// its root is public as two 128-bit halves (2 public inputs, 2 packing constraints).
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/gadgets/num.hpp"
#include "cuzk/gadgets/sha256_native.hpp"

namespace cuzk::gadgets::circuits {

using Digest = std::array<std::uint8_t, 32>;

struct ShaPathWitness {
  Digest leaf{}, root{};
  std::vector<Digest> siblings;
  std::vector<bool> right;  // running node is the right child at this level
};

inline Digest sha256_pair_native(const Digest& l, const Digest& r) {
  std::array<std::uint8_t, 64> b;
  std::copy(l.begin(), l.end(), b.begin());
  std::copy(r.begin(), r.end(), b.begin() + 32);
  return sha256_native(b);
}

inline ShaPathWitness random_sha_path(std::mt19937_64& rng, std::size_t depth, const Digest* leaf = nullptr) {
  ShaPathWitness w;
  if (leaf) w.leaf = *leaf;
  else for (auto& b : w.leaf) b = static_cast<std::uint8_t>(rng());
  Digest cur = w.leaf;
  for (std::size_t l = 0; l < depth; ++l) {
    Digest s;
    for (auto& b : s) b = static_cast<std::uint8_t>(rng());
    const bool r = rng() & 1;
    w.siblings.push_back(s);
    w.right.push_back(r);
    cur = r ? sha256_pair_native(s, cur) : sha256_pair_native(cur, s);
  }
  w.root = cur;
  return w;
}

// The 256 digest bits as two public inputs (bits 0..127 and 128..255, each packed little-endian).
template <class F, class CS>
void expose_digest(CS& cs, std::span<const Boolean<F>> bits) {
  for (int half = 0; half < 2; ++half) {
    auto n = pack_bits<F>(cs, bits.subspan(128 * half, 128));
    auto pub = AllocatedNum<F>::alloc_input(cs, "digest half", [&] { return n.value(); });
    enforce_equal<F>(cs, n, pub);
  }
}

// Proves the path of `w` (allocating the leaf unless leaf bits are given); returns the root bits.
template <class F, class CS>
std::vector<Boolean<F>> sha_path(CS& cs, const ShaPathWitness& w, std::size_t depth,
                                 const std::vector<Boolean<F>>* leaf_bits = nullptr) {
  const std::vector<Boolean<F>> leaf = leaf_bits ? *leaf_bits : alloc_bytes_be<F>(cs, w.leaf);
  std::vector<std::vector<Boolean<F>>> sib;
  std::vector<Boolean<F>> dirs;
  for (std::size_t l = 0; l < depth; ++l) {
    const Digest* s = l < w.siblings.size() ? &w.siblings[l] : nullptr;
    static const Digest zero{};
    sib.push_back(alloc_bytes_be<F>(cs, s ? *s : zero));
    const bool r = l < w.right.size() && w.right[l];
    dirs.push_back(Boolean<F>::alloc(cs, "dir", [&] { return r; }));
  }
  return sha256_merkle_root<F>(cs, leaf, sib, dirs);
}

template <class F>
struct Sha256Merkle {
  std::size_t depth = 1, challenges = 1;
  std::vector<ShaPathWitness> paths;

  Sha256Merkle(std::size_t depth_, std::size_t challenges_, std::uint64_t seed = 1)
      : depth(depth_), challenges(challenges_) {
    std::mt19937_64 rng(seed);
    for (std::size_t c = 0; c < challenges; ++c) paths.push_back(random_sha_path(rng, depth));
  }

  // Challenges are independent (no wire crosses them): synthesize() is exactly
  // synthesize_challenge(cs, 0), (cs, 1), ... — parallel_witness.hpp relies on this.
  std::size_t num_challenges() const { return challenges; }

  template <class CS>
  void synthesize_challenge(CS& cs, std::size_t c) const {
    cs::Namespace ns(cs, [c] { return "challenge " + std::to_string(c); });
    auto root = sha_path<F>(cs, paths[c], depth);
    expose_digest<F>(cs, std::span<const Boolean<F>>(root));
  }

  template <class CS>
  void synthesize(CS& cs) const {
    for (std::size_t c = 0; c < challenges; ++c) synthesize_challenge(cs, c);
  }
};

}  // namespace cuzk::gadgets::circuits
