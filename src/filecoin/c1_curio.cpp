// Curio's C2 request envelope (form 2 of c1_output.hpp): {"SectorNum", "Phase1Out": base64 of a
// C1 (JSON, or supraseal's bincode), "SectorSize"}.
#include <array>
#include <string>
#include <vector>

#include "c1_json_reader.hpp"
#include "cuzk/filecoin/c1_output.hpp"

namespace cuzk::filecoin {

namespace {

using c1_detail::Fields;
using c1_detail::JsonReader;

// Standard base64 (RFC 4648, '=' padding), as Go encodes []byte in JSON.
std::vector<std::uint8_t> base64_decode(JsonReader& r, std::size_t at, std::string_view s) {
  static const auto table = [] {
    std::array<std::int8_t, 256> t;
    t.fill(-1);
    const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(a[i])] = static_cast<std::int8_t>(i);
    return t;
  }();
  if (s.size() % 4 != 0) r.fail(at, "Phase1Out: base64 length " + std::to_string(s.size()) + " is not a multiple of 4");
  std::size_t pad = 0;
  while (pad < 2 && pad < s.size() && s[s.size() - 1 - pad] == '=') ++pad;
  std::vector<std::uint8_t> out;
  out.reserve(s.size() / 4 * 3);
  for (std::size_t i = 0; i < s.size(); i += 4) {
    std::uint32_t v = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      const std::size_t k = i + j;
      int d = 0;
      if (k >= s.size() - pad) {
        d = 0;
      } else {
        d = table[static_cast<unsigned char>(s[k])];
        if (d < 0) r.fail(at + 1 + k, "Phase1Out: not a base64 character");
      }
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    out.push_back(static_cast<std::uint8_t>(v >> 16));
    out.push_back(static_cast<std::uint8_t>(v >> 8));
    out.push_back(static_cast<std::uint8_t>(v));
  }
  out.erase(out.end() - static_cast<std::ptrdiff_t>(pad), out.end());  // pad <= 2 < 3 bytes a group
  return out;
}

}  // namespace

CurioC1Request decode_curio_c1(std::string_view json, std::optional<RegisteredSealProof> proof) {
  JsonReader r(json, "C1 request");
  CurioC1Request out;
  std::string_view payload;
  std::size_t payload_at = 0, size_at = 0;
  Fields f(r, {"SectorNum", "Phase1Out", "SectorSize"});
  r.object([&](std::string_view key, std::size_t at) {
    switch (f.match(key, at)) {
      case 0:
        out.sector_num = r.uint(~std::uint64_t{0}, "SectorNum");
        break;
      case 1:
        payload_at = (r.ws(), r.pos());
        payload = r.string("a base64 string");
        break;
      case 2:
        size_at = (r.ws(), r.pos());
        out.sector_size = r.uint(~std::uint64_t{0}, "SectorSize");
        break;
      default:
        r.skip();
    }
  });
  f.require();
  r.end();
  const std::vector<std::uint8_t> bytes = base64_decode(r, payload_at, payload);
  std::size_t first = 0;
  while (first < bytes.size() &&
         (bytes[first] == ' ' || bytes[first] == '\n' || bytes[first] == '\r' || bytes[first] == '\t'))
    ++first;
  const std::string_view inner(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (first < bytes.size() && bytes[first] == '{') {
    try {
      out.c1 = decode_c1_json(inner);
    } catch (const DecodeError& e) {
      throw DecodeError(std::string("Phase1Out (base64 JSON at byte ") + std::to_string(payload_at) + "): " + e.what());
    }
    if (proof && *proof != out.c1.registered_proof)
      throw DecodeError("C1 request: the C1 is for " + std::string(seal_proof_info(out.c1.registered_proof).name) +
                        "; the request names " + std::string(seal_proof_info(*proof).name));
  } else {
    if (!proof)
      r.fail(payload_at, "Phase1Out is not JSON (supraseal's bincode C1?) and the request names no registered proof");
    try {
      out.c1 = decode_c1_bincode(bytes, *proof);
    } catch (const DecodeError& e) {
      throw DecodeError(std::string("Phase1Out (base64 bincode at byte ") + std::to_string(payload_at) +
                        "): " + e.what());
    }
  }
  const std::uint64_t want = seal_proof_info(out.c1.registered_proof).sector_size;
  if (out.sector_size != want)
    r.fail(size_at, "SectorSize " + std::to_string(out.sector_size) + " is not " +
                        std::string(seal_proof_info(out.c1.registered_proof).name) + "'s " + std::to_string(want));
  return out;
}

}  // namespace cuzk::filecoin
