// snarkjs JSON point form (proof.json, verification_key.json; INTEROP.md 7.7), no JSON library:
//   G1: ["x", "y", "1"]                         infinity: ["0", "1", "0"]
//   G2: [["x.c0","x.c1"], ["y.c0","y.c1"], ["1","0"]]   infinity: [["0","0"], ["1","0"], ["0","0"]]
// Decimal strings of standard-form (not Montgomery) integers. These are what ffjavascript's
// G.toObject(G.toAffine(p)) writes (ffjavascript/src/wasm_curve.js toObject / fromObject).
//
// to_strings / from_strings convert to and from the string arrays; to_json / from_json to and
// from the JSON text of one point (from_json accepts any whitespace, decimal or 0x-hex
// strings, and, like ffjavascript's fromObject, z = 0 (infinity), z = 1 (affine) or another z
// (Jacobian: x/z^2, y/z^3)). Decoding throws cuzk::DecodeError for a malformed text, a
// number that is not a canonical field element, a point off the curve, or (by default) a
// point outside the prime-order subgroup.
#pragma once

#include <array>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cuzk/ec/serialize_common.hpp"

namespace cuzk::ec::snarkjs {

using G1Strings = std::array<std::string, 3>;
using G2Strings = std::array<std::array<std::string, 2>, 3>;
template <class C>
using Strings = std::conditional_t<detail::QuadraticExt<typename C::Base>, G2Strings, G1Strings>;

namespace detail {
using ec::detail::fail;
using ec::detail::QuadraticExt;

template <class F>
auto coord_strings(const F& v) {
  if constexpr (QuadraticExt<F>) return std::array<std::string, 2>{v.c0.to_decimal(), v.c1.to_decimal()};
  else return v.to_decimal();
}
template <class Fq>
Fq parse_prime(const std::string& s, const char* curve) {
  try {
    return Fq::from_string(s);
  } catch (const std::exception& e) {
    fail(curve, "snarkjs coordinate \"" + s + "\" is not a canonical field element: " + e.what());
  }
}
template <class F, class S>
F parse_coord(const S& s, const char* curve) {
  if constexpr (QuadraticExt<F>) {
    using Fq = typename F::Base;
    return F(parse_prime<Fq>(s[0], curve), parse_prime<Fq>(s[1], curve));
  } else {
    return parse_prime<F>(s, curve);
  }
}

// A tiny parser for nested arrays of strings: [ "a", ["b", "c"], ... ].
struct Node {
  bool is_string = false;
  std::string str;
  std::vector<Node> items;
};
class Parser {
 public:
  Parser(std::string_view t, const char* curve) : t_(t), curve_(curve) {}
  Node parse_all() {
    Node n = value(0);
    ws();
    if (i_ != t_.size()) err("trailing characters after the point");
    return n;
  }

 private:
  [[noreturn]] void err(const std::string& what) {
    fail(curve_, "snarkjs point JSON: " + what + " at offset " + std::to_string(i_));
  }
  void ws() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  Node value(int depth) {
    if (depth > 4) err("nesting too deep");
    ws();
    if (i_ >= t_.size()) err("unexpected end of text");
    Node n;
    if (t_[i_] == '"') {
      ++i_;
      std::size_t start = i_;
      while (i_ < t_.size() && t_[i_] != '"') {
        if (t_[i_] == '\\') err("escapes are not allowed in numbers");
        ++i_;
      }
      if (i_ >= t_.size()) err("unterminated string");
      n.is_string = true;
      n.str = std::string(t_.substr(start, i_ - start));
      ++i_;
      return n;
    }
    if (t_[i_] != '[') err("expected '[' or '\"'");
    ++i_;
    ws();
    if (i_ < t_.size() && t_[i_] == ']') {
      ++i_;
      return n;
    }
    for (;;) {
      n.items.push_back(value(depth + 1));
      ws();
      if (i_ >= t_.size()) err("unexpected end of text");
      if (t_[i_] == ',') {
        ++i_;
        continue;
      }
      if (t_[i_] == ']') {
        ++i_;
        return n;
      }
      err("expected ',' or ']'");
    }
  }
  std::string_view t_;
  const char* curve_;
  std::size_t i_ = 0;
};

inline void append_quoted(std::string& out, const std::string& s) {
  out += '"';
  out += s;
  out += '"';
}
}  // namespace detail

template <class C>
Strings<C> to_strings(const Affine<C>& p) {
  using Base = typename C::Base;
  if constexpr (detail::QuadraticExt<Base>) {
    if (p.is_infinity()) return G2Strings{{{"0", "0"}, {"1", "0"}, {"0", "0"}}};
    return G2Strings{detail::coord_strings(p.x), detail::coord_strings(p.y), {"1", "0"}};
  } else {
    if (p.is_infinity()) return G1Strings{"0", "1", "0"};
    return G1Strings{detail::coord_strings(p.x), detail::coord_strings(p.y), "1"};
  }
}

// s is (x, y, z) as ffjavascript's fromObject reads it: z = 0 infinity, z = 1 affine, else Jacobian.
template <class C>
Affine<C> from_strings(const Strings<C>& s, bool check_subgroup = true) {
  using Base = typename C::Base;
  const Base x = detail::parse_coord<Base>(s[0], C::kName);
  const Base y = detail::parse_coord<Base>(s[1], C::kName);
  const Base z = detail::parse_coord<Base>(s[2], C::kName);
  if (z.is_zero()) return Affine<C>::infinity();
  Affine<C> p = Jacobian<C>{x, y, z}.to_affine();
  if (!p.is_on_curve()) detail::fail(C::kName, "snarkjs point is not on the curve");
  if (check_subgroup && !p.is_in_subgroup()) detail::fail(C::kName, "snarkjs point is not in the prime-order subgroup");
  return p;
}

template <class C>
std::string to_json(const Affine<C>& p) {
  const auto s = to_strings(p);
  std::string out = "[";
  for (std::size_t i = 0; i < 3; ++i) {
    if (i) out += ',';
    if constexpr (std::is_same_v<Strings<C>, G2Strings>) {
      out += '[';
      detail::append_quoted(out, s[i][0]);
      out += ',';
      detail::append_quoted(out, s[i][1]);
      out += ']';
    } else {
      detail::append_quoted(out, s[i]);
    }
  }
  out += ']';
  return out;
}

template <class C>
Affine<C> from_json(std::string_view text, bool check_subgroup = true) {
  const detail::Node n = detail::Parser(text, C::kName).parse_all();
  auto bad = [&](const std::string& what) { detail::fail(C::kName, "snarkjs point JSON: " + what); };
  if (n.is_string || (n.items.size() != 3 && n.items.size() != 2)) bad("expected an array of 3 (or 2) coordinates");
  Strings<C> s{};
  for (std::size_t i = 0; i < n.items.size(); ++i) {
    const detail::Node& c = n.items[i];
    if constexpr (std::is_same_v<Strings<C>, G2Strings>) {
      if (c.is_string || c.items.size() != 2 || !c.items[0].is_string || !c.items[1].is_string)
        bad("a G2 coordinate must be an array of two strings");
      s[i] = {c.items[0].str, c.items[1].str};
    } else {
      if (!c.is_string) bad("a G1 coordinate must be a string");
      s[i] = c.str;
    }
  }
  if (n.items.size() == 2) {  // [x, y] without z: affine
    if constexpr (std::is_same_v<Strings<C>, G2Strings>) s[2] = {"1", "0"};
    else s[2] = "1";
  }
  return from_strings<C>(s, check_subgroup);
}

}  // namespace cuzk::ec::snarkjs
