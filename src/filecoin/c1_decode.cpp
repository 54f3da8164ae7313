// decode_c1: any form of a C1 output (c1_output.hpp).
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_output.hpp"

namespace cuzk::filecoin {

namespace {

C1Format detect(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') return C1Format::kBincode;
  return text.find("\"Phase1Out\"") != std::string_view::npos ? C1Format::kCurio : C1Format::kJson;
}

}  // namespace

std::string_view to_string(C1Format f) {
  switch (f) {
    case C1Format::kAuto: return "auto";
    case C1Format::kJson: return "json";
    case C1Format::kCurio: return "curio";
    case C1Format::kBincode: return "bincode";
  }
  return "?";
}

std::optional<C1Format> parse_c1_format(std::string_view s) {
  for (C1Format f : {C1Format::kAuto, C1Format::kJson, C1Format::kCurio, C1Format::kBincode})
    if (s == to_string(f)) return f;
  return std::nullopt;
}

DecodedC1 decode_c1(std::span<const std::uint8_t> bytes, C1Format format, std::optional<RegisteredSealProof> proof) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  DecodedC1 d;
  d.format = format == C1Format::kAuto ? detect(text) : format;
  try {
    switch (d.format) {
      case C1Format::kJson:
        d.c1 = decode_c1_json(text);
        break;
      case C1Format::kCurio: {
        CurioC1Request r = decode_curio_c1(text, proof);
        d.c1 = std::move(r.c1);
        d.sector_num = r.sector_num;
        break;
      }
      default:
        if (!proof)
          throw DecodeError("a bincode C1 does not name its registered proof: give it (--proof, or the request's "
                            "registered_proof), e.g. StackedDrg32GiBV1_1");
        d.c1 = decode_c1_bincode(bytes, *proof);
    }
  } catch (const DecodeError& e) {
    throw DecodeError(std::string(to_string(d.format)) + " C1: " + e.what());
  }
  if (proof && d.c1.registered_proof != *proof)
    throw DecodeError(std::string(to_string(d.format)) + " C1: it is a C1 of " +
                      std::string(seal_proof_info(d.c1.registered_proof).name) + ", not of " +
                      std::string(seal_proof_info(*proof).name) + " (the registered proof given)");
  return d;
}

}  // namespace cuzk::filecoin
