// SnapDeals constants and public inputs (snap_params.hpp), after storage-proofs-update
// constants.rs, vanilla.rs PublicParams::from_sector_size and circuit.rs PublicInputs::new.
#include "cuzk/filecoin/snap_params.hpp"

#include <array>
#include <cctype>
#include <stdexcept>
#include <string>

#include "cuzk/error.hpp"

namespace cuzk::filecoin {

namespace {

constexpr std::uint64_t kKiB = 1024 / 32;  // nodes of a KiB
constexpr std::uint64_t kMiB = kKiB << 10;
constexpr std::uint64_t kGiB = kMiB << 10;

// ALLOWED_SECTOR_SIZES with validate_tree_r_shape's (base, sub, top) arities.
struct SizeRow {
  std::uint64_t nodes;
  TreeShape tree;
};
constexpr std::array<SizeRow, 11> kSizes = {{
    {kKiB, {8, 4, 0}},
    {2 * kKiB, {8, 0, 0}},
    {4 * kKiB, {8, 2, 0}},
    {8 * kKiB, {8, 4, 0}},
    {16 * kKiB, {8, 8, 0}},
    {32 * kKiB, {8, 8, 2}},
    {8 * kMiB, {8, 0, 0}},
    {16 * kMiB, {8, 2, 0}},
    {512 * kMiB, {8, 0, 0}},
    {32 * kGiB, {8, 8, 0}},
    {64 * kGiB, {8, 8, 2}},
}};

const SizeRow& size_row(std::uint64_t nodes) {
  for (const SizeRow& r : kSizes)
    if (r.nodes == nodes) return r;
  throw std::invalid_argument("SnapDeals: a sector of " + std::to_string(nodes) +
                              " nodes is not an allowed sector size (constants.rs ALLOWED_SECTOR_SIZES)");
}

std::size_t log2_of(std::uint64_t v, const char* what) { return log2_exact(v, what); }

constexpr std::array<UpdateProofInfo, kNumRegisteredUpdateProofs> kUpdateProofs = {{
    {RegisteredUpdateProof::StackedDrg2KiBV1, "StackedDrg2KiBV1", std::uint64_t{1} << 11, std::uint64_t{1} << 6},
    {RegisteredUpdateProof::StackedDrg8MiBV1, "StackedDrg8MiBV1", std::uint64_t{1} << 23, std::uint64_t{1} << 18},
    {RegisteredUpdateProof::StackedDrg512MiBV1, "StackedDrg512MiBV1", std::uint64_t{1} << 29, std::uint64_t{1} << 24},
    {RegisteredUpdateProof::StackedDrg32GiBV1, "StackedDrg32GiBV1", std::uint64_t{1} << 35, std::uint64_t{1} << 30},
    {RegisteredUpdateProof::StackedDrg64GiBV1, "StackedDrg64GiBV1", std::uint64_t{1} << 36, std::uint64_t{1} << 31},
}};

}  // namespace

const UpdateProofInfo& update_proof_info(RegisteredUpdateProof p) {
  const auto i = static_cast<std::size_t>(p);
  if (i >= kUpdateProofs.size()) throw std::invalid_argument("update_proof_info: unknown RegisteredUpdateProof");
  return kUpdateProofs[i];
}

std::optional<RegisteredUpdateProof> update_proof_from_id(std::int64_t id) {
  if (id < 0 || id >= static_cast<std::int64_t>(kNumRegisteredUpdateProofs)) return std::nullopt;
  return static_cast<RegisteredUpdateProof>(id);
}

RegisteredUpdateProof update_proof_from_id_or_throw(std::int64_t id) {
  if (auto p = update_proof_from_id(id)) return *p;
  throw DecodeError("unknown RegisteredUpdateProof id " + std::to_string(id) + " (0..4 are registered)");
}

std::span<const UpdateProofInfo> all_update_proofs() { return kUpdateProofs; }

std::optional<RegisteredUpdateProof> update_proof_of_size(std::uint64_t sector_size) {
  for (const UpdateProofInfo& info : kUpdateProofs)
    if (info.sector_size == sector_size) return info.id;
  return std::nullopt;
}

std::string snap_circuit_name(const UpdateProofInfo& info) {
  // The size in the name ("StackedDrg32GiBV1" -> "32gib").
  std::string_view size = info.name;
  size.remove_prefix(std::string_view("StackedDrg").size());
  size.remove_suffix(std::string_view("V1").size());
  std::string out = "snap-";
  for (char c : size) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool snap_sector_nodes_allowed(std::uint64_t sector_nodes) {
  for (const SizeRow& r : kSizes)
    if (r.nodes == sector_nodes) return true;
  return false;
}

std::size_t snap_partition_count(std::uint64_t n) {
  size_row(n);
  return n <= 8 * kKiB ? 1 : n <= 32 * kKiB ? 2 : n <= 16 * kMiB ? 4 : 16;
}

std::size_t snap_challenge_count(std::uint64_t n) {
  size_row(n);
  return n <= 16 * kMiB ? 10 : 86;
}

std::size_t snap_apex_leaf_count(std::uint64_t n) {
  size_row(n);
  return n <= 8 * kKiB ? 8 : 128;
}

SnapHs snap_hs(std::uint64_t n) {
  size_row(n);
  if (n <= 32 * kKiB) return {1, 1, 1, 1, 1, 1};
  return {7, 8, 9, 10, 11, 12};
}

unsigned snap_h_default(std::uint64_t n) { return snap_hs(n)[3]; }

std::uint64_t snap_h_select(std::uint64_t n, unsigned h) {
  const SnapHs hs = snap_hs(n);
  for (std::size_t i = 0; i < hs.size(); ++i)
    if (hs[i] == h) return std::uint64_t{1} << i;
  throw std::invalid_argument("SnapDeals: h = " + std::to_string(h) + " is not allowed for a sector of " +
                              std::to_string(n) + " nodes");
}

TreeShape snap_tree_r_shape(std::uint64_t n) { return size_row(n).tree; }

SnapParams snap_params(std::uint64_t n) {
  SnapParams p;
  p.sector_nodes = n;
  p.tree_r = snap_tree_r_shape(n);
  p.challenge_count = snap_challenge_count(n);
  p.challenge_bit_len = log2_of(n, "sector nodes");
  p.partition_count = snap_partition_count(n);
  p.partition_bit_len = log2_of(p.partition_count, "partition count");
  p.apex_leaf_count = snap_apex_leaf_count(n);
  p.apex_leaf_bit_len = log2_of(p.apex_leaf_count, "apex leaf count");
  p.hs = snap_hs(n);
  return p;
}

SnapParams snap_params(RegisteredUpdateProof proof) { return snap_params(update_proof_info(proof).nodes); }

void validate_snap_params(const SnapParams& p) {
  auto bad = [](const std::string& what) { throw std::invalid_argument("SnapParams: " + what); };
  if (log2_of(p.sector_nodes, "sector nodes") != p.challenge_bit_len)
    bad("challenge_bit_len is not log2(sector_nodes)");
  if (log2_of(p.partition_count, "partition count") != p.partition_bit_len)
    bad("partition_bit_len is not log2(partitions)");
  if (log2_of(p.apex_leaf_count, "apex leaf count") != p.apex_leaf_bit_len)
    bad("apex_leaf_bit_len is not log2(apex leaves)");
  if (p.partition_bit_len + p.apex_leaf_bit_len > p.challenge_bit_len)
    bad("the partition and apex trees are taller than TreeD");
  if (p.challenge_count == 0) bad("no challenges");
  if (p.random_bits_per_challenge() == 0 || p.random_bits_per_challenge() > kFrCapacity)
    bad("random bits per challenge");
  if (p.partition_bit_len + kSnapHsCount >= kFrCapacity) bad("k_and_h_select does not fit a field element");
  for (unsigned h : p.hs)
    if (h == 0 || h > p.challenge_bit_len) bad("h = " + std::to_string(h) + " is outside 1..challenge_bit_len");
  if (p.tree_r.index_bits(p.sector_nodes) != p.challenge_bit_len) bad("TreeR's index bits");
  p.tree_r.level_arities(p.sector_nodes);  // throws for a shape that does not fit
}

std::uint64_t snap_k_and_h_select(const SnapParams& p, std::size_t k, unsigned h) {
  if (k >= p.partition_count)
    throw std::invalid_argument("SnapDeals: partition index " + std::to_string(k) + " exceeds the partition count " +
                                std::to_string(p.partition_count));
  for (std::size_t i = 0; i < p.hs.size(); ++i)
    if (p.hs[i] == h) return std::uint64_t{k} | (std::uint64_t{1} << i) << p.partition_bit_len;
  throw std::invalid_argument("SnapDeals: h = " + std::to_string(h) + " is not one of the sector size's hs");
}

std::vector<Fr> snap_public_inputs(const SnapParams& p, std::size_t k, unsigned h, const Fr& comm_r_old,
                                   const Fr& comm_d_new, const Fr& comm_r_new) {
  return {Fr::from_u64(snap_k_and_h_select(p, k, h)), comm_r_old, comm_d_new, comm_r_new};
}

}  // namespace cuzk::filecoin
