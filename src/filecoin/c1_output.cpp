// What a C1 of each registered proof must look like, the shape check every decoder ends with,
// and the small helpers the forms share (c1_output.hpp).
#include "cuzk/filecoin/c1_output.hpp"

#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "merkle_proof_bincode.hpp"

namespace cuzk::filecoin {

namespace {

using bincode_detail::kind_name;
using bincode_detail::kind_of;
using bincode_detail::shape_name;

// One challenge's proof being checked: names it in messages.
struct Where {
  const SealCommitPhase1& c1;
  std::size_t partition, challenge;
  const PorepVanillaProof& proof;

  [[noreturn]] void fail(const std::string& field, std::size_t offset, const std::string& what) const {
    throw DecodeError("C1 (" + std::string(seal_proof_info(c1.registered_proof).name) + "), partition " +
                      std::to_string(partition) + ", challenge " + std::to_string(challenge) + ": " + field +
                      " (byte " + std::to_string(offset) + "): " + what);
  }
};

// A path of the tree `tree` over `nodes` leaves: its variant, its length, each level's siblings
// and insertion index.
void check_path(const Where& w, const std::string& field, const InclusionProof& p, const TreeShape& tree,
                std::uint64_t nodes) {
  const MerkleProofKind want = kind_of(tree);
  if (p.kind != want)
    w.fail(field, p.offset,
           std::string("a ") + kind_name(p.kind) + " proof; the " + shape_name(tree) + " tree has " + kind_name(want) +
               " proofs");
  const std::vector<unsigned> arities = tree.level_arities(nodes);
  if (p.path.size() != arities.size())
    w.fail(field, p.offset,
           "the path has " + std::to_string(p.path.size()) + " levels; the " + shape_name(tree) + " tree of " +
               std::to_string(nodes) + " leaves has " + std::to_string(arities.size()));
  for (std::size_t l = 0; l < arities.size(); ++l) {
    const PathLevel& lv = p.path[l];
    if (lv.siblings.size() + 1 != arities[l])
      w.fail(field, p.offset,
             "path level " + std::to_string(l) + " has " + std::to_string(lv.siblings.size()) + " hashes; arity " +
                 std::to_string(arities[l]) + " needs " + std::to_string(arities[l] - 1));
    if (lv.index >= arities[l])
      w.fail(field, p.offset,
             "path level " + std::to_string(l) + ": insertion index " + std::to_string(lv.index) +
                 " is outside a level of arity " + std::to_string(arities[l]));
  }
}

void check_column(const Where& w, const std::string& field, const ColumnOpening& c, const PorepC1Shape& shape) {
  if (c.rows.size() != shape.layers)
    w.fail(field + ".column.rows", c.offset,
           std::to_string(c.rows.size()) + " rows; the sector has " + std::to_string(shape.layers) + " layers");
  if (c.index >= shape.nodes)
    w.fail(field + ".column.index", c.offset,
           "node " + std::to_string(c.index) + " is outside the sector's " + std::to_string(shape.nodes) + " nodes");
  check_path(w, field + ".inclusion_proof", c.tree_c, shape.tree, shape.nodes);
}

void check_label(const Where& w, const std::string& field, const LabelingProof& l) {
  if (l.parents.size() != kSdrLabelParents)
    w.fail(field + ".parents", l.offset,
           std::to_string(l.parents.size()) + " parent labels; a label hashes " + std::to_string(kSdrLabelParents));
}

void check_proof(const Where& w, const PorepC1Shape& shape) {
  const PorepVanillaProof& p = w.proof;
  check_path(w, "comm_d_proofs", p.comm_d_proof, TreeShape{2, 0, 0}, shape.nodes);
  check_path(w, "comm_r_last_proof", p.comm_r_last_proof, shape.tree, shape.nodes);
  check_column(w, "replica_column_proofs.c_x", p.c_x, shape);
  const std::pair<const std::vector<ColumnOpening>*, std::size_t> groups[] = {{&p.drg_parents, kDrgDegree},
                                                                              {&p.exp_parents, kExpDegree}};
  for (std::size_t g = 0; g < 2; ++g) {
    const std::string name = g == 0 ? "replica_column_proofs.drg_parents" : "replica_column_proofs.exp_parents";
    const auto& cols = *groups[g].first;
    if (cols.size() != groups[g].second)
      w.fail(name, p.offset,
             std::to_string(cols.size()) + " columns; SDR has " + std::to_string(groups[g].second) +
                 (g == 0 ? " DRG parents" : " expander parents"));
    for (std::size_t i = 0; i < cols.size(); ++i) check_column(w, name + "[" + std::to_string(i) + "]", cols[i], shape);
  }
  if (p.labeling_proofs.size() != shape.layers)
    w.fail("labeling_proofs", p.offset,
           std::to_string(p.labeling_proofs.size()) + " labeling proofs; the sector has " +
               std::to_string(shape.layers) + " layers");
  for (std::size_t i = 0; i < p.labeling_proofs.size(); ++i)
    check_label(w, "labeling_proofs[" + std::to_string(i) + "]", p.labeling_proofs[i]);
  check_label(w, "encoding_proof", p.encoding_proof);
}

}  // namespace

PorepC1Shape c1_shape(RegisteredSealProof p) {
  const SealProofInfo& info = seal_proof_info(p);
  PorepC1Shape s;
  s.nodes = info.nodes;
  s.tree = info.tree;
  s.layers = info.layers;
  s.partitions = info.porep_partitions;
  s.challenges_per_partition = porep_challenges_per_partition(info);
  return s;
}

std::string vanilla_seal_proof_variant(std::uint64_t sector_size) {
  switch (sector_size) {
    case kSectorSize2KiB:
      return "StackedDrg2KiBV1";
    case kSectorSize8MiB:
      return "StackedDrg8MiBV1";
    case kSectorSize512MiB:
      return "StackedDrg512MiBV1";
    case kSectorSize32GiB:
      return "StackedDrg32GiBV1";
    case kSectorSize64GiB:
      return "StackedDrg64GiBV1";
    default:
      throw std::invalid_argument("no VanillaSealProof variant for sector size " + std::to_string(sector_size));
  }
}

void validate_c1_shape(const SealCommitPhase1& c1, const PorepC1Shape& shape) {
  const std::string name(seal_proof_info(c1.registered_proof).name);
  if (c1.partitions.size() != shape.partitions)
    throw DecodeError("C1 (" + name + "): " + std::to_string(c1.partitions.size()) + " partitions of vanilla proofs; " +
                      name + " has " + std::to_string(shape.partitions));
  for (std::size_t k = 0; k < c1.partitions.size(); ++k) {
    const auto& part = c1.partitions[k];
    if (part.size() != shape.challenges_per_partition)
      throw DecodeError("C1 (" + name + "), partition " + std::to_string(k) + ": " + std::to_string(part.size()) +
                        " challenge proofs; " + name + " has " + std::to_string(shape.challenges_per_partition) +
                        " challenges per partition");
    for (std::size_t i = 0; i < part.size(); ++i) check_proof(Where{c1, k, i, part[i]}, shape);
  }
}

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    for (int s = 18; s >= 0; s -= 6) out.push_back(kAlphabet[(v >> s) & 63]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest) {
    std::uint32_t v = std::uint32_t{bytes[i]} << 16;
    if (rest == 2) v |= std::uint32_t{bytes[i + 1]} << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

}  // namespace cuzk::filecoin
