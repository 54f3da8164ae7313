// Benchmark circuit shaped like a Filecoin PoRep (SDR) partition, per challenge:
//  - data tree: binary SHA-256 inclusion of the 32-byte data leaf (depth log2_nodes);
//  - labeling: for each layer, label = SHA-256(replica_id || layer, node || `parents` parent
//    labels), truncated to 254 bits (as Filecoin does: top 2 bits of byte 31 cleared) and packed
//    into a field element;
//  - column: Poseidon(arity = layers) of the labels, proven in the comm_c octree;
//  - replica: data + last label, proven in the comm_r_last octree (neptune arity 8, depth
//    ceil(log2_nodes / 3));
//  - comm_r = Poseidon_2(comm_c, comm_r_last) and comm_d (2 × 128-bit halves) are public.
// Parents' labels are private inputs (the real protocol also opens their columns; left out) and
// every challenge has its own random trees, so any domain size (up to 2^27 and beyond) needs no
// tree in memory. BLS12-381 only (254-bit packing needs F::kBits > 254).
// The replica id and the challenged node vary with the seed, so they are allocated bits, not
// constants: the recorded system depends on the shape parameters alone and one key proves every
// seed (constants would fold into the SHA-256 rounds and change the constraints).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "cuzk/gadgets/circuits/poseidon_merkle.hpp"
#include "cuzk/gadgets/circuits/sha256_merkle.hpp"

namespace cuzk::gadgets::circuits {

template <class F>
F fr_from_digest_le254(const Digest& d) {
  Digest t = d;
  t[31] &= 0x3f;
  return F::from_bytes_le(t);
}

// The 254 low bits (little-endian value order) of a digest given as big-endian-per-byte bits.
template <class F>
std::vector<Boolean<F>> digest_bits_le254(std::span<const Boolean<F>> be) {
  std::vector<Boolean<F>> r;
  r.reserve(254);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 8; ++j)
      if (i < 31 || j < 6) r.push_back(be[8 * i + 7 - j]);
  return r;
}

template <class F>
struct PorepLike {
  std::size_t log2_nodes, challenges, layers, parents;
  Digest replica_id{};
  struct Challenge {
    std::uint64_t node = 0;
    ShaPathWitness data;
    std::vector<std::vector<Digest>> parent_labels;  // [layer][parent]
    std::vector<Digest> labels;                      // [layer]
    PoseidonPathWitness<F> col, rep;
    F comm_r = F::zero();
  };
  std::vector<Challenge> ch;

  std::size_t octree_depth() const { return (log2_nodes + 2) / 3; }

  PorepLike(std::size_t log2_nodes_, std::size_t challenges_, std::size_t layers_ = 11, std::size_t parents_ = 6,
            std::uint64_t seed = 1)
      : log2_nodes(log2_nodes_), challenges(challenges_), layers(layers_), parents(parents_) {
    if (layers != 2 && layers != 4 && layers != 8 && layers != 11)
      throw std::invalid_argument("PorepLike: layers must be 2, 4, 8 or 11 (column hash arity)");
    if (F::kBits <= 254) throw std::invalid_argument("PorepLike: field too small for 254-bit labels");
    std::mt19937_64 rng(seed);
    for (auto& b : replica_id) b = static_cast<std::uint8_t>(rng());
    for (std::size_t c = 0; c < challenges; ++c) {
      Challenge x;
      x.node = log2_nodes >= 64 ? rng() : rng() % (std::uint64_t{1} << log2_nodes);
      Digest leaf;
      for (auto& b : leaf) b = static_cast<std::uint8_t>(rng());
      leaf[31] &= 0x3f;
      x.data = random_sha_path(rng, log2_nodes, &leaf);
      std::vector<F> col_in;
      for (std::size_t l = 0; l < layers; ++l) {
        std::vector<Digest> ps(parents);
        for (auto& p : ps)
          for (auto& b : p) b = static_cast<std::uint8_t>(rng());
        x.labels.push_back(sha256_native(label_preimage(l, x.node, ps)));
        x.parent_labels.push_back(std::move(ps));
        col_in.push_back(fr_from_digest_le254<F>(x.labels.back()));
      }
      const F col = poseidon_hash_native<F>(neptune::params<F>(layers), col_in);
      const F rep = fr_from_digest_le254<F>(leaf) + col_in.back();
      x.col = random_poseidon_path<F>(rng, octree_depth(), &col);
      x.rep = random_poseidon_path<F>(rng, octree_depth(), &rep);
      const std::array<F, 2> cr{x.col.root, x.rep.root};
      x.comm_r = poseidon_hash_native<F>(neptune::params<F>(2), cr);
      ch.push_back(std::move(x));
    }
  }

  std::vector<std::uint8_t> label_preimage(std::size_t layer, std::uint64_t node, const std::vector<Digest>& ps) const {
    std::vector<std::uint8_t> m(replica_id.begin(), replica_id.end());
    std::array<std::uint8_t, 32> ln{};
    for (int i = 0; i < 4; ++i) ln[i] = static_cast<std::uint8_t>(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; ++i) ln[4 + i] = static_cast<std::uint8_t>(node >> (56 - 8 * i));
    m.insert(m.end(), ln.begin(), ln.end());
    for (const auto& p : ps) m.insert(m.end(), p.begin(), p.end());
    return m;
  }

  // Challenges are independent (no wire crosses them): synthesize() is exactly
  // synthesize_challenge(cs, 0), (cs, 1), ... — parallel_witness.hpp relies on this.
  std::size_t num_challenges() const { return challenges; }

  template <class CS>
  void synthesize(CS& cs) const {
    for (std::size_t c = 0; c < challenges; ++c) synthesize_challenge(cs, c);
  }

  template <class CS>
  void synthesize_challenge(CS& cs, std::size_t c) const {
    {
      cs::Namespace ns(cs, [c] { return "challenge " + std::to_string(c); });
      const Challenge& x = ch[c];
      std::vector<Boolean<F>> rid;
      {
        cs::Namespace nid(cs, "replica_id");
        rid = alloc_bytes_be<F>(cs, replica_id);
      }
      auto leaf_bits = alloc_bytes_be<F>(cs, x.data.leaf);
      {
        cs::Namespace nd(cs, "comm_d");
        auto root = sha_path<F>(cs, x.data, log2_nodes, &leaf_bits);
        expose_digest<F>(cs, std::span<const Boolean<F>>(root));
      }
      std::vector<AllocatedNum<F>> labels;
      for (std::size_t l = 0; l < layers; ++l) {
        cs::Namespace nl(cs, [l] { return "label " + std::to_string(l); });
        std::vector<Boolean<F>> msg = rid;
        const auto pre = label_preimage(l, x.node, {});
        Digest layer_node{};
        std::copy(pre.begin() + 32, pre.begin() + 64, layer_node.begin());
        const auto ln_bits = alloc_bytes_be<F>(cs, layer_node);
        msg.insert(msg.end(), ln_bits.begin(), ln_bits.end());
        for (const auto& p : x.parent_labels[l]) {
          auto bits = alloc_bytes_be<F>(cs, p);
          msg.insert(msg.end(), bits.begin(), bits.end());
        }
        auto h = sha256<F>(cs, std::span<const Boolean<F>>(msg));
        auto le = digest_bits_le254<F>(h);
        labels.push_back(pack_bits<F>(cs, std::span<const Boolean<F>>(le)));
      }
      AllocatedNum<F> col, rep;
      {
        cs::Namespace nc(cs, "comm_c");
        auto leaf = poseidon_hash<F>(cs, neptune::params<F>(layers), std::span<const AllocatedNum<F>>(labels));
        col = poseidon_path<F>(cs, x.col, octree_depth(), leaf);
      }
      {
        cs::Namespace nr(cs, "comm_r_last");
        auto le = digest_bits_le254<F>(leaf_bits);
        auto data = pack_bits<F>(cs, std::span<const Boolean<F>>(le));
        const F rv = data.value() + labels.back().value();
        auto enc = AllocatedNum<F>::from_lc(cs, "encode", data.lc() + labels.back().lc(), rv);
        rep = poseidon_path<F>(cs, x.rep, octree_depth(), enc);
      }
      const std::array<AllocatedNum<F>, 2> cr{col, rep};
      auto comm_r = poseidon_hash<F>(cs, neptune::params<F>(2), std::span<const AllocatedNum<F>>(cr));
      auto pub = AllocatedNum<F>::alloc_input(cs, "comm_r", [&] { return x.comm_r; });
      enforce_equal<F>(cs, comm_r, pub);
    }
  }
};

}  // namespace cuzk::gadgets::circuits
