// neptune 11's Poseidon constants as rust-fil-proofs builds them (PoseidonConstants::
// new_with_strength_and_type over blstrs::Scalar), with everything its optimized hash and its
// legacy circuit (src/circuit.rs) read: the round constants compressed through the linear layers
// (preprocessing.rs compress_round_constants), the MDS matrix m, the matrix applied after the
// last initial full round (pre_sparse_matrix) and one sparse matrix per partial round
// (mds.rs factor_to_sparse_matrixes). Width = arity + 1; state[0] is the domain tag, the digest
// is state[1].
//
// Domain tags (neptune hash_type.rs HashType::domain_tag, Strength::Standard):
//   MerkleTree          2^arity - 1          filecoin-hashers POSEIDON_CONSTANTS_{2,4,8,11,16,24,36}
//   ConstantLength(n)   n · 2^64             (not used by Filecoin; neptune's tests use it)
//   Custom(id)          id · 2^40, 1..256    storage-proofs-update POSEIDON_CONSTANTS_GEN_RANDOMNESS:
//                                            arity 2, Custom(1), tag 2^40
// The tag only changes state[0]; round constants and matrices depend on arity and strength.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/fr.hpp"

namespace cuzk::filecoin {

// The widest state any supported arity needs (arity 36).
inline constexpr std::size_t kPoseidonMaxWidth = 37;

// neptune's Strength: Strengthened has 25% more partial rounds (rounded up). Filecoin uses Standard.
enum class PoseidonStrength { Standard, Strengthened };

// neptune's HashType, for the kinds that fix the domain tag of a simple (one-permutation) hash.
struct PoseidonTag {
  enum class Kind { MerkleTree, ConstantLength, Custom };
  Kind kind = Kind::MerkleTree;
  std::uint64_t value = 0;  // ConstantLength: the preimage length; Custom: the identifier

  static constexpr PoseidonTag merkle_tree() { return {Kind::MerkleTree, 0}; }
  static constexpr PoseidonTag constant_length(std::uint64_t n) { return {Kind::ConstantLength, n}; }
  static constexpr PoseidonTag custom(std::uint64_t id) { return {Kind::Custom, id}; }
  bool operator==(const PoseidonTag&) const = default;

  // The first state element for this tag at this arity; throws for an identifier outside
  // 1..256 or a constant length above the arity.
  Fr domain_tag(std::size_t arity) const;
};

// A square matrix, row-major: at(i, j) is neptune's matrix[i][j].
struct PoseidonMatrix {
  std::size_t n = 0;
  std::vector<Fr> a;
  PoseidonMatrix() = default;
  explicit PoseidonMatrix(std::size_t size) : n(size), a(size * size, Fr::zero()) {}
  Fr& at(std::size_t i, std::size_t j) { return a[i * n + j]; }
  const Fr& at(std::size_t i, std::size_t j) const { return a[i * n + j]; }
  bool operator==(const PoseidonMatrix&) const = default;
};

// neptune's SparseMatrix (the M'' of one partial round): first column w_hat (all rows), first
// row v_rest (columns 1..), identity elsewhere.
struct PoseidonSparseMatrix {
  std::vector<Fr> w_hat;   // width entries
  std::vector<Fr> v_rest;  // width - 1 entries
};

struct PoseidonConstants {
  std::size_t arity = 0, width = 0;
  std::size_t full_rounds = 0, half_full_rounds = 0, partial_rounds = 0;
  PoseidonStrength strength = PoseidonStrength::Standard;
  PoseidonTag tag;
  Fr domain_tag;
  std::vector<Fr> round_constants;             // width · (full + partial), Grain LFSR order
  std::vector<Fr> compressed_round_constants;  // width · full + partial
  PoseidonMatrix m;                            // Cauchy MDS, 1 / (i + width + j)
  PoseidonMatrix pre_sparse_matrix;
  std::vector<PoseidonSparseMatrix> sparse_matrices;  // one per partial round, in order
};

// Builds the constants (about 5 ms for arity 2, 30 ms for 11, 300 ms for 36). Arities 1..16, 24 and 36
// (neptune's table of round numbers covers those widths).
PoseidonConstants make_poseidon_constants(std::size_t arity, PoseidonTag tag = PoseidonTag::merkle_tree(),
                                          PoseidonStrength strength = PoseidonStrength::Standard);

// filecoin-hashers' POSEIDON_CONSTANTS_<arity> (MerkleTree, Standard) for arity 2, 4, 8, 11, 16,
// 24, 36; built once per arity at first use. Throws std::invalid_argument for other arities.
const PoseidonConstants& poseidon_constants(std::size_t arity);

// storage-proofs-update POSEIDON_CONSTANTS_GEN_RANDOMNESS: arity 2, Custom(1) (tag 2^40).
const PoseidonConstants& poseidon_constants_gen_randomness();

// neptune Poseidon::new_with_preimage(preimage, c).hash(): state = [tag, preimage...], the
// optimized permutation, digest state[1]. The preimage has `arity` elements, or exactly n for a
// ConstantLength(n) tag (zero-padded to the arity).
Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage);

// filecoin-hashers PoseidonFunction::hash2: the arity-2 hash of (a, b).
inline Fr poseidon_hash2(const Fr& a, const Fr& b) {
  const Fr in[2] = {a, b};
  return poseidon_hash(poseidon_constants(2), in);
}

}  // namespace cuzk::filecoin
