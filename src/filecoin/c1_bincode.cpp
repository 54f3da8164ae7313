// supraseal's C1 (form 3 of c1_output.hpp): bincode 1.x of filecoin-proofs'
// SealCommitPhase1Output<Tree>, read and written. Every length is checked against the bytes left
// before anything is reserved, so a hostile count cannot make the reader allocate.
#include <cstring>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_output.hpp"
#include "merkle_proof_bincode.hpp"

namespace cuzk::filecoin {

namespace {

class BinReader {
 public:
  BinReader(std::span<const std::uint8_t> b, RegisteredSealProof proof) : b_(b), proof_(proof) {}

  std::size_t pos() const { return pos_; }
  std::size_t left() const { return b_.size() - pos_; }

  // The position in the structure, formatted only for a message.
  void push(const char* key, std::size_t index = kNoIndex) { path_.push_back({key, index}); }
  void pop() { path_.pop_back(); }

  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    std::string path;
    for (const auto& [key, index] : path_) {
      if (key) {
        if (!path.empty()) path.push_back('.');
        path += key;
      }
      if (index != kNoIndex) {
        path.push_back('[');
        path += std::to_string(index);
        path.push_back(']');
      }
    }
    throw DecodeError("C1 bincode (" + std::string(seal_proof_info(proof_).name) + "), byte " + std::to_string(at) +
                      (path.empty() ? "" : " (" + path + ")") + ": " + what);
  }

  void need(std::size_t n, const char* item) const {
    if (left() < n)
      fail(pos_, std::string("truncated: ") + item + " needs " + std::to_string(n) + " bytes, " +
                     std::to_string(left()) + " left");
  }

  std::uint64_t uint(std::size_t width, const char* item) {
    need(width, item);
    std::uint64_t v = 0;
    for (std::size_t i = width; i-- > 0;) v = (v << 8) | b_[pos_ + i];
    pos_ += width;
    return v;
  }

  // A Vec length whose elements take at least min_size bytes each.
  std::size_t count(std::size_t min_size, const char* item) {
    const std::size_t at = pos_;
    const std::uint64_t n = uint(8, item);
    if (n > left() / min_size)
      fail(at, std::string(item) + " " + std::to_string(n) + " cannot fit in the " + std::to_string(left()) +
                   " bytes left");
    return static_cast<std::size_t>(n);
  }

  Bytes32 bytes32(const char* item) {
    need(32, item);
    Bytes32 out;
    std::memcpy(out.data(), b_.data() + pos_, 32);
    pos_ += 32;
    return out;
  }

  Fr fr(const char* item) {
    const std::size_t at = pos_;
    const Bytes32 b = bytes32(item);
    Fr::Repr c{};
    for (std::size_t i = 0; i < 32; ++i) c[i / 8] |= std::uint64_t{b[i]} << (8 * (i % 8));
    if (ff::big::cmp(c, Fr::kModulus) >= 0) fail(at, std::string(item) + " is not a canonical field element (>= r)");
    return Fr::from_canonical(c);
  }

  std::vector<Fr> frs(const char* count_item, const char* item) {
    const std::size_t n = count(32, count_item);
    std::vector<Fr> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) out.push_back(fr(item));
    return out;
  }

  void end() const {
    if (left() != 0) fail(pos_, std::to_string(left()) + " trailing bytes");
  }

 private:
  static constexpr std::size_t kNoIndex = ~std::size_t{0};
  std::span<const std::uint8_t> b_;
  std::size_t pos_ = 0;
  RegisteredSealProof proof_;
  std::vector<std::pair<const char*, std::size_t>> path_;
};

// An InclusionPath; returns its level count.
std::size_t read_path(BinReader& r, std::vector<PathLevel>& out) {
  const std::size_t n = r.count(16, "path length");
  for (std::size_t l = 0; l < n; ++l) {
    r.push(nullptr, l);
    PathLevel lv;
    lv.siblings = r.frs("hash count", "hash");
    const std::size_t at = r.pos();
    const std::uint64_t index = r.uint(8, "index");
    if (index > 0xffffffffu) r.fail(at, "insertion index " + std::to_string(index) + " is outside any tree level");
    lv.index = static_cast<std::uint32_t>(index);
    out.push_back(std::move(lv));
    r.pop();
  }
  return n;
}

InclusionProof read_merkle_proof(BinReader& r) {
  InclusionProof p;
  p.offset = r.pos();
  const std::uint64_t tag = r.uint(4, "ProofData tag");
  if (tag > 2) r.fail(p.offset, "ProofData tag " + std::to_string(tag) + " (0 Single, 1 Sub, 2 Top)");
  p.kind = static_cast<MerkleProofKind>(tag);
  if (p.kind == MerkleProofKind::Single) {
    p.root = r.fr("root");
    p.leaf = r.fr("leaf");
    r.push("path");
    read_path(r, p.path);
    r.pop();
    return p;
  }
  r.push("base_proof");
  read_path(r, p.path);
  r.pop();
  const char* upper[] = {"sub_proof", "top_proof"};
  for (std::size_t u = 0; u < (p.kind == MerkleProofKind::Top ? 2u : 1u); ++u) {
    const std::size_t at = r.pos();
    r.push(upper[u]);
    const std::size_t n = read_path(r, p.path);
    r.pop();
    if (n != 1)
      r.fail(at, std::string(upper[u]) + " has " + std::to_string(n) + " levels; a sub/top tree is one level");
  }
  p.root = r.fr("root");
  p.leaf = r.fr("leaf");
  return p;
}

ColumnOpening read_column(BinReader& r) {
  ColumnOpening c;
  c.offset = r.pos();
  c.index = static_cast<std::uint32_t>(r.uint(4, "column index"));
  c.rows = r.frs("row count", "row");
  r.push("inclusion_proof");
  c.tree_c = read_merkle_proof(r);
  r.pop();
  return c;
}

LabelingProof read_label(BinReader& r) {
  LabelingProof l;
  l.offset = r.pos();
  l.parents = r.frs("parent count", "parent label");
  l.layer_index = static_cast<std::uint32_t>(r.uint(4, "layer_index"));
  l.node = r.uint(8, "node");
  return l;
}

PorepVanillaProof read_proof(BinReader& r) {
  PorepVanillaProof v;
  v.offset = r.pos();
  r.push("comm_d_proofs");
  v.comm_d_proof = read_merkle_proof(r);
  r.pop();
  r.push("comm_r_last_proof");
  v.comm_r_last_proof = read_merkle_proof(r);
  r.pop();
  r.push("replica_column_proofs.c_x");
  v.c_x = read_column(r);
  r.pop();
  for (auto [name, cols] : {std::pair{"replica_column_proofs.drg_parents", &v.drg_parents},
                            std::pair{"replica_column_proofs.exp_parents", &v.exp_parents}}) {
    const std::size_t n = r.count(4 + 8 + 4 + 64, "column count");
    for (std::size_t i = 0; i < n; ++i) {
      r.push(name, i);
      cols->push_back(read_column(r));
      r.pop();
    }
  }
  const std::size_t n = r.count(8 + 4 + 8, "labeling proof count");
  for (std::size_t i = 0; i < n; ++i) {
    r.push("labeling_proofs", i);
    v.labeling_proofs.push_back(read_label(r));
    r.pop();
  }
  r.push("encoding_proof");
  v.encoding_proof = read_label(r);
  r.pop();
  return v;
}

// supraseal's C1 layout over the shared bincode writer.
class BinWriter : public bincode_detail::Writer {
 public:
  using bincode_detail::Writer::Writer;
  void merkle_proof(const InclusionProof& p) { Writer::merkle_proof(p, "encode_c1_bincode"); }
  void column(const ColumnOpening& c) {
    uint(c.index, 4);
    frs(c.rows);
    merkle_proof(c.tree_c);
  }
  void label(const LabelingProof& l) {
    frs(l.parents);
    uint(l.layer_index, 4);
    uint(l.node, 8);
  }
};

}  // namespace

SealCommitPhase1 parse_c1_bincode(std::span<const std::uint8_t> bytes, RegisteredSealProof proof) {
  BinReader r(bytes, proof);
  SealCommitPhase1 c1;
  c1.registered_proof = proof;
  const std::size_t partitions = r.count(8, "partition count");
  c1.partitions.resize(partitions);
  for (std::size_t k = 0; k < partitions; ++k) {
    const std::size_t n = r.count(64, "challenge count");
    for (std::size_t i = 0; i < n; ++i) {
      r.push("vanilla_proofs", k);
      r.push(nullptr, i);
      c1.partitions[k].push_back(read_proof(r));
      r.pop();
      r.pop();
    }
  }
  c1.comm_r = r.fr("comm_r");
  c1.comm_d = r.fr("comm_d");
  c1.replica_id = r.fr("replica_id");
  c1.seed = r.bytes32("seed");
  c1.ticket = r.bytes32("ticket");
  r.end();
  return c1;
}

SealCommitPhase1 decode_c1_bincode(std::span<const std::uint8_t> bytes, RegisteredSealProof proof) {
  SealCommitPhase1 c1 = parse_c1_bincode(bytes, proof);
  validate_c1_shape(c1, c1_shape(proof));
  return c1;
}

std::vector<std::uint8_t> encode_c1_bincode(const SealCommitPhase1& c1) {
  BinWriter w(1 << 20);
  w.uint(c1.partitions.size(), 8);
  for (const auto& part : c1.partitions) {
    w.uint(part.size(), 8);
    for (const PorepVanillaProof& p : part) {
      w.merkle_proof(p.comm_d_proof);
      w.merkle_proof(p.comm_r_last_proof);
      w.column(p.c_x);
      for (const auto* cols : {&p.drg_parents, &p.exp_parents}) {
        w.uint(cols->size(), 8);
        for (const ColumnOpening& c : *cols) w.column(c);
      }
      w.uint(p.labeling_proofs.size(), 8);
      for (const LabelingProof& l : p.labeling_proofs) w.label(l);
      w.label(p.encoding_proof);
    }
  }
  w.fr(c1.comm_r);
  w.fr(c1.comm_d);
  w.fr(c1.replica_id);
  w.bytes(c1.seed);
  w.bytes(c1.ticket);
  return std::move(w).take();
}

}  // namespace cuzk::filecoin
