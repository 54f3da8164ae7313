// A recursive-descent JSON reader for the C1 decoders (c1_json.cpp, c1_curio.cpp): no DOM, values
// read straight into what the caller wants, 32-byte arrays through a fast loop. Errors name the
// byte offset and the JSON path ("vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.
// root[31]"); the path is a stack of views into the input, formatted only when something is wrong.
// Internal to the library.
#pragma once

#include <array>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/fr.hpp"

namespace cuzk::filecoin::c1_detail {

class JsonReader {
 public:
  explicit JsonReader(std::string_view s, const char* what)
      : b_(s.data()), p_(s.data()), e_(s.data() + s.size()), what_(what) {}

  std::size_t pos() const { return static_cast<std::size_t>(p_ - b_); }

  [[noreturn]] void fail(std::size_t at, const std::string& msg) const {
    std::string path;
    for (const Frame& f : path_) {
      if (f.is_index) {
        path.push_back('[');
        path += std::to_string(f.index);
        path.push_back(']');
      } else {
        if (!path.empty()) path += ".";
        path += f.key;
      }
    }
    throw DecodeError(std::string(what_) + ", byte " + std::to_string(at) + (path.empty() ? "" : " (" + path + ")") +
                      ": " + msg);
  }

  void ws() {
    while (p_ < e_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  // The next significant character, '\0' at the end.
  char peek() {
    ws();
    return p_ < e_ ? *p_ : '\0';
  }

  std::string found() const {
    if (p_ >= e_) return "the end of the input";
    const char c = *p_;
    if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
    return "byte 0x" + std::string(1, "0123456789abcdef"[(c >> 4) & 15]) + "0123456789abcdef"[c & 15];
  }

  void expect(char c, const char* what) {
    if (peek() != c) fail(pos(), std::string("expected ") + what + ", found " + found());
    ++p_;
  }

  void end() {
    ws();
    if (p_ != e_) fail(pos(), "trailing characters after the document");
  }

  // A string's contents. Escapes are decoded into storage that lives as long as the reader (keys
  // with escapes do not occur in these documents; the slow path exists so they still parse).
  std::string_view string(const char* what) {
    expect('"', what);
    const char* start = p_;
    while (p_ < e_ && *p_ != '"' && *p_ != '\\') {
      if (static_cast<unsigned char>(*p_) < 0x20) fail(pos(), "control character in a string");
      ++p_;
    }
    if (p_ >= e_) fail(static_cast<std::size_t>(start - b_) - 1, "unterminated string");
    if (*p_ == '"') return {start, static_cast<std::size_t>(p_++ - start)};
    std::string& out = unescaped_.emplace_back(start, p_);
    while (p_ < e_ && *p_ != '"') {
      if (*p_ != '\\') {
        out.push_back(*p_++);
        continue;
      }
      const std::size_t at = pos();
      if (++p_ >= e_) break;
      const char c = *p_++;
      switch (c) {
        case '"':
        case '\\':
        case '/':
          out.push_back(c);
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          if (e_ - p_ < 4) fail(at, "truncated \\u escape");
          unsigned v = 0;
          for (int i = 0; i < 4; ++i) {
            const char h = *p_++;
            v <<= 4;
            if (h >= '0' && h <= '9')
              v |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f')
              v |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
              v |= static_cast<unsigned>(h - 'A' + 10);
            else
              fail(at, "bad \\u escape");
          }
          // Keys and variant names are ASCII; anything else only has to compare unequal.
          out.push_back(v < 0x80 ? static_cast<char>(v) : '?');
          break;
        }
        default:
          fail(at, std::string("bad escape \\") + c);
      }
    }
    if (p_ >= e_) fail(static_cast<std::size_t>(start - b_) - 1, "unterminated string");
    ++p_;
    return out;
  }

  // An unsigned integer no larger than max (serde refuses signs, fractions and exponents for
  // integer fields).
  std::uint64_t uint(std::uint64_t max, const char* what) {
    ws();
    const std::size_t at = pos();
    if (p_ >= e_ || *p_ < '0' || *p_ > '9') fail(at, std::string("expected ") + what + ", found " + found());
    std::uint64_t v = 0;
    if (*p_ == '0') {
      ++p_;
      if (p_ < e_ && *p_ >= '0' && *p_ <= '9') fail(at, "a number with a leading zero");
    } else {
      while (p_ < e_ && *p_ >= '0' && *p_ <= '9') {
        const std::uint64_t d = static_cast<std::uint64_t>(*p_ - '0');
        if (v > (max - d) / 10) fail(at, std::string(what) + " is larger than " + std::to_string(max));
        v = v * 10 + d;
        ++p_;
      }
    }
    if (p_ < e_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) fail(at, std::string(what) + " must be an integer");
    return v;
  }

  // [u8; 32]: exactly 32 numbers 0..255. The common case (compact, no leading zeros) runs
  // through the fast loop; anything else falls back to uint() for the message.
  Bytes32 bytes32(const char* what) {
    expect('[', what);
    Bytes32 out;
    for (std::size_t i = 0; i < 32; ++i) {
      if (i) {
        ws();
        if (p_ < e_ && *p_ == ']')
          fail(pos(), std::string(what) + " has " + std::to_string(i) + " numbers; expected 32");
        expect(',', "','");
      }
      if (e_ - p_ >= 4 && p_[0] >= '0' && p_[0] <= '9') {
        unsigned v = static_cast<unsigned>(p_[0] - '0');
        std::size_t n = 1;
        if (v != 0)
          while (n < 3 && p_[n] >= '0' && p_[n] <= '9') v = v * 10 + static_cast<unsigned>(p_[n++] - '0');
        if (v <= 255 && !(p_[n] >= '0' && p_[n] <= '9') && p_[n] != '.' && p_[n] != 'e' && p_[n] != 'E') {
          out[i] = static_cast<std::uint8_t>(v);
          p_ += n;
          continue;
        }
      }
      Frame f;
      f.is_index = true;
      f.index = i;
      path_.push_back(f);
      out[i] = static_cast<std::uint8_t>(uint(255, "a byte (0..255)"));
      path_.pop_back();
    }
    ws();
    if (p_ < e_ && *p_ == ',') fail(pos(), std::string(what) + " has more than 32 numbers");
    expect(']', "']'");
    return out;
  }

  // A 32-byte value that must be a canonical field element.
  Fr fr(const char* what) {
    const std::size_t at = (ws(), pos());
    const Bytes32 b = bytes32(what);
    Fr::Repr c{};
    for (std::size_t i = 0; i < 32; ++i) c[i / 8] |= std::uint64_t{b[i]} << (8 * (i % 8));
    if (ff::big::cmp(c, Fr::kModulus) >= 0) fail(at, std::string(what) + " is not a canonical field element (>= r)");
    return Fr::from_canonical(c);
  }

  void null(const char* what) {
    ws();
    if (e_ - p_ >= 4 && std::memcmp(p_, "null", 4) == 0) {
      p_ += 4;
      return;
    }
    fail(pos(), std::string("expected null for ") + what + ", found " + found());
  }

  // Any value (an unknown field's).
  void skip(int depth = 0) {
    if (depth > 128) fail(pos(), "nesting too deep");
    const char c = peek();
    if (c == '"') {
      string("a string");
    } else if (c == '{') {
      object([&](std::string_view, std::size_t) { skip(depth + 1); });
    } else if (c == '[') {
      array([&](std::size_t) { skip(depth + 1); });
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      ++p_;
      while (p_ < e_ &&
             ((*p_ >= '0' && *p_ <= '9') || *p_ == '.' || *p_ == 'e' || *p_ == 'E' || *p_ == '+' || *p_ == '-'))
        ++p_;
    } else {
      for (const char* lit : {"true", "false", "null"}) {
        const std::size_t n = std::strlen(lit);
        if (static_cast<std::size_t>(e_ - p_) >= n && std::memcmp(p_, lit, n) == 0) {
          p_ += n;
          return;
        }
      }
      fail(pos(), "expected a value, found " + found());
    }
  }

  // {"key": value, ...}: on_field(key, key_offset) reads the value; the key is on the path
  // meanwhile.
  template <class F>
  void object(F&& on_field) {
    expect('{', "an object");
    if (peek() == '}') {
      ++p_;
      return;
    }
    for (;;) {
      ws();
      const std::size_t at = pos();
      const std::string_view key = string("a field name");
      expect(':', "':'");
      path_.push_back(Frame{key, 0, false});
      on_field(key, at);
      path_.pop_back();
      const char c = peek();
      if (c == ',') {
        ++p_;
        continue;
      }
      if (c == '}') {
        ++p_;
        return;
      }
      fail(pos(), "expected ',' or '}', found " + found());
    }
  }

  template <class F>
  void array(F&& on_elem) {
    expect('[', "an array");
    if (peek() == ']') {
      ++p_;
      return;
    }
    for (std::size_t i = 0;; ++i) {
      path_.push_back(Frame{{}, i, true});
      on_elem(i);
      path_.pop_back();
      const char c = peek();
      if (c == ',') {
        ++p_;
        continue;
      }
      if (c == ']') {
        ++p_;
        return;
      }
      fail(pos(), "expected ',' or ']', found " + found());
    }
  }

  std::vector<Fr> fr_array(const char* what) {
    std::vector<Fr> out;
    array([&](std::size_t) { out.push_back(fr(what)); });
    return out;
  }

 private:
  struct Frame {
    std::string_view key;
    std::size_t index = 0;
    bool is_index = false;
  };

  const char* b_;
  const char* p_;
  const char* e_;
  const char* what_;
  std::vector<Frame> path_;
  std::deque<std::string> unescaped_;
};

// The fields of one object: which were seen (a duplicate is refused, as serde's derive does),
// and which required ones are missing at the end.
class Fields {
 public:
  Fields(JsonReader& r, std::initializer_list<const char*> names) : r_(r), at_((r.ws(), r.pos())) {
    for (const char* n : names) names_[count_++] = n;
  }

  // The index of `key` among the names, or -1 for a field to ignore.
  int match(std::string_view key, std::size_t key_at) {
    for (std::size_t i = 0; i < count_; ++i)
      if (key == names_[i]) {
        if (seen_ & (1u << i)) r_.fail(key_at, "duplicate field \"" + std::string(key) + "\"");
        seen_ |= 1u << i;
        return static_cast<int>(i);
      }
    return -1;
  }

  // Every field but those in `optional_mask` must have been seen.
  void require(unsigned optional_mask = 0) const {
    for (std::size_t i = 0; i < count_; ++i)
      if (!(seen_ & (1u << i)) && !(optional_mask & (1u << i)))
        r_.fail(at_, std::string("missing field \"") + names_[i] + "\"");
  }

 private:
  JsonReader& r_;
  std::array<const char*, 8> names_{};
  std::size_t count_ = 0;
  std::size_t at_;
  unsigned seen_ = 0;
};

}  // namespace cuzk::filecoin::c1_detail
