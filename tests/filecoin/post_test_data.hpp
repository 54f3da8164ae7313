// The real 32 GiB WindowPoSt vanilla proof in tests/filecoin/data (Curio's golden test data) and
// its public data, loaded once for the vanilla and PoSt-input tests.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/io/binfile.hpp"

namespace cuzk::filecoin::test {

inline std::string data_path(const std::string& file) { return std::string(CUZK_FILECOIN_DATA) + "/" + file; }

inline nlohmann::json load_json(const std::string& file) {
  std::ifstream in(data_path(file));
  if (!in) throw std::runtime_error("cannot open " + data_path(file));
  return nlohmann::json::parse(in);
}

// RFC 4648 base64 with padding (Go's encoding/json form of []byte).
inline std::vector<std::uint8_t> base64_decode(const std::string& s) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    if (c == '=') break;
    const int v = val(c);
    if (v < 0) throw std::runtime_error("bad base64");
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(acc >> bits));
    }
  }
  return out;
}

struct WindowPost32GiB {
  std::vector<std::uint8_t> vproof;
  Bytes32 randomness{};
  std::uint64_t prover = 0;
  std::int64_t post_proof = -1;  // PoStProof
  std::int64_t seal_proof = -1;  // ChallengedSectors[0].SealProof
  std::uint64_t sector = 0;
  std::string sealed_cid;
};

inline const WindowPost32GiB& window_post_32gib() {
  static const WindowPost32GiB d = [] {
    WindowPost32GiB w;
    w.vproof = io::read_file_bytes(data_path("window-post-32gib.vproof"));
    const nlohmann::json j = load_json("window-post-32gib.public.json");
    const auto r = base64_decode(j.at("Randomness").get<std::string>());
    if (r.size() != 32) throw std::runtime_error("randomness is not 32 bytes");
    std::copy(r.begin(), r.end(), w.randomness.begin());
    w.prover = j.at("Prover").get<std::uint64_t>();
    w.post_proof = j.at("Proofs").at(0).at("PoStProof").get<std::int64_t>();
    const auto& s = j.at("ChallengedSectors").at(0);
    w.seal_proof = s.at("SealProof").get<std::int64_t>();
    w.sector = s.at("SectorNumber").get<std::uint64_t>();
    w.sealed_cid = s.at("SealedCID").at("/").get<std::string>();
    return w;
  }();
  return d;
}

}  // namespace cuzk::filecoin::test
