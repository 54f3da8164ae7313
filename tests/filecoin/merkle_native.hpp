// Native Merkle trees of Filecoin's shapes for tests: mixed arities per level (base levels,
// then the sub and top levels), built bottom-up, with authentication paths in por.hpp's form.
// Node hashes: neptune Poseidon of the level's arity, or SHA-256 of the children's 32-byte
// little-endian encodings with the digest trimmed to 254 bits (Filecoin's Sha256Domain).
#pragma once

#include <openssl/sha.h>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cuzk/filecoin/por.hpp"
#include "cuzk/filecoin/poseidon_constants.hpp"

namespace cuzk::filecoin::test {

using NodeHash = std::function<Fr(std::span<const Fr>)>;

inline Fr poseidon_node(std::span<const Fr> children) {
  return poseidon_hash(poseidon_constants(children.size()), children);
}

inline Fr sha256_node(std::span<const Fr> children) {
  std::vector<std::uint8_t> msg;
  for (const Fr& c : children) {
    const auto b = c.to_bytes_le();
    msg.insert(msg.end(), b.begin(), b.end());
  }
  std::array<std::uint8_t, 32> d{};
  SHA256(msg.data(), msg.size(), d.data());
  d[31] &= 0x3f;
  return Fr::from_bytes_le(d);
}

class NativeTree {
 public:
  NativeTree(std::vector<unsigned> arities, std::vector<Fr> leaves, const NodeHash& hash) : arities_(std::move(arities)) {
    levels_.push_back(std::move(leaves));
    for (unsigned a : arities_) {
      const auto& below = levels_.back();
      std::vector<Fr> up;
      for (std::size_t j = 0; j < below.size(); j += a) up.push_back(hash(std::span<const Fr>(below).subspan(j, a)));
      levels_.push_back(std::move(up));
    }
  }
  const Fr& root() const { return levels_.back().at(0); }
  const Fr& leaf(std::uint64_t i) const { return levels_[0].at(i); }
  std::vector<PathLevel> path(std::uint64_t index) const {
    std::vector<PathLevel> out;
    std::uint64_t pos = index;
    for (std::size_t l = 0; l < arities_.size(); ++l) {
      const unsigned a = arities_[l];
      PathLevel lv;
      lv.index = static_cast<std::uint32_t>(pos % a);
      const std::uint64_t first = pos - lv.index;
      for (unsigned k = 0; k < a; ++k)
        if (k != lv.index) lv.siblings.push_back(levels_[l][first + k]);
      out.push_back(std::move(lv));
      pos /= a;
    }
    return out;
  }

 private:
  std::vector<unsigned> arities_;
  std::vector<std::vector<Fr>> levels_;
};

}  // namespace cuzk::filecoin::test
