// Parsing what an operator types for the `cuzk post` subcommands and cuzk-bench's PoSt requests:
// registered proofs, randomness, sector lists, commitments. Every parser throws DecodeError
// naming the bad value.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/post_public_inputs.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::cli {

// A registered PoSt proof by its go-state-types number ("8") or by name, case-insensitive:
// filecoin-proofs-api's ("StackedDrgWindow32GiBV1_2") or Go's ("StackedDrgWindow32GiBV1_1").
filecoin::RegisteredPoStProof parse_post_proof(std::string_view s);

// 32 bytes as 64 hex digits (optionally 0x-prefixed) or as standard base64 (44 characters with
// padding, 43 without; what Curio's JSON holds). With chain = false the bytes must already be a
// canonical field element (filecoin-proofs refuses anything else); with chain = true they are chain
// randomness and get chain_randomness_to_seed (byte 31 &= 0x3f, as Lotus does).
filecoin::Bytes32 parse_randomness(std::string_view s, bool chain);

// A comm_r as 64 hex digits (its 32 bytes in order: the Fr's little-endian form) or as a sealed
// CID ("bagboea4b..."); must be a canonical field element.
filecoin::Fr parse_comm_r(std::string_view s);

// "ID:COMM_R".
filecoin::PublicSector parse_sector(std::string_view s);

// "1,2,3" (no empty items).
std::vector<std::uint64_t> parse_sector_ids(std::string_view s);

std::uint64_t parse_u64(std::string_view s, std::string_view what);

std::string to_hex(std::span<const std::uint8_t> bytes);

// a == b, ASCII letters compared case-insensitively (registered proof names).
bool iequals(std::string_view a, std::string_view b);

// The bytes of a file read with read_text_file.
inline std::span<const std::uint8_t> as_bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace cuzk::cli
