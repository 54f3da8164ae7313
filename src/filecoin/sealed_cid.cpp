// Commitment CIDs (layout in sealed_cid.hpp; go-fil-commcid CIDToCommitment /
// CommitmentToCID, multiformats unsigned-varint and multibase base32).
#include "cuzk/filecoin/sealed_cid.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cuzk/error.hpp"

namespace cuzk::filecoin {

namespace {

constexpr std::uint64_t kCidV1 = 1;
constexpr std::uint64_t kCodecUnsealed = 0xf101;  // fil-commitment-unsealed
constexpr std::uint64_t kCodecSealed = 0xf102;    // fil-commitment-sealed
constexpr std::uint64_t kHashSha256Trunc254Padded = 0x1012;
constexpr std::uint64_t kHashPoseidonBls12381Fc1 = 0xb401;  // poseidon-bls12_381-a2-fc1
constexpr char kBase32[] = "abcdefghijklmnopqrstuvwxyz234567";

std::vector<std::uint8_t> base32_decode(std::string_view s, std::string_view cid) {
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    int v = -1;
    if (c >= 'a' && c <= 'z') v = c - 'a';
    if (c >= '2' && c <= '7') v = c - '2' + 26;
    if (v < 0)
      throw DecodeError("CID \"" + std::string(cid) + "\": character " + std::to_string(i + 1) + " is not base32");
    acc = (acc << 5) | static_cast<std::uint32_t>(v);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(acc >> bits));
      acc &= (1u << bits) - 1;
    }
  }
  if (bits >= 5 || acc != 0) throw DecodeError("CID \"" + std::string(cid) + "\": base32 text does not end on a byte");
  return out;
}

std::uint64_t read_varint(const std::vector<std::uint8_t>& b, std::size_t& pos, const char* what,
                          std::string_view cid) {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 63; shift += 7) {
    if (pos >= b.size()) throw DecodeError("CID \"" + std::string(cid) + "\": truncated in its " + what);
    const std::uint8_t byte = b[pos++];
    v |= std::uint64_t{byte & 0x7fu} << shift;
    if (!(byte & 0x80)) return v;
  }
  throw DecodeError("CID \"" + std::string(cid) + "\": its " + what + " is not a valid varint");
}

std::string hex_code(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), kDigits[v & 15]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

Bytes32 decode(std::string_view cid, std::uint64_t codec, std::uint64_t hash, const char* kind) {
  if (cid.empty() || (cid[0] != 'b' && cid[0] != 'B'))
    throw DecodeError("CID \"" + std::string(cid) + "\": expected multibase base32 (prefix 'b')");
  const std::vector<std::uint8_t> b = base32_decode(cid.substr(1), cid);
  std::size_t pos = 0;
  const std::uint64_t version = read_varint(b, pos, "version", cid);
  if (version != kCidV1)
    throw DecodeError("CID \"" + std::string(cid) + "\": version " + std::to_string(version) + ", expected 1");
  const std::uint64_t c = read_varint(b, pos, "codec", cid);
  if (c != codec)
    throw DecodeError("CID \"" + std::string(cid) + "\": codec " + hex_code(c) + ", expected " + hex_code(codec) +
                      " (" + kind + ")");
  const std::uint64_t h = read_varint(b, pos, "multihash code", cid);
  if (h != hash)
    throw DecodeError("CID \"" + std::string(cid) + "\": multihash " + hex_code(h) + ", expected " + hex_code(hash));
  const std::uint64_t len = read_varint(b, pos, "digest length", cid);
  if (len != 32 || b.size() - pos != 32)
    throw DecodeError("CID \"" + std::string(cid) + "\": digest of " + std::to_string(b.size() - pos) +
                      " bytes (length field " + std::to_string(len) + "), expected 32");
  Bytes32 out;
  std::copy(b.begin() + static_cast<std::ptrdiff_t>(pos), b.end(), out.begin());
  return out;
}

void put_varint(std::vector<std::uint8_t>& b, std::uint64_t v) {
  do {
    std::uint8_t byte = v & 0x7f;
    v >>= 7;
    if (v) byte |= 0x80;
    b.push_back(byte);
  } while (v);
}

std::string encode(const Bytes32& digest, std::uint64_t codec, std::uint64_t hash) {
  std::vector<std::uint8_t> b;
  put_varint(b, kCidV1);
  put_varint(b, codec);
  put_varint(b, hash);
  put_varint(b, 32);
  b.insert(b.end(), digest.begin(), digest.end());
  std::string s = "b";
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::uint8_t x : b) {
    acc = (acc << 8) | x;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      s.push_back(kBase32[(acc >> bits) & 31]);
    }
    acc &= (1u << bits) - 1;
  }
  if (bits > 0) s.push_back(kBase32[(acc << (5 - bits)) & 31]);
  return s;
}

}  // namespace

Bytes32 comm_r_from_sealed_cid(std::string_view cid) {
  return decode(cid, kCodecSealed, kHashPoseidonBls12381Fc1, "sealed");
}
Bytes32 comm_d_from_unsealed_cid(std::string_view cid) {
  return decode(cid, kCodecUnsealed, kHashSha256Trunc254Padded, "unsealed");
}
std::string sealed_cid_from_comm_r(const Bytes32& comm_r) {
  return encode(comm_r, kCodecSealed, kHashPoseidonBls12381Fc1);
}
std::string unsealed_cid_from_comm_d(const Bytes32& comm_d) {
  return encode(comm_d, kCodecUnsealed, kHashSha256Trunc254Padded);
}

}  // namespace cuzk::filecoin
