// Decoding and encoding of bincode-serialized PoSt vanilla proofs (layout in vanilla.hpp). Every
// count is compared with what the registered proof's tree implies before anything is allocated,
// so a hostile length field cannot make the decoder reserve memory. The encoder writes the same
// layout back (bincode's Serialize for the same structs).
#include "cuzk/filecoin/vanilla.hpp"

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "cuzk/error.hpp"
#include "merkle_proof_bincode.hpp"

namespace cuzk::filecoin {

namespace {

constexpr std::size_t kFrBytes = 32;

using bincode_detail::kind_name;
using bincode_detail::shape_name;
using bincode_detail::upper_levels;

// A bounds-checked cursor. `where` callables name the item being read; they are only called
// to build an error message.
class Reader {
 public:
  Reader(std::span<const std::uint8_t> bytes, const PoStProofInfo& info) : b_(bytes), info_(info) {}

  std::size_t pos() const { return pos_; }
  std::size_t left() const { return b_.size() - pos_; }

  template <class Where>
  [[noreturn]] void fail(std::size_t at, Where&& where, const std::string& what) const {
    std::string ctx = where();
    throw DecodeError("vanilla proof (" + std::string(info_.name) + "), byte " + std::to_string(at) + ": " +
                      (ctx.empty() ? "" : ctx + ": ") + what);
  }

  template <class Where>
  void need(std::size_t n, Where&& where, const char* item) const {
    if (left() < n)
      fail(pos_, where,
           std::string("truncated: ") + item + " needs " + std::to_string(n) + " bytes, " + std::to_string(left()) +
               " left (the buffer has " + std::to_string(b_.size()) + ")");
  }

  template <class Where>
  std::uint64_t u64(Where&& where, const char* item) {
    need(8, where, item);
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | b_[pos_ + static_cast<std::size_t>(i)];
    pos_ += 8;
    return v;
  }

  template <class Where>
  std::uint32_t u32(Where&& where, const char* item) {
    need(4, where, item);
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | b_[pos_ + static_cast<std::size_t>(i)];
    pos_ += 4;
    return v;
  }

  // A PoseidonDomain: 32 bytes that must be a canonical field element (< r).
  template <class Where>
  Fr fr(Where&& where, const char* item) {
    need(kFrBytes, where, item);
    const std::size_t at = pos_;
    Fr::Repr c{};
    for (std::size_t i = 0; i < kFrBytes; ++i) c[i / 8] |= std::uint64_t{b_[at + i]} << (8 * (i % 8));
    if (ff::big::cmp(c, Fr::kModulus) >= 0)
      fail(at, where, std::string(item) + " is not a canonical field element (>= r)");
    pos_ += kFrBytes;
    return Fr::from_canonical(c);
  }

  // A Vec length that must equal `expected`; why() says where the expectation comes from.
  template <class Where, class Why>
  void length(Where&& where, const char* item, std::uint64_t expected, Why&& why) {
    const std::size_t at = pos_;
    const std::uint64_t n = u64(where, item);
    if (n != expected)
      fail(at, where,
           std::string(item) + " is " + std::to_string(n) + "; expected " + std::to_string(expected) + " (" + why() +
               ")");
  }

  const PoStProofInfo& info() const { return info_; }

 private:
  std::span<const std::uint8_t> b_;
  std::size_t pos_ = 0;
  const PoStProofInfo& info_;
};

// One InclusionPath (a Vec of PathElement) of `levels` levels of arity `arity`, appended to out.
// `part` ("base", "sub", "top") and `length_item` ("<part> path length") name it in messages.
template <class Where>
void read_path(Reader& r, Where&& where, const char* part, const char* length_item, std::size_t levels, unsigned arity,
               std::vector<PathLevel>& out) {
  r.length(where, length_item, levels, [&] {
    return "the " + shape_name(r.info().tree) + " tree of " + std::to_string(r.info().nodes) + " leaves";
  });
  for (std::size_t l = 0; l < levels; ++l) {
    auto at_level = [&] { return where() + ", " + part + " level " + std::to_string(l); };
    r.length(at_level, "sibling count", arity - 1, [arity] { return "arity " + std::to_string(arity); });
    PathLevel lv;
    lv.siblings.reserve(arity - 1);
    for (unsigned s = 0; s + 1 < arity; ++s)
      lv.siblings.push_back(r.fr([&] { return at_level() + ", sibling " + std::to_string(s); }, "hash"));
    const std::size_t at = r.pos();
    const std::uint64_t index = r.u64(at_level, "insertion index");
    if (index >= arity)
      r.fail(at, at_level,
             "insertion index " + std::to_string(index) + " is outside a level of arity " + std::to_string(arity));
    lv.index = static_cast<std::uint32_t>(index);
    out.push_back(std::move(lv));
  }
}

InclusionProof read_inclusion_proof(Reader& r, std::size_t n) {
  const TreeShape& t = r.info().tree;
  auto where = [n] { return "inclusion proof " + std::to_string(n); };
  InclusionProof p;
  p.offset = r.pos();
  const std::uint32_t tag = r.u32(where, "Merkle proof tag");
  const MerkleProofKind want = bincode_detail::kind_of(t);
  if (tag != static_cast<std::uint32_t>(want)) {
    const std::string got = tag <= 2 ? std::string(kind_name(static_cast<MerkleProofKind>(tag))) : "not a variant";
    r.fail(p.offset, where,
           "Merkle proof tag " + std::to_string(tag) + " (" + got + "); the " + shape_name(t) + " tree has " +
               kind_name(want) + " (" + std::to_string(static_cast<unsigned>(want)) + ") proofs");
  }
  p.kind = want;
  const std::size_t base_levels = t.base_levels(r.info().nodes);
  p.path.reserve(base_levels + (t.sub_arity ? 1 : 0) + (t.top_arity ? 1 : 0));
  if (want == MerkleProofKind::Single) {
    p.root = r.fr(where, "root");
    p.leaf = r.fr(where, "leaf");
    read_path(r, where, "base", "base path length", base_levels, t.base_arity, p.path);
    return p;
  }
  read_path(r, where, "base", "base path length", base_levels, t.base_arity, p.path);
  read_path(r, where, "sub", "sub path length", 1, t.sub_arity, p.path);
  if (want == MerkleProofKind::Top) read_path(r, where, "top", "top path length", 1, t.top_arity, p.path);
  p.root = r.fr(where, "root");
  p.leaf = r.fr(where, "leaf");
  return p;
}

std::size_t path_bytes(std::size_t levels, unsigned arity) { return 8 + levels * (8 + (arity - 1) * kFrBytes + 8); }

std::size_t encoded_size(const FallbackPoStSectorProof& p) {
  std::size_t n = 8 + kFrBytes + 8;
  for (const SectorProof& s : p.sectors) {
    n += 8 + 2 * kFrBytes;
    for (const InclusionProof& ip : s.inclusion_proofs) {
      n += 4 + 2 * kFrBytes + 8 * (1 + upper_levels(ip.kind));
      for (const PathLevel& lv : ip.path) n += 16 + lv.siblings.size() * kFrBytes;
    }
  }
  return n;
}

}  // namespace

std::vector<std::uint8_t> encode_vanilla_proof(const FallbackPoStSectorProof& proof) {
  bincode_detail::Writer w(encoded_size(proof));
  w.u64(proof.sector_id);
  w.fr(proof.comm_r);
  w.u64(proof.sectors.size());
  for (const SectorProof& s : proof.sectors) {
    w.u64(s.inclusion_proofs.size());
    for (const InclusionProof& ip : s.inclusion_proofs) w.merkle_proof(ip, "encode_vanilla_proof");
    w.fr(s.comm_c);
    w.fr(s.comm_r_last);
  }
  return std::move(w).take();
}

std::size_t vanilla_proof_size(RegisteredPoStProof proof) {
  const PoStProofInfo& info = post_proof_info(proof);
  const TreeShape& t = info.tree;
  std::size_t inclusion = 4 + 2 * kFrBytes + path_bytes(t.base_levels(info.nodes), t.base_arity);
  if (t.sub_arity) inclusion += path_bytes(1, t.sub_arity);
  if (t.top_arity) inclusion += path_bytes(1, t.top_arity);
  const std::size_t sector = 8 + info.challenge_count * inclusion + 2 * kFrBytes;
  return 8 + kFrBytes + 8 + sector;
}

FallbackPoStSectorProof decode_vanilla_proof(std::span<const std::uint8_t> bytes, RegisteredPoStProof proof) {
  const PoStProofInfo& info = post_proof_info(proof);
  Reader r(bytes, info);
  auto top = [] { return std::string(); };
  FallbackPoStSectorProof out;
  out.sector_id = r.u64(top, "sector_id");
  out.comm_r = r.fr(top, "comm_r");
  r.length(top, "sector proof count", 1, [] { return "filecoin-proofs puts one sector in a vanilla proof"; });
  SectorProof& s = out.sectors.emplace_back();
  r.length(top, "inclusion proof count", info.challenge_count, [&] {
    return std::string(info.type == PoStType::Winning ? "WinningPoSt" : "WindowPoSt") + " challenges per sector";
  });
  s.inclusion_proofs.reserve(info.challenge_count);
  for (std::size_t n = 0; n < info.challenge_count; ++n) s.inclusion_proofs.push_back(read_inclusion_proof(r, n));
  s.comm_c = r.fr(top, "comm_c");
  s.comm_r_last = r.fr(top, "comm_r_last");
  if (r.left() != 0)
    r.fail(r.pos(), top,
           std::to_string(r.left()) + " trailing bytes after the proof (it is " + std::to_string(r.pos()) +
               " bytes long)");
  return out;
}

std::vector<FallbackPoStSectorProof> decode_partition_vanilla_proofs(
    std::span<const std::span<const std::uint8_t>> proofs, RegisteredPoStProof proof) {
  const PoStProofInfo& info = post_proof_info(proof);
  if (proofs.empty()) throw DecodeError("no vanilla proofs for " + std::string(info.name));
  if (proofs.size() > info.sector_count)
    throw DecodeError(std::to_string(proofs.size()) + " vanilla proofs for one " + std::string(info.name) + " SNARK; " +
                      (info.type == PoStType::Winning ? "WinningPoSt proves " : "a partition holds at most ") +
                      std::to_string(info.sector_count) + " sector" + (info.sector_count == 1 ? "" : "s"));
  std::vector<FallbackPoStSectorProof> out;
  out.reserve(proofs.size());
  std::unordered_map<std::uint64_t, std::size_t> seen;
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    try {
      out.push_back(decode_vanilla_proof(proofs[i], proof));
    } catch (const DecodeError& e) {
      throw DecodeError("vanilla proof " + std::to_string(i) + " of " + std::to_string(proofs.size()) + ": " +
                        e.what());
    }
    auto [it, fresh] = seen.emplace(out.back().sector_id, i);
    if (!fresh)
      throw DecodeError("vanilla proofs " + std::to_string(it->second) + " and " + std::to_string(i) +
                        " are both for sector " + std::to_string(out.back().sector_id));
  }
  return out;
}

}  // namespace cuzk::filecoin
