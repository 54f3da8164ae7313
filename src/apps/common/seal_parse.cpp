#include "seal_parse.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep_vanilla_gen.hpp"
#include "cuzk/filecoin/sealed_cid.hpp"
#include "post_parse.hpp"

namespace cuzk::cli {

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

filecoin::RegisteredSealProof parse_seal_proof(std::string_view s) {
  if (all_digits(s)) {
    const std::uint64_t id = parse_u64(s, "registered seal proof");
    if (id < filecoin::kNumRegisteredSealProofs)
      return filecoin::seal_proof_from_id_or_throw(static_cast<std::int64_t>(id));
    throw DecodeError("registered seal proof " + std::string(s) + " is not registered (0 to " +
                      std::to_string(filecoin::kNumRegisteredSealProofs - 1) + ")");
  }
  for (const auto& info : filecoin::all_seal_proofs())
    if (iequals(s, info.name) || iequals(s, info.go_name)) return info.id;
  throw DecodeError("unknown registered seal proof \"" + std::string(s) +
                    "\" (a number such as 8, or a name such as StackedDrg32GiBV1_1)");
}

filecoin::RegisteredUpdateProof parse_update_proof(std::string_view s) {
  if (all_digits(s)) {
    const std::uint64_t id = parse_u64(s, "registered update proof");
    if (id < filecoin::kNumRegisteredUpdateProofs)
      return filecoin::update_proof_from_id_or_throw(static_cast<std::int64_t>(id));
    throw DecodeError("registered update proof " + std::string(s) + " is not registered (0 to " +
                      std::to_string(filecoin::kNumRegisteredUpdateProofs - 1) + ")");
  }
  std::string_view name = s;
  constexpr std::string_view kGoPrefix = "RegisteredUpdateProof_";
  if (name.size() > kGoPrefix.size() && iequals(name.substr(0, kGoPrefix.size()), kGoPrefix))
    name.remove_prefix(kGoPrefix.size());
  for (const auto& info : filecoin::all_update_proofs())
    if (iequals(name, info.name)) return info.id;
  throw DecodeError("unknown registered update proof \"" + std::string(s) +
                    "\" (a number such as 3, or a name such as StackedDrg32GiBV1)");
}

std::uint64_t parse_sector_size(std::string_view s) {
  static constexpr std::pair<std::string_view, std::uint64_t> kSizes[] = {{"2KiB", filecoin::kSectorSize2KiB},
                                                                          {"8MiB", filecoin::kSectorSize8MiB},
                                                                          {"512MiB", filecoin::kSectorSize512MiB},
                                                                          {"32GiB", filecoin::kSectorSize32GiB},
                                                                          {"64GiB", filecoin::kSectorSize64GiB}};
  for (const auto& [name, bytes] : kSizes)
    if (iequals(s, name)) return bytes;
  if (all_digits(s)) {
    const std::uint64_t bytes = parse_u64(s, "sector size");
    for (const auto& [name, b] : kSizes)
      if (bytes == b) return bytes;
  }
  throw DecodeError("sector size \"" + std::string(s) +
                    "\": expected 2KiB, 8MiB, 512MiB, 32GiB or 64GiB (or its bytes)");
}

filecoin::Bytes32 parse_hex32(std::string_view s, std::string_view what) {
  std::string_view hex = s;
  if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
  auto digit = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  filecoin::Bytes32 out{};
  bool ok = hex.size() == 64;
  for (std::size_t i = 0; ok && i < 32; ++i) {
    const int hi = digit(hex[2 * i]), lo = digit(hex[2 * i + 1]);
    ok = hi >= 0 && lo >= 0;
    if (ok) out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  if (!ok) throw DecodeError(std::string(what) + " \"" + std::string(s) + "\": expected 64 hex digits");
  return out;
}

filecoin::Bytes32 parse_prover_id(std::string_view s) {
  std::string_view id = s;
  if (id.size() > 2 && (id[0] == 'f' || id[0] == 't') && id[1] == '0') id.remove_prefix(2);
  if (all_digits(id) && id.size() <= 20) return filecoin::prover_id_from_actor(parse_u64(id, "actor id"));
  try {
    return parse_hex32(s, "prover id");
  } catch (const DecodeError&) {
    throw DecodeError("prover id \"" + std::string(s) +
                      "\": expected an actor id (1000, f01000, t01000) or 64 hex digits");
  }
}

filecoin::Fr parse_comm_d(std::string_view s) {
  // An unsealed CID is 64 characters too, but never all hex digits ("baga6ea4sea...").
  filecoin::Bytes32 b{};
  try {
    b = parse_hex32(s, "comm_d");
  } catch (const DecodeError&) {
    if (!s.starts_with("b"))
      throw DecodeError("comm_d \"" + std::string(s) +
                        "\": expected 64 hex digits or an unsealed CID (baga6ea4sea...)");
    try {
      b = filecoin::comm_d_from_unsealed_cid(s);
    } catch (const DecodeError& e) {
      throw DecodeError("comm_d \"" + std::string(s) + "\": " + e.what());
    }
  }
  try {
    return filecoin::Fr::from_bytes_le(b);
  } catch (const DecodeError&) {
    throw DecodeError("comm_d " + std::string(s) + " is not a canonical field element");
  }
}

}  // namespace cuzk::cli
