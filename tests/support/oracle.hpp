// Shared loader for oracle test vectors (tests/oracle/*.mjs write JSON files into
// $CUZK_ORACLE_DIR at test time; see tests/CMakeLists.txt, cuzk_test(... ORACLE ...)).
//
//   nlohmann::json j = cuzk::test::load_oracle("fields.json");
//   auto x = cuzk::test::parse_field<F>(j["a"]);    // "0x.." hex or decimal string
//   auto b = cuzk::test::parse_hex_bytes("00ff..");  // hex string -> bytes
//
// Every failure (variable unset, file absent, bad JSON, bad value) throws
// std::runtime_error with a message naming the variable/file/value, so a gtest
// test body that calls these fails loudly instead of skipping.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cuzk::test {

// Directory the oracle scripts wrote to; throws if CUZK_ORACLE_DIR is unset or empty.
inline std::filesystem::path oracle_dir() {
  const char* d = std::getenv("CUZK_ORACLE_DIR");
  if (d == nullptr || *d == '\0')
    throw std::runtime_error(
        "CUZK_ORACLE_DIR is not set: run this test through ctest (which first runs the oracle_* "
        "fixture, e.g. `node tests/oracle/<script>.mjs <dir>`), or set CUZK_ORACLE_DIR to that dir");
  return std::filesystem::path(d);
}

// Parses $CUZK_ORACLE_DIR/<file> as JSON.
inline nlohmann::json load_oracle(const std::string& file) {
  const std::filesystem::path path = oracle_dir() / file;
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("oracle file " + path.string() +
                             " cannot be opened (was its oracle script run? see the test's ORACLE line)");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("oracle file " + path.string() + " is not valid JSON: " + e.what());
  }
}

// Field element from a JSON string holding a canonical integer ("0x.." hex or decimal),
// or from a non-negative JSON integer. F is any type with F::from_string(string_view).
template <class F>
F parse_field(const nlohmann::json& v) {
  std::string s;
  if (v.is_string()) s = v.get<std::string>();
  else if (v.is_number_unsigned()) s = std::to_string(v.get<std::uint64_t>());
  else throw std::runtime_error("oracle value is not a string or unsigned integer: " + v.dump());
  try {
    return F::from_string(s);
  } catch (const std::exception& e) {
    throw std::runtime_error("oracle value \"" + s + "\" does not parse as a field element: " + e.what());
  }
}
template <class F>
F parse_field(const std::string& s) {
  return parse_field<F>(nlohmann::json(s));
}

// "0a1bff" (optionally "0x"-prefixed) -> bytes in the order written.
inline std::vector<std::uint8_t> parse_hex_bytes(std::string s) {
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.erase(0, 2);
  if (s.size() % 2 != 0) throw std::runtime_error("hex byte string has odd length: " + s);
  auto nib = [&](char c) -> std::uint8_t {
    if (c >= '0' && c <= '9') return static_cast<std::uint8_t>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<std::uint8_t>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<std::uint8_t>(c - 'A' + 10);
    throw std::runtime_error("bad hex digit in byte string: " + s);
  };
  std::vector<std::uint8_t> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(nib(s[2 * i]) << 4 | nib(s[2 * i + 1]));
  return out;
}

}  // namespace cuzk::test
