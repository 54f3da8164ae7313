// Merkle inclusion: recompute the root from a leaf and its authentication path.
//  - binary SHA-256 tree: node = SHA-256(left || right) over 256-bit big-endian digests;
//    dir[i] = 1 when the running node is the right child at level i.
//  - Poseidon tree of arity 2^k: node = Poseidon(children); at each level the running node is
//    inserted at position index (k little-endian bits) among the arity-1 siblings, kept in order.
#pragma once

#include <span>
#include <stdexcept>
#include <vector>

#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/gadgets/sha256.hpp"

namespace cuzk::gadgets {

template <class F, class CS>
std::vector<Boolean<F>> sha256_merkle_root(CS& cs, std::span<const Boolean<F>> leaf,
                                           std::span<const std::vector<Boolean<F>>> siblings,
                                           std::span<const Boolean<F>> dirs) {
  if (leaf.size() != 256) throw std::invalid_argument("sha256_merkle_root: leaf must have 256 bits");
  if (siblings.size() != dirs.size()) throw std::invalid_argument("sha256_merkle_root: one direction bit per level");
  cs::Namespace ns(cs, "sha256 merkle");
  std::vector<Boolean<F>> cur(leaf.begin(), leaf.end());
  for (std::size_t lvl = 0; lvl < siblings.size(); ++lvl) {
    cs::Namespace nl(cs, [lvl] { return "level " + std::to_string(lvl); });
    const auto& sib = siblings[lvl];
    if (sib.size() != 256) throw std::invalid_argument("sha256_merkle_root: sibling must have 256 bits");
    std::vector<Boolean<F>> msg(512);
    for (std::size_t i = 0; i < 256; ++i) {
      msg[i] = select<F>(cs, dirs[lvl], sib[i], cur[i]);
      msg[256 + i] = select<F>(cs, dirs[lvl], cur[i], sib[i]);
    }
    cur = sha256<F>(cs, std::span<const Boolean<F>>(msg));
  }
  return cur;
}

template <class F, class CS>
void enforce_equal_bits(CS& cs, std::span<const Boolean<F>> a, std::span<const Boolean<F>> b) {
  if (a.size() != b.size()) throw std::invalid_argument("enforce_equal_bits: sizes differ");
  for (std::size_t i = 0; i < a.size(); ++i) enforce_equal<F>(cs, a[i], b[i]);
}

// One-hot decoding of little-endian index bits: result[j] = [index == j] (2^k entries).
template <class F, class CS>
std::vector<Boolean<F>> one_hot(CS& cs, std::span<const Boolean<F>> bits) {
  std::vector<Boolean<F>> e{Boolean<F>::constant(true)};
  for (std::size_t i = 0; i < bits.size(); ++i) {
    std::vector<Boolean<F>> n(e.size() * 2);
    for (std::size_t j = 0; j < e.size(); ++j) {
      n[j] = and_<F>(cs, e[j], !bits[i]);
      n[j + e.size()] = and_<F>(cs, e[j], bits[i]);
    }
    e = std::move(n);
  }
  return e;
}

// The arity = siblings.size() + 1 children with `cur` at position index (bits little-endian).
template <class F, class CS>
std::vector<AllocatedNum<F>> insert_at(CS& cs, const AllocatedNum<F>& cur, std::span<const AllocatedNum<F>> sib,
                                       std::span<const Boolean<F>> index_bits) {
  const std::size_t arity = sib.size() + 1;
  if ((std::size_t{1} << index_bits.size()) != arity)
    throw std::invalid_argument("insert_at: arity must be 2^(number of index bits)");
  auto e = one_hot<F>(cs, index_bits);
  std::size_t idx = 0;
  for (std::size_t i = 0; i < index_bits.size(); ++i) idx |= std::size_t{index_bits[i].value()} << i;
  auto value_at = [&](std::size_t j) {
    return j < idx ? sib[j].value() : j == idx ? cur.value() : sib[j - 1].value();
  };
  auto g_lc = [&](std::size_t j) {  // [index > j]
    LinearCombination<F> lc;
    for (std::size_t k = j + 1; k < arity; ++k) e[k].add_to(lc, F::one());
    return lc;
  };
  std::vector<AllocatedNum<F>> out;
  out.reserve(arity);
  for (std::size_t j = 0; j < arity; ++j) {
    auto o = AllocatedNum<F>::alloc(cs, "child", [&] { return value_at(j); });
    if (j == 0) {  // o = cur + [idx > 0]·(sib0 - cur)
      cs.enforce("child 0", [&] { return g_lc(0); }, [&] { return sib[0].lc() - cur.lc(); },
                 [&] { return o.lc() - cur.lc(); });
    } else if (j + 1 == arity) {  // o = sib[j-1] + [idx == j]·(cur - sib[j-1])
      cs.enforce("child last", [&] { return e[j].lc(); }, [&] { return cur.lc() - sib[j - 1].lc(); },
                 [&] { return o.lc() - sib[j - 1].lc(); });
    } else {  // o = sib[j-1] + [idx > j]·(sib[j] - sib[j-1]) + [idx == j]·(cur - sib[j-1])
      const F pv = (idx > j) ? sib[j].value() - sib[j - 1].value() : F::zero();
      Variable p = cs.alloc("shift", [&] { return pv; });
      cs.enforce("shift", [&] { return g_lc(j); }, [&] { return sib[j].lc() - sib[j - 1].lc(); }, p);
      cs.enforce("child", [&] { return e[j].lc(); }, [&] { return cur.lc() - sib[j - 1].lc(); },
                 [&] { return o.lc() - sib[j - 1].lc() - LinearCombination<F>(p); });
    }
    out.push_back(o);
  }
  return out;
}

template <class F>
struct PoseidonPathLevel {
  std::vector<AllocatedNum<F>> siblings;  // arity - 1
  std::vector<Boolean<F>> index_bits;     // log2(arity), little-endian
};

template <class F, class CS>
AllocatedNum<F> poseidon_merkle_root(CS& cs, const PoseidonParams<F>& p, const AllocatedNum<F>& leaf,
                                     std::span<const PoseidonPathLevel<F>> path) {
  cs::Namespace ns(cs, "poseidon merkle");
  AllocatedNum<F> cur = leaf;
  for (std::size_t lvl = 0; lvl < path.size(); ++lvl) {
    cs::Namespace nl(cs, [lvl] { return "level " + std::to_string(lvl); });
    if (path[lvl].siblings.size() + 1 != p.t - 1)
      throw std::invalid_argument("poseidon_merkle_root: siblings per level must be arity - 1");
    auto children = insert_at<F>(cs, cur, path[lvl].siblings, path[lvl].index_bits);
    cur = poseidon_hash<F>(cs, p, std::span<const AllocatedNum<F>>(children));
  }
  return cur;
}

}  // namespace cuzk::gadgets
