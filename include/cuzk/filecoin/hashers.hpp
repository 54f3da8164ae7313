// The two hash functions Filecoin's Merkle trees use, in circuit form, as filecoin-hashers
// implements them (poseidon.rs, sha256.rs): the policies por.hpp takes.
//   PoseidonHasher  TreeR and TreeC: neptune's legacy Poseidon circuit with the MerkleTree
//                   constants of the node's arity; hash2 is arity 2 (comm_r = H(comm_c, comm_r_last)).
//   Sha256Hasher    TreeD: each child's 255 bits little-endian, padded with a constant 0 to 256,
//                   each byte's bits reversed (SHA-256 reads bytes most significant bit first),
//                   SHA-256, then the digest read back little-endian per byte, truncated to 254
//                   bits and packed into one number (Filecoin's "trim to Fr32").
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/multipack.hpp"
#include "cuzk/filecoin/poseidon.hpp"
#include "cuzk/filecoin/sha256.hpp"

namespace cuzk::filecoin {

struct PoseidonHasher {
  template <class CS>
  static AllocatedNum hash_multi_leaf(CS& cs, std::span<const AllocatedNum> children) {
    return poseidon_hash_circuit(cs, children, poseidon_constants(children.size()));
  }
  template <class CS>
  static AllocatedNum hash2(CS& cs, const AllocatedNum& a, const AllocatedNum& b) {
    return hash2_circuit(cs, a, b);
  }
};

struct Sha256Hasher {
  // Appends bits (little-endian, padded with constant zeros to whole bytes) with each byte's
  // bits reversed.
  static void append_bytes_msb_first(std::vector<Boolean>& out, std::vector<Boolean> le_bits) {
    while (le_bits.size() % 8 != 0) le_bits.push_back(Boolean::constant(false));
    for (std::size_t i = 0; i < le_bits.size(); i += 8)
      for (std::size_t k = 8; k-- > 0;) out.push_back(le_bits[i + k]);
  }
  // SHA-256 of the bits ("hash"), its digest's bytes read least significant bit first, the
  // first 254 bits packed ("pack_le").
  template <class CS>
  static AllocatedNum hash_bits(CS& cs, std::span<const Boolean> bits) {
    std::vector<Boolean> be;
    {
      cs::Namespace ns(cs, "hash");
      be = sha256(cs, bits);
    }
    std::vector<Boolean> le;
    le.reserve(kFrCapacity);
    for (std::size_t i = 0; i < be.size() && le.size() < kFrCapacity; i += 8)
      for (std::size_t k = 8; k-- > 0 && le.size() < kFrCapacity;) le.push_back(be[i + k]);
    cs::Namespace ns(cs, "pack_le");
    return pack_bits(cs, std::span<const Boolean>(le));
  }
  template <class CS>
  static AllocatedNum hash_multi_leaf(CS& cs, std::span<const AllocatedNum> children) {
    std::vector<Boolean> bits;
    bits.reserve(children.size() * 256);
    for (std::size_t i = 0; i < children.size(); ++i) {
      cs::Namespace ns(cs, [i] { return std::to_string(i) + "_num_into_bits"; });
      append_bytes_msb_first(bits, children[i].to_bits_le(cs));
    }
    return hash_bits(cs, bits);
  }
  template <class CS>
  static AllocatedNum hash2(CS& cs, const AllocatedNum& a, const AllocatedNum& b) {
    std::vector<Boolean> abits, bbits;
    {
      cs::Namespace ns(cs, "a_bits");
      abits = a.to_bits_le(cs);
    }
    {
      cs::Namespace ns(cs, "b_bits");
      bbits = b.to_bits_le(cs);
    }
    std::vector<Boolean> bits;
    append_bytes_msb_first(bits, std::move(abits));
    append_bytes_msb_first(bits, std::move(bbits));
    return hash_bits(cs, bits);
  }
};

}  // namespace cuzk::filecoin
