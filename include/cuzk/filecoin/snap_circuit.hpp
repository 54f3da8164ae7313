// The SnapDeals (EmptySectorUpdate) circuit of one partition, as storage-proofs-update
// circuit.rs EmptySectorUpdateCircuit::synthesize makes it (the network's, non-Poseidon variant):
//   header: k_and_h_select (allocated, public, its partition_bit_len + 6 bits, their binary
//     decomposition), the partition packed from its bits, comm_r_old / comm_d_new / comm_r_new
//     (allocated, public), phi = H(comm_d_new, comm_r_old), comm_c, root_r_old, root_r_new, the
//     apex leaves, the partition path, comm_r_{old,new} = Poseidon2(comm_c, root_r_{old,new}), the
//     apex tree to comm_d_new (apex_por), the challenges' random bits (gen_challenge_bits);
//   per challenge c_index (its bits: its random bits, then the partition bits): the h high bits
//     selected by h_select, rho = H(phi, high), leaf_r_old, leaf_d_new, leaf_r_new = leaf_r_old +
//     leaf_d_new·rho, the TreeROld path (allocated, then por_no_challenge_input to root_r_old), the
//     TreeRNew path (to root_r_new), the apex leaf selected by the challenge's apex bits, the
//     TreeD path up to it (binary SHA-256).
// Public inputs (5 with ONE): k_and_h_select, comm_r_old, comm_d_new, comm_r_new
// (snap_public_inputs). The recorded system depends only on SnapParams.
//
// Challenges share the header's wires and allocate none another challenge reads, so in witness
// mode each may be synthesized by its own constraint system (snap_record.hpp snap_witness_full).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/snap_gadgets.hpp"
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::filecoin {

// One challenge's three Merkle proofs, as circuit.rs ChallengeProof takes them: leaves and the
// siblings of each level (the insertion indices are not read: the challenge's bits place them).
struct SnapChallengeValues {
  Fr leaf_r_old, leaf_d_new, leaf_r_new;
  std::vector<PathLevel> path_r_old, path_d_new, path_r_new;  // leaf level first
};

// circuit.rs PublicInputs and PrivateInputs of one partition.
struct SnapPartitionValues {
  Fr k_and_h_select, comm_r_old, comm_d_new, comm_r_new;
  Fr comm_c, root_r_old, root_r_new;
  std::vector<Fr> apex_leafs;
  std::vector<SnapChallengeValues> challenges;
};

// The header's wires the challenges read.
struct SnapHeader {
  std::vector<AllocatedBit> partition_bits, h_select_bits;
  AllocatedNum phi, root_r_old, root_r_new;
  std::vector<AllocatedNum> apex_leafs;
  std::vector<std::vector<AllocatedBit>> random_bits;  // per challenge
};

// Zero values of the right shape (circuit.rs PrivateInputs::empty): records the partition's R1CS.
SnapChallengeValues blank_snap_challenge(const SnapParams& p);

class EmptySectorUpdateCircuit {
 public:
  // Checks the shapes (what circuit.rs asserts before allocating): apex leaves, challenges, path
  // lengths and sibling counts, every challenge's TreeD path sharing challenge 0's partition path,
  // and k_and_h_select's value (k < partitions, one h_select bit, nothing above). Throws
  // std::invalid_argument.
  EmptySectorUpdateCircuit(SnapParams params, SnapPartitionValues values);
  static EmptySectorUpdateCircuit blank(const SnapParams& params);

  const SnapParams& params() const { return p_; }
  const SnapPartitionValues& values() const { return v_; }
  std::size_t num_challenges() const { return v_.challenges.size(); }

  template <class CS>
  SnapHeader synthesize_header(CS& cs) const;
  template <class CS>
  void synthesize_challenge(CS& cs, std::size_t c_index, const SnapHeader& h) const;
  template <class CS>
  void synthesize(CS& cs) const {
    const SnapHeader h = synthesize_header(cs);
    for (std::size_t i = 0; i < v_.challenges.size(); ++i) synthesize_challenge(cs, i, h);
  }

 private:
  EmptySectorUpdateCircuit(SnapParams params, SnapPartitionValues values, bool blank);

  // The partition path: challenge 0's TreeD siblings above the apex tree.
  std::span<const PathLevel> partition_path_levels() const {
    return std::span<const PathLevel>(v_.challenges.at(0).path_d_new)
        .subspan(p_.challenge_bit_len - p_.partition_bit_len);
  }

  SnapParams p_;
  SnapPartitionValues v_;
};

namespace snap_detail {

template <class CS>
AllocatedNum alloc_named(CS& cs, const char* name, const Fr& v) {
  cs::Namespace ns(cs, name);
  return AllocatedNum::alloc(cs, "num", [&] { return v; });
}

// A path's siblings allocated level by level (namer(row, sibling) names each).
template <class CS, class Namer>
std::vector<std::vector<AllocatedNum>> alloc_path(CS& cs, std::span<const PathLevel> path, Namer&& namer) {
  std::vector<std::vector<AllocatedNum>> out(path.size());
  for (std::size_t r = 0; r < path.size(); ++r) {
    out[r].reserve(path[r].siblings.size());
    for (std::size_t s = 0; s < path[r].siblings.size(); ++s) {
      cs::Namespace ns(cs, [&] { return namer(r, s); });
      out[r].push_back(AllocatedNum::alloc(cs, "num", [&] { return path[r].siblings[s]; }));
    }
  }
  return out;
}

}  // namespace snap_detail

template <class CS>
SnapHeader EmptySectorUpdateCircuit::synthesize_header(CS& cs) const {
  using snap_detail::alloc_named;
  SnapHeader h;
  const AllocatedNum k_and_h_select = alloc_named(cs, "k_and_h_select", v_.k_and_h_select);
  {
    cs::Namespace ns(cs, "k_and_h_select (public input)");
    k_and_h_select.inputize(cs);
  }
  // Its low partition_bit_len + 6 bits, allocated, and their binary decomposition.
  const std::size_t bit_len = p_.partition_bit_len + kSnapHsCount;
  std::vector<AllocatedBit> bits;
  bits.reserve(bit_len);
  const Fr::Repr kh = k_and_h_select.value().to_canonical();
  for (std::size_t i = 0; i < bit_len; ++i) {
    cs::Namespace ns(cs, [i] { return "k_and_h_select_bit_" + std::to_string(i); });
    bits.push_back(AllocatedBit::alloc(cs, "boolean", ((kh[i / 64] >> (i % 64)) & 1) != 0));
  }
  cs.enforce(
      "k_and_h_select binary decomp", [&] { return snap_bits_lc(bits); }, Variable::one(), k_and_h_select.variable());
  h.partition_bits.assign(bits.begin(), bits.begin() + static_cast<std::ptrdiff_t>(p_.partition_bit_len));
  h.h_select_bits.assign(bits.begin() + static_cast<std::ptrdiff_t>(p_.partition_bit_len), bits.end());
  AllocatedNum partition;
  {
    cs::Namespace ns(cs, "pack partition bits");
    const std::vector<Boolean> pb(h.partition_bits.begin(), h.partition_bits.end());
    partition = pack_bits(cs, std::span<const Boolean>(pb));
  }
  auto public_num = [&](const char* name, const char* input_name, const Fr& v) {
    const AllocatedNum n = alloc_named(cs, name, v);
    cs::Namespace ns(cs, input_name);
    n.inputize(cs);
    return n;
  };
  const AllocatedNum comm_r_old = public_num("comm_r_old", "comm_r_old_input", v_.comm_r_old);
  const AllocatedNum comm_d_new = public_num("comm_d_new", "comm_d_new_input", v_.comm_d_new);
  const AllocatedNum comm_r_new = public_num("comm_r_new", "comm_r_new_input", v_.comm_r_new);
  {
    cs::Namespace ns(cs, "phi");
    const AllocatedNum in[2] = {comm_d_new, comm_r_old};
    h.phi = poseidon_hash_circuit(cs, std::span<const AllocatedNum>(in), poseidon_constants_gen_randomness());
  }
  const AllocatedNum comm_c = alloc_named(cs, "comm_c", v_.comm_c);
  h.root_r_old = alloc_named(cs, "root_r_old", v_.root_r_old);
  h.root_r_new = alloc_named(cs, "root_r_new", v_.root_r_new);
  h.apex_leafs.reserve(v_.apex_leafs.size());
  for (std::size_t i = 0; i < v_.apex_leafs.size(); ++i) {
    cs::Namespace ns(cs, [i] { return "apex_leaf_" + std::to_string(i); });
    h.apex_leafs.push_back(AllocatedNum::alloc(cs, "num", [&] { return v_.apex_leafs[i]; }));
  }
  const std::vector<std::vector<AllocatedNum>> partition_path =
      snap_detail::alloc_path(cs, partition_path_levels(),
                              [](std::size_t r, std::size_t) { return "partition_path_sibling_" + std::to_string(r); });
  // comm_r = Poseidon2(comm_c, root_r), old and new.
  auto comm_r_calc = [&](const char* name, const char* eq, const AllocatedNum& root, const AllocatedNum& comm_r) {
    AllocatedNum calc;
    {
      cs::Namespace ns(cs, name);
      calc = PoseidonHasher::hash2(cs, comm_c, root);
    }
    cs.enforce(eq, calc.variable(), Variable::one(), comm_r.variable());
  };
  comm_r_calc("comm_r_old_calc", "enforce comm_r_old_calc == comm_r_old", h.root_r_old, comm_r_old);
  comm_r_calc("comm_r_new_calc", "enforce comm_r_new_calc == comm_r_new", h.root_r_new, comm_r_new);
  {
    cs::Namespace ns(cs, "apex_gadget");
    snap_apex_por(cs, h.apex_leafs, h.partition_bits, partition_path, comm_d_new);
  }
  cs::Namespace ns(cs, "gen_challenge_bits");
  h.random_bits =
      snap_gen_challenge_bits(cs, comm_r_new, partition, p_.challenge_count, p_.random_bits_per_challenge());
  return h;
}

template <class CS>
void EmptySectorUpdateCircuit::synthesize_challenge(CS& cs, std::size_t ci, const SnapHeader& h) const {
  const SnapChallengeValues& v = v_.challenges.at(ci);
  auto tag = [ci](const char* what) { return std::string(what) + " (c_index=" + std::to_string(ci) + ")"; };
  // The challenge's bits, least significant first: its random bits, then the partition's.
  std::vector<AllocatedBit> c_bits = h.random_bits.at(ci);
  c_bits.insert(c_bits.end(), h.partition_bits.begin(), h.partition_bits.end());

  AllocatedNum c_high, rho, leaf_r_old, leaf_d_new, leaf_r_new;
  {
    cs::Namespace ns(cs, [&] { return tag("get_challenge_high_bits"); });
    c_high = snap_challenge_high_bits(cs, c_bits, h.h_select_bits, p_.hs);
  }
  {
    cs::Namespace ns(cs, [&] { return tag("rho"); });
    const AllocatedNum in[2] = {h.phi, c_high};
    rho = poseidon_hash_circuit(cs, std::span<const AllocatedNum>(in), poseidon_constants_gen_randomness());
  }
  {
    cs::Namespace ns(cs, [&] { return tag("leaf_r_old"); });
    leaf_r_old = AllocatedNum::alloc(cs, "num", [&] { return v.leaf_r_old; });
  }
  {
    cs::Namespace ns(cs, [&] { return tag("leaf_d_new"); });
    leaf_d_new = AllocatedNum::alloc(cs, "num", [&] { return v.leaf_d_new; });
  }
  {
    cs::Namespace ns(cs, [&] { return tag("leaf_r_new"); });
    leaf_r_new = snap_label_r_new(cs, leaf_r_old, leaf_d_new, rho);
  }
  // TreeROld and TreeRNew: the path allocated, then hashed from the leaf with the challenge's bits.
  auto tree_r = [&](const char* sibling_name, const char* por_name, const std::vector<PathLevel>& path,
                    const AllocatedNum& leaf, const AllocatedNum& root) {
    const auto siblings = snap_detail::alloc_path(cs, path, [&](std::size_t r, std::size_t s) {
      return std::string(sibling_name) + " (c_index=" + std::to_string(ci) + ", tree_row=" + std::to_string(r) +
             ", sibling_index=" + std::to_string(s) + ")";
    });
    cs::Namespace ns(cs, [&] { return tag(por_name); });
    por_no_challenge_input<PoseidonHasher>(cs, p_.tree_r, c_bits, leaf, siblings, root);
  };
  tree_r("path_r_old sibling", "por tree_r_old", v.path_r_old, leaf_r_old, h.root_r_old);
  tree_r("path_r_new sibling", "por tree_r_new", v.path_r_new, leaf_r_new, h.root_r_new);

  // The apex leaf the challenge's bits above its TreeD path select, and that path up to it.
  const std::size_t below = p_.apex_leafs_height();
  const std::vector<Boolean> apex_bits(c_bits.begin() + static_cast<std::ptrdiff_t>(below),
                                       c_bits.begin() + static_cast<std::ptrdiff_t>(below + p_.apex_leaf_bit_len));
  const AllocatedNum apex_leaf = select(
      cs, [&] { return tag("select_apex_leaf"); }, std::span<const AllocatedNum>(h.apex_leafs),
      std::span<const Boolean>(apex_bits));
  const auto path_to_apex = snap_detail::alloc_path(
      cs, std::span<const PathLevel>(v.path_d_new).first(below), [&](std::size_t r, std::size_t) {
        return "path_to_apex_leaf sibling (c_index=" + std::to_string(ci) + ", tree_row=" + std::to_string(r) + ")";
      });
  cs::Namespace ns(cs, [&] { return tag("por to_apex_leaf"); });
  por_no_challenge_input<Sha256Hasher>(cs, TreeShape{2, 0, 0}, std::span<const AllocatedBit>(c_bits).first(below),
                                       leaf_d_new, path_to_apex, apex_leaf);
}

}  // namespace cuzk::filecoin
