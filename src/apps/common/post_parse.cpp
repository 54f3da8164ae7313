#include "post_parse.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/sealed_cid.hpp"

namespace cuzk::cli {

using filecoin::Bytes32;

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// 64 hex digits -> 32 bytes; false when s is not that.
bool hex32(std::string_view s, Bytes32& out) {
  if (s.starts_with("0x") || s.starts_with("0X")) s.remove_prefix(2);
  if (s.size() != 64) return false;
  for (std::size_t i = 0; i < 32; ++i) {
    const int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return true;
}

int b64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Standard base64 of exactly 32 bytes (43 digits, then an optional '='); false when s is not that.
// The last digit carries 4 bits of the last byte and 2 zero bits, which must be zero (canonical).
bool base64_32(std::string_view s, Bytes32& out) {
  if (s.size() == 44 && s.back() == '=') s.remove_suffix(1);
  if (s.size() != 43) return false;
  std::uint32_t acc = 0;
  int bits = 0;
  std::size_t n = 0;
  for (char c : s) {
    const int d = b64_digit(c);
    if (d < 0) return false;
    acc = (acc << 6) | static_cast<std::uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = static_cast<std::uint8_t>(acc >> bits);
      acc &= (1u << bits) - 1;
    }
  }
  return n == 32 && acc == 0;
}

}  // namespace

std::uint64_t parse_u64(std::string_view s, std::string_view what) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size())
    throw DecodeError(std::string(what) + " \"" + std::string(s) + "\" is not an unsigned 64-bit number");
  return v;
}

filecoin::RegisteredPoStProof parse_post_proof(std::string_view s) {
  if (!s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const std::uint64_t id = parse_u64(s, "registered PoSt proof");
    if (id < filecoin::kNumRegisteredPoStProofs)
      return filecoin::post_proof_from_id_or_throw(static_cast<std::int64_t>(id));
    throw DecodeError("registered PoSt proof " + std::string(s) + " is not registered (0 to " +
                      std::to_string(filecoin::kNumRegisteredPoStProofs - 1) + ")");
  }
  for (const auto& info : filecoin::all_post_proofs())
    if (iequals(s, info.name) || iequals(s, info.go_name)) return info.id;
  throw DecodeError("unknown registered PoSt proof \"" + std::string(s) +
                    "\" (a number such as 8, or a name such as StackedDrgWindow32GiBV1)");
}

Bytes32 parse_randomness(std::string_view s, bool chain) {
  Bytes32 r{};
  if (!hex32(s, r) && !base64_32(s, r))
    throw DecodeError("randomness \"" + std::string(s) + "\": expected 32 bytes as 64 hex digits or as base64");
  if (chain) return filecoin::chain_randomness_to_seed(r);
  try {
    filecoin::require_safe_commitment(r, "randomness");
  } catch (const DecodeError&) {
    char top[8];
    std::snprintf(top, sizeof top, "0x%02x", r[31]);
    throw DecodeError("randomness " + std::string(s) + " is not a canonical field element (byte 31 is " + top +
                      "); filecoin-proofs refuses it. Chain randomness must have the top two bits of byte 31 "
                      "cleared first (randomness[31] &= 0x3f, as Lotus does): pass --chain-randomness to do that");
  }
  return r;
}

filecoin::Fr parse_comm_r(std::string_view s) {
  Bytes32 b{};
  if (!hex32(s, b)) {
    if (!s.starts_with("b"))
      throw DecodeError("comm_r \"" + std::string(s) + "\": expected 64 hex digits or a sealed CID (bagboea4b...)");
    try {
      b = filecoin::comm_r_from_sealed_cid(s);
    } catch (const DecodeError& e) {
      throw DecodeError("comm_r \"" + std::string(s) + "\": " + e.what());
    }
  }
  try {
    return filecoin::Fr::from_bytes_le(b);
  } catch (const DecodeError&) {
    throw DecodeError("comm_r " + std::string(s) + " is not a canonical field element");
  }
}

filecoin::PublicSector parse_sector(std::string_view s) {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos)
    throw DecodeError("sector \"" + std::string(s) + "\": expected ID:COMM_R");
  return filecoin::PublicSector{parse_u64(s.substr(0, colon), "sector id"), parse_comm_r(s.substr(colon + 1))};
}

std::vector<std::uint64_t> parse_sector_ids(std::string_view s) {
  std::vector<std::uint64_t> ids;
  while (true) {
    const std::size_t comma = s.find(',');
    ids.push_back(parse_u64(s.substr(0, comma), "sector id"));
    if (comma == std::string_view::npos) return ids;
    s.remove_prefix(comma + 1);
  }
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace cuzk::cli
