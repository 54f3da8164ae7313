// Test helper: assembles .r1cs / .wtns bytes field by field, straight from the layout in
// shared/INTEROP.md §7.2-7.3 (not through cuzk's writers), with knobs to produce malformed files.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "cuzk/ff/bigint.hpp"

namespace cuzk::r1cs::test {

using Bytes = std::vector<std::uint8_t>;
using Limbs4 = ff::Limbs<4>;

inline void put_u32(Bytes& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_u64(Bytes& b, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_int(Bytes& b, const Limbs4& v, std::uint32_t n8) {
  for (std::uint32_t i = 0; i < n8; ++i) b.push_back(i < 32 ? static_cast<std::uint8_t>(v[i / 8] >> (8 * (i % 8))) : 0);
}

struct Section {
  std::uint32_t id;
  Bytes data;
};

inline Bytes container(const char (&magic)[5], std::uint32_t version, const std::vector<Section>& sections) {
  Bytes b(magic, magic + 4);
  put_u32(b, version);
  put_u32(b, static_cast<std::uint32_t>(sections.size()));
  for (const auto& s : sections) {
    put_u32(b, s.id);
    put_u64(b, s.data.size());
    b.insert(b.end(), s.data.begin(), s.data.end());
  }
  return b;
}

using RawTerm = std::pair<std::uint32_t, Limbs4>;  // wire, canonical coefficient
using RawLc = std::vector<RawTerm>;
using RawConstraint = std::array<RawLc, 3>;

struct RawR1cs {
  std::uint32_t version = 1;
  std::uint32_t n8 = 32;
  Limbs4 prime{};
  std::uint32_t n_wires = 4, n_outputs = 1, n_pub = 1, n_prv = 1;
  std::uint64_t n_labels = 4;
  std::optional<std::uint32_t> n_constraints;  // default: constraints.size()
  std::vector<RawConstraint> constraints;
  std::optional<std::vector<std::uint64_t>> map;  // default: identity over n_wires; empty optional => omit
  bool omit_map = false;
  bool custom_gates = false;    // add (empty-ish) sections 4 and 5
  bool reverse_order = false;   // write the sections last to first

  std::vector<Section> sections() const {
    Section h{1, {}};
    put_u32(h.data, n8);
    put_int(h.data, prime, n8);
    put_u32(h.data, n_wires);
    put_u32(h.data, n_outputs);
    put_u32(h.data, n_pub);
    put_u32(h.data, n_prv);
    put_u64(h.data, n_labels);
    put_u32(h.data, n_constraints.value_or(static_cast<std::uint32_t>(constraints.size())));
    Section c{2, {}};
    for (const auto& con : constraints)
      for (const auto& lc : con) {
        put_u32(c.data, static_cast<std::uint32_t>(lc.size()));
        for (const auto& [w, v] : lc) {
          put_u32(c.data, w);
          put_int(c.data, v, n8);
        }
      }
    std::vector<Section> s{h, c};
    if (!omit_map) {
      Section m{3, {}};
      if (map)
        for (auto l : *map) put_u64(m.data, l);
      else
        for (std::uint32_t j = 0; j < n_wires; ++j) put_u64(m.data, j);
      s.push_back(m);
    }
    if (custom_gates) {
      Section g4{4, {}}, g5{5, {}};
      put_u32(g4.data, 0);
      put_u32(g5.data, 0);
      s.push_back(g4);
      s.push_back(g5);
    }
    if (reverse_order) std::reverse(s.begin(), s.end());
    return s;
  }
  Bytes bytes() const { return container("r1cs", version, sections()); }
};

struct RawWtns {
  std::uint32_t version = 2;
  std::uint32_t n8 = 32;
  Limbs4 prime{};
  std::optional<std::uint32_t> n_witness;  // default: values.size()
  std::vector<Limbs4> values;              // canonical

  Bytes bytes() const {
    Section h{1, {}};
    put_u32(h.data, n8);
    put_int(h.data, prime, n8);
    put_u32(h.data, n_witness.value_or(static_cast<std::uint32_t>(values.size())));
    Section d{2, {}};
    for (const auto& v : values) put_int(d.data, v, n8);
    return container("wtns", version, {h, d});
  }
};

}  // namespace cuzk::r1cs::test
