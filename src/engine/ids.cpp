// Client identifiers: bounds and safe quoting (cuzk/engine/ids.hpp).
#include "cuzk/engine/ids.hpp"

#include <cstdio>

namespace cuzk::engine {

namespace {

constexpr std::size_t kQuotedBytes = 32;

bool id_byte(unsigned char c) { return c > 0x20 && c < 0x7f; }

}  // namespace

std::string quote_id(std::string_view value) {
  std::string out = "\"";
  const std::size_t n = value.size() < kQuotedBytes ? value.size() : kQuotedBytes;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (id_byte(c) && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  out += n < value.size() ? "...\" (" + std::to_string(value.size()) + " bytes)" : "\"";
  return out;
}

std::string id_problem(std::string_view field, std::string_view value) {
  if (value.empty()) return std::string(field) + " is empty";
  if (value.size() > kMaxIdBytes)
    return std::string(field) + " " + quote_id(value) + " is longer than " + std::to_string(kMaxIdBytes) + " bytes";
  for (const char c : value)
    if (!id_byte(static_cast<unsigned char>(c)))
      return std::string(field) + " " + quote_id(value) + " has a byte that is not printable ASCII (or a space)";
  return {};
}

}  // namespace cuzk::engine
