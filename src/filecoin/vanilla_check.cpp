// PoSt vanilla proof checks (what and why in vanilla_check.hpp). Hashes with neptune's optimized
// native Poseidon (poseidon_constants.hpp), about 3x faster than the textbook permutation
// (gadgets::poseidon_hash_native) and equal to it; a 32 GiB partition is 237k arity-8 hashes.
#include "cuzk/filecoin/vanilla_check.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/poseidon_constants.hpp"
#include "cuzk/filecoin/post_challenges.hpp"

namespace cuzk::filecoin {

namespace {

constexpr std::size_t kMaxArity = 8;

// The wire form (32 bytes little-endian, as in the vanilla proof), in hex.
std::string hex(const Fr& x) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : x.to_bytes_le()) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

[[noreturn]] void fail(const PoStProofInfo& info, const FallbackPoStSectorProof& proof, const std::string& what) {
  throw DecodeError("vanilla proof (" + std::string(info.name) + ") of sector " + std::to_string(proof.sector_id) +
                    ": " + what);
}

std::string inclusion_name(const InclusionProof& p, std::size_t n) {
  return "inclusion proof " + std::to_string(n) + " (byte " + std::to_string(p.offset) + ")";
}

}  // namespace

Fr inclusion_path_root(const InclusionProof& p) {
  Fr cur = p.leaf;
  std::array<Fr, kMaxArity> nodes;
  for (const PathLevel& lv : p.path) {
    const std::size_t arity = lv.siblings.size() + 1;
    if (arity > kMaxArity || lv.index >= arity)
      throw std::invalid_argument("inclusion_path_root: malformed path level");
    for (std::size_t i = 0, s = 0; i < arity; ++i) nodes[i] = i == lv.index ? cur : lv.siblings[s++];
    cur = poseidon_hash(poseidon_constants(arity), std::span<const Fr>(nodes.data(), arity));
  }
  return cur;
}

std::uint64_t inclusion_leaf_index(const InclusionProof& p) {
  std::uint64_t index = 0, weight = 1;
  for (const PathLevel& lv : p.path) {
    index += weight * lv.index;
    weight *= lv.siblings.size() + 1;
  }
  return index;
}

Fr comm_r_from_parts(const Fr& comm_c, const Fr& comm_r_last) { return poseidon_hash2(comm_c, comm_r_last); }

void verify_sector_proof(const PoStProofInfo& info, const FallbackPoStSectorProof& proof, const Bytes32& randomness,
                         std::size_t sector_index) {
  if (proof.sectors.size() != 1) fail(info, proof, std::to_string(proof.sectors.size()) + " sector proofs; expected 1");
  const SectorProof& s = proof.sector();
  if (s.inclusion_proofs.size() != info.challenge_count)
    fail(info, proof,
         std::to_string(s.inclusion_proofs.size()) + " inclusion proofs; expected " +
             std::to_string(info.challenge_count));
  const auto arities = info.tree.level_arities(info.nodes);
  for (std::size_t n = 0; n < s.inclusion_proofs.size(); ++n)
    if (s.inclusion_proofs[n].path.size() != arities.size())
      fail(info, proof, inclusion_name(s.inclusion_proofs[n], n) + ": wrong path length");

  // 1. comm_r = H(comm_c, comm_r_last), comm_r_last being the first path's root.
  const Fr comm_r_last = s.inclusion_proofs.front().root;
  const Fr h = comm_r_from_parts(s.comm_c, comm_r_last);
  if (h != proof.comm_r)
    fail(info, proof,
         "comm_r " + hex(proof.comm_r) + " != Poseidon2(comm_c, comm_r_last) " + hex(h) +
             " (comm_r_last taken from inclusion proof 0's root)");
  // 4. The field the circuit uses.
  if (s.comm_r_last != comm_r_last)
    fail(info, proof, "comm_r_last " + hex(s.comm_r_last) + " != the inclusion proofs' root " + hex(comm_r_last));

  // 3. Each inclusion proof proves its challenge under comm_r_last.
  const std::vector<std::uint64_t> challenges = sector_leaf_challenges(info, randomness, proof.sector_id, sector_index);
  // The paths are hashed in parallel (a WinningPoSt's 66 paths are most of its vanilla check),
  // then checked in order, so the first failure in order is the one reported.
  std::vector<Fr> roots(s.inclusion_proofs.size());
  tbb::parallel_for(std::size_t{0}, roots.size(), [&](std::size_t n) { roots[n] = inclusion_path_root(s.inclusion_proofs[n]); });
  for (std::size_t n = 0; n < s.inclusion_proofs.size(); ++n) {
    const InclusionProof& p = s.inclusion_proofs[n];
    if (p.root != comm_r_last)
      fail(info, proof, inclusion_name(p, n) + ": root " + hex(p.root) + " != comm_r_last " + hex(comm_r_last));
    const Fr& computed = roots[n];
    if (computed != p.root)
      fail(info, proof,
           inclusion_name(p, n) + ": the leaf hashed up the path gives " + hex(computed) + ", not its root " +
               hex(p.root));
    const std::uint64_t index = inclusion_leaf_index(p);
    if (index != challenges[n])
      fail(info, proof,
           inclusion_name(p, n) + ": the path is for leaf " + std::to_string(index) + "; challenge " +
               std::to_string(n) + " is leaf " + std::to_string(challenges[n]) + " (sector index " +
               std::to_string(sector_index) + ", api " + std::string(to_string(info.api_version)) + ")");
  }
}

void verify_partition_vanilla_proofs(const PoStProofInfo& info, std::span<const FallbackPoStSectorProof> proofs,
                                     const Bytes32& randomness, std::size_t partition_index) {
  require_safe_commitment(randomness, "randomness");
  if (proofs.size() > info.sector_count)
    throw DecodeError(std::to_string(proofs.size()) + " vanilla proofs for a partition of " +
                      std::to_string(info.sector_count));
  std::vector<std::optional<std::string>> errors(proofs.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, proofs.size()), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      try {
        verify_sector_proof(info, proofs[i], randomness, partition_index * info.sector_count + i);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    }
  });
  for (std::size_t i = 0; i < errors.size(); ++i)
    if (errors[i]) throw DecodeError("vanilla proof " + std::to_string(i) + " of the partition: " + *errors[i]);
}

}  // namespace cuzk::filecoin
