// Decoding and encoding of bincode-serialized SnapDeals PartitionProofs (layout in
// snap_vanilla.hpp). Every count is compared with what the sector size implies before anything
// is reserved, so a hostile length cannot make the decoder allocate.
#include "cuzk/filecoin/snap_vanilla.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "cuzk/error.hpp"
#include "merkle_proof_bincode.hpp"

namespace cuzk::filecoin {

namespace {

constexpr std::size_t kFrBytes = 32;
constexpr std::size_t kNoIndex = ~std::size_t{0};

// A bounds-checked cursor that knows where in the structure it is (a stack of field names and
// indices, formatted only for a message: "challenge_proofs[3].proof_d_new.path[2].hashes[0]").
class Reader {
 public:
  Reader(std::span<const std::uint8_t> b, const SnapParams& p) : b_(b), p_(p) {}

  std::size_t pos() const { return pos_; }
  std::size_t left() const { return b_.size() - pos_; }
  const SnapParams& params() const { return p_; }

  void push(const char* key, std::size_t index = kNoIndex) { path_.emplace_back(key, index); }
  void pop() { path_.pop_back(); }

  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    std::string where;
    for (const auto& [key, index] : path_) {
      if (key) {
        if (!where.empty()) where.push_back('.');
        where += key;
      }
      if (index != kNoIndex) {  // pushed piecewise: GCC 12 warns (-Wrestrict) on "[" + s + "]"
        where.push_back('[');
        where += std::to_string(index);
        where.push_back(']');
      }
    }
    throw DecodeError("SnapDeals partition proof (sector of " + std::to_string(p_.sector_nodes) + " nodes), byte " +
                      std::to_string(at) + (where.empty() ? "" : " (" + where + ")") + ": " + what);
  }

  void need(std::size_t n, const char* item) const {
    if (left() < n)
      fail(pos_, std::string("truncated: ") + item + " needs " + std::to_string(n) + " bytes, " +
                     std::to_string(left()) + " left (the buffer has " + std::to_string(b_.size()) + ")");
  }

  std::uint64_t uint(std::size_t width, const char* item) {
    need(width, item);
    std::uint64_t v = 0;
    for (std::size_t i = width; i-- > 0;) v = (v << 8) | b_[pos_ + i];
    pos_ += width;
    return v;
  }

  Fr fr(const char* item) {
    need(kFrBytes, item);
    const std::size_t at = pos_;
    Fr::Repr c{};
    for (std::size_t i = 0; i < kFrBytes; ++i) c[i / 8] |= std::uint64_t{b_[at + i]} << (8 * (i % 8));
    if (ff::big::cmp(c, Fr::kModulus) >= 0) fail(at, std::string(item) + " is not a canonical field element (>= r)");
    pos_ += kFrBytes;
    return Fr::from_canonical(c);
  }

  // A Vec length that must be `expected` (why: where the expectation comes from).
  void length(const char* item, std::uint64_t expected, const std::string& why) {
    const std::size_t at = pos_;
    const std::uint64_t n = uint(8, item);
    if (n != expected)
      fail(at, std::string(item) + " is " + std::to_string(n) + "; expected " + std::to_string(expected) + " (" + why +
                   ")");
  }

 private:
  std::span<const std::uint8_t> b_;
  const SnapParams& p_;
  std::size_t pos_ = 0;
  std::vector<std::pair<const char*, std::size_t>> path_;
};

using bincode_detail::kind_name;
using bincode_detail::kind_of;
using bincode_detail::shape_name;

// One InclusionPath of `levels` levels of `arity`, appended to out.
void read_path(Reader& r, const char* part, std::size_t levels, unsigned arity, const std::string& why,
               std::vector<PathLevel>& out) {
  r.push(part);
  r.length("path length", levels, why);
  for (std::size_t l = 0; l < levels; ++l) {
    r.push(nullptr, l);
    r.length("sibling count", arity - 1, "arity " + std::to_string(arity));
    PathLevel lv;
    lv.siblings.reserve(arity - 1);
    for (unsigned s = 0; s + 1 < arity; ++s) {
      r.push("hashes", s);
      lv.siblings.push_back(r.fr("sibling"));
      r.pop();
    }
    const std::size_t at = r.pos();
    const std::uint64_t index = r.uint(8, "insertion index");
    if (index >= arity)
      r.fail(at, "insertion index " + std::to_string(index) + " is outside a level of arity " + std::to_string(arity));
    lv.index = static_cast<std::uint32_t>(index);
    out.push_back(std::move(lv));
    r.pop();
  }
  r.pop();
}

// A MerkleProof of a tree of `shape` over the sector's nodes.
InclusionProof read_merkle_proof(Reader& r, const char* name, const TreeShape& shape) {
  const std::uint64_t nodes = r.params().sector_nodes;
  r.push(name);
  InclusionProof p;
  p.offset = r.pos();
  const std::uint32_t tag = static_cast<std::uint32_t>(r.uint(4, "Merkle proof tag"));
  const MerkleProofKind want = kind_of(shape);
  if (tag != static_cast<std::uint32_t>(want)) {
    const std::string got = tag <= 2 ? kind_name(static_cast<MerkleProofKind>(tag)) : "not a variant";
    r.fail(p.offset, "Merkle proof tag " + std::to_string(tag) + " (" + got + "); the " + shape_name(shape) +
                         " tree has " + kind_name(want) + " (" + std::to_string(static_cast<unsigned>(want)) +
                         ") proofs");
  }
  p.kind = want;
  const std::string why = "the " + shape_name(shape) + " tree of " + std::to_string(nodes) + " leaves";
  const std::size_t base = shape.base_levels(nodes);
  p.path.reserve(base + (shape.sub_arity ? 1 : 0) + (shape.top_arity ? 1 : 0));
  if (want == MerkleProofKind::Single) {
    p.root = r.fr("root");
    p.leaf = r.fr("leaf");
    read_path(r, "path", base, shape.base_arity, why, p.path);
  } else {
    read_path(r, "base_path", base, shape.base_arity, why, p.path);
    read_path(r, "sub_path", 1, shape.sub_arity, why, p.path);
    if (want == MerkleProofKind::Top) read_path(r, "top_path", 1, shape.top_arity, why, p.path);
    p.root = r.fr("root");
    p.leaf = r.fr("leaf");
  }
  r.pop();
  return p;
}

std::size_t path_bytes(std::size_t levels, unsigned arity) { return 8 + levels * (8 + (arity - 1) * kFrBytes + 8); }

std::size_t merkle_proof_bytes(const TreeShape& t, std::uint64_t nodes) {
  std::size_t n = 4 + 2 * kFrBytes + path_bytes(t.base_levels(nodes), t.base_arity);
  if (t.sub_arity) n += path_bytes(1, t.sub_arity);
  if (t.top_arity) n += path_bytes(1, t.top_arity);
  return n;
}

}  // namespace

std::size_t snap_partition_proof_size(const SnapParams& p) {
  const std::size_t challenge =
      2 * merkle_proof_bytes(p.tree_r, p.sector_nodes) + merkle_proof_bytes(TreeShape{2, 0, 0}, p.sector_nodes);
  return kFrBytes + 8 + p.apex_leaf_count * kFrBytes + 8 + p.challenge_count * challenge;
}

SnapPartitionProof decode_snap_partition_proof(std::span<const std::uint8_t> bytes, const SnapParams& p) {
  validate_snap_params(p);
  Reader r(bytes, p);
  SnapPartitionProof out;
  r.push("comm_c");
  out.comm_c = r.fr("comm_c");
  r.pop();
  r.push("apex_leafs");
  out.apex_leafs_offset = r.pos();
  r.length("apex leaf count", p.apex_leaf_count, "apex leaves per partition of the sector size");
  out.apex_leafs.reserve(p.apex_leaf_count);
  for (std::size_t i = 0; i < p.apex_leaf_count; ++i) {
    r.push(nullptr, i);
    out.apex_leafs.push_back(r.fr("apex leaf"));
    r.pop();
  }
  r.pop();
  r.push("challenge_proofs");
  r.length("challenge proof count", p.challenge_count, "challenges per partition of the sector size");
  out.challenge_proofs.reserve(p.challenge_count);
  const TreeShape tree_d{2, 0, 0};
  for (std::size_t i = 0; i < p.challenge_count; ++i) {
    r.push(nullptr, i);
    SnapChallengeProof c;
    c.proof_r_old = read_merkle_proof(r, "proof_r_old", p.tree_r);
    c.proof_d_new = read_merkle_proof(r, "proof_d_new", tree_d);
    c.proof_r_new = read_merkle_proof(r, "proof_r_new", p.tree_r);
    out.challenge_proofs.push_back(std::move(c));
    r.pop();
  }
  r.pop();
  if (r.left() != 0)
    r.fail(r.pos(), std::to_string(r.left()) + " trailing bytes after the proof (it is " + std::to_string(r.pos()) +
                        " bytes long)");
  return out;
}

std::vector<std::uint8_t> encode_snap_partition_proof(const SnapPartitionProof& proof) {
  bincode_detail::Writer w;
  w.fr(proof.comm_c);
  w.u64(proof.apex_leafs.size());
  for (const Fr& leaf : proof.apex_leafs) w.fr(leaf);
  w.u64(proof.challenge_proofs.size());
  for (const SnapChallengeProof& c : proof.challenge_proofs) {
    w.merkle_proof(c.proof_r_old, "encode_snap_partition_proof");
    w.merkle_proof(c.proof_d_new, "encode_snap_partition_proof");
    w.merkle_proof(c.proof_r_new, "encode_snap_partition_proof");
  }
  return std::move(w).take();
}

}  // namespace cuzk::filecoin
