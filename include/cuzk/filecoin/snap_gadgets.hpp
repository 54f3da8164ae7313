// The gadgets of the SnapDeals circuit, as storage-proofs-update gadgets.rs makes them:
//   allocated_num_to_allocated_bits  255 allocated bits and  (sum 2^i b_i)·1 = num
//   apex_por                         the partition's apex tree (binary SHA-256 of the apex leaves)
//                                    and its root's path to comm_d (the partition path)
//   gen_challenge_bits               per digest j: digest_index = k·digests_per_partition + j,
//                                    Poseidon(comm_r_new, digest_index) (gen randomness), its bits
//                                    cut into the challenges' random bits
//   get_challenge_high_bits          the h high bits of a challenge, h picked by the one-hot h_select
//   label_r_new                      label_r_old + label_d_new·rho
// Same constraints, allocations and operand places as the Rust (see each function).
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/hashers.hpp"
#include "cuzk/filecoin/por.hpp"
#include "cuzk/filecoin/poseidon.hpp"

namespace cuzk::filecoin {

// The lc sum 2^i bits[i] (k_and_h_select's and a digest's binary decompositions).
inline Lc snap_bits_lc(std::span<const AllocatedBit> bits) {
  Lc lc;
  lc.reserve(bits.size());
  Fr pow2 = Fr::one();
  for (const AllocatedBit& b : bits) {
    lc.add(b.variable(), pow2);
    pow2 = pow2.dbl();
  }
  return lc;
}

// gadgets.rs allocated_num_to_allocated_bits: field_into_allocated_bits_le ("bit i"), then
// "binary decomp": (sum 2^i b_i)·1 = num (not AllocatedNum::to_bits_le's 0·0 = lc - num).
template <class CS>
std::vector<AllocatedBit> allocated_num_to_allocated_bits(CS& cs, const AllocatedNum& num) {
  std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, num.value());
  cs.enforce(
      "binary decomp", [&] { return snap_bits_lc(bits); }, Variable::one(), num.variable());
  return bits;
}

// gadgets.rs apex_por: the apex tree row by row ("apex_tree generation hash (tree_row=r,
// siblings=i)", Sha256Function::hash2_circuit), then por_no_challenge_input over TreeD
// ("partition-tree por") from the apex root with the partition bits and path to comm_d.
template <class CS>
void snap_apex_por(CS& cs, std::vector<AllocatedNum> apex_leafs, std::span<const AllocatedBit> partition_bits,
                   std::span<const std::vector<AllocatedNum>> partition_path, const AllocatedNum& comm_d) {
  const unsigned height = log2_exact(apex_leafs.size(), "apex leaf count");
  std::vector<AllocatedNum> row = std::move(apex_leafs), next;
  for (unsigned r = 0; r < height; ++r) {
    next.clear();
    next.reserve(row.size() / 2);
    for (std::size_t i = 0; i < row.size() / 2; ++i) {
      cs::Namespace ns(cs, [r, i] {
        return "apex_tree generation hash (tree_row=" + std::to_string(r) + ", siblings=" + std::to_string(i) + ")";
      });
      next.push_back(Sha256Hasher::hash2(cs, row[2 * i], row[2 * i + 1]));
    }
    row.swap(next);
  }
  cs::Namespace ns(cs, "partition-tree por");
  por_no_challenge_input<Sha256Hasher>(cs, TreeShape{2, 0, 0}, partition_bits, row.at(0), partition_path, comm_d);
}

// gadgets.rs gen_challenge_bits: `challenges` chunks of `bits_per_challenge` random bits, in
// challenge order. Per digest j ("digest_index_j", "digest_j", "digest_j_bits"):
// (digests_per_partition·partition + j·ONE)·1 = digest_index, the digest, its 255 bits.
template <class CS>
std::vector<std::vector<AllocatedBit>> snap_gen_challenge_bits(CS& cs, const AllocatedNum& comm_r_new,
                                                               const AllocatedNum& partition, std::size_t challenges,
                                                               std::size_t bits_per_challenge) {
  const std::size_t per_digest = kFrCapacity / bits_per_challenge;
  const std::size_t digests = (challenges + per_digest - 1) / per_digest;
  std::vector<std::vector<AllocatedBit>> out;
  out.reserve(challenges);
  const Fr dpp = Fr::from_u64(digests);
  for (std::size_t j = 0; j < digests; ++j) {
    AllocatedNum digest_index;
    {
      cs::Namespace ns(cs, [j] { return "digest_index_" + std::to_string(j); });
      digest_index = AllocatedNum::alloc(cs, "num", [&] { return partition.value() * dpp + Fr::from_u64(j); });
    }
    cs.enforce(
        [j] { return "digest_index_" + std::to_string(j) + " == k * digests_per_partition + " + std::to_string(j); },
        [&] {
          Lc lc;
          lc.add(partition.variable(), dpp);
          lc.add_constant(Fr::from_u64(j));
          return lc;
        },
        Variable::one(), digest_index.variable());
    AllocatedNum digest;
    {
      cs::Namespace ns(cs, [j] { return "digest_" + std::to_string(j); });
      const AllocatedNum in[2] = {comm_r_new, digest_index};
      digest = poseidon_hash_circuit(cs, std::span<const AllocatedNum>(in), poseidon_constants_gen_randomness());
    }
    std::vector<AllocatedBit> bits;
    {
      cs::Namespace ns(cs, [j] { return "digest_" + std::to_string(j) + "_bits"; });
      bits = allocated_num_to_allocated_bits(cs, digest);
    }
    // The last digest may give fewer challenges than it could.
    const std::size_t take = j + 1 == digests ? challenges - out.size() : per_digest;
    for (std::size_t c = 0; c < take; ++c)
      out.emplace_back(bits.begin() + static_cast<std::ptrdiff_t>(c * bits_per_challenge),
                       bits.begin() + static_cast<std::ptrdiff_t>((c + 1) * bits_per_challenge));
  }
  return out;
}

// gadgets.rs get_challenge_high_bits: per (h, select bit) k: pack the h high bits of the
// challenge ("c_high (h=.., k=..)"), c_high_or_zero = c_high·select bit; then the selected
// value "c_high_selected" with (sum c_high_or_zero)·1 = c_high_selected.
template <class CS>
AllocatedNum snap_challenge_high_bits(CS& cs, std::span<const AllocatedBit> c_bits,
                                      std::span<const AllocatedBit> h_select_bits, std::span<const unsigned> hs) {
  if (h_select_bits.size() != hs.size())
    throw std::invalid_argument("get_challenge_high_bits: h_select and hs differ in length");
  const std::size_t n = c_bits.size();
  std::vector<AllocatedNum> or_zero;
  or_zero.reserve(hs.size());
  std::vector<Boolean> high;
  for (std::size_t k = 0; k < hs.size(); ++k) {
    const unsigned h = hs[k];
    if (h > n) throw std::invalid_argument("get_challenge_high_bits: h exceeds the challenge's bits");
    const AllocatedBit& sel = h_select_bits[k];
    auto label = [h, k](const char* what) {
      return std::string(what) + " (h=" + std::to_string(h) + ", k=" + std::to_string(k) + ")";
    };
    AllocatedNum c_high;
    {
      cs::Namespace ns(cs, [&] { return label("c_high"); });
      high.assign(c_bits.begin() + static_cast<std::ptrdiff_t>(n - h), c_bits.end());
      c_high = pack_bits(cs, std::span<const Boolean>(high));
    }
    AllocatedNum v;
    {
      cs::Namespace ns(cs, [&] { return label("c_high_or_zero"); });
      v = AllocatedNum::alloc(cs, "num", [&] { return sel.value() ? c_high.value() : Fr::zero(); });
    }
    cs.enforce([&] { return label("c_high_or_zero == c_high * h_select_bit"); }, c_high.variable(), sel.variable(),
               v.variable());
    or_zero.push_back(v);
  }
  AllocatedNum selected;
  {
    cs::Namespace ns(cs, "c_high_selected");
    selected = AllocatedNum::alloc(cs, "num", [&] {
      Fr sum = Fr::zero();
      for (const AllocatedNum& v : or_zero) sum += v.value();
      return sum;
    });
  }
  cs.enforce(
      "c_high_selected == dot(c_highs, h_select_bits)",
      [&] {
        Lc lc;
        for (const AllocatedNum& v : or_zero) lc += v.variable();
        return lc;
      },
      Variable::one(), selected.variable());
  return selected;
}

// gadgets.rs label_r_new: label_d_new·rho ("label_d_new * rho", AllocatedNum::mul), then
// "label_r_new" with (label_r_old + product)·1 = label_r_new.
template <class CS>
AllocatedNum snap_label_r_new(CS& cs, const AllocatedNum& label_r_old, const AllocatedNum& label_d_new,
                              const AllocatedNum& rho) {
  AllocatedNum product;
  {
    cs::Namespace ns(cs, "label_d_new * rho");
    product = label_d_new.mul(cs, rho);
  }
  AllocatedNum out;
  {
    cs::Namespace ns(cs, "label_r_new");
    out = AllocatedNum::alloc(cs, "num", [&] { return label_r_old.value() + product.value(); });
  }
  cs.enforce(
      "label_r_new == label_r_old + label_d_new * rho",
      [&] { return Lc(label_r_old.variable()) + Lc(product.variable()); }, Variable::one(), out.variable());
  return out;
}

}  // namespace cuzk::filecoin
