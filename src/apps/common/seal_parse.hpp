// Parsing what an operator types for PoRep (seal) and SnapDeals commands: registered seal and
// update proofs, sector sizes, prover ids, unsealed commitments. Every parser throws DecodeError
// naming the bad value.
#pragma once

#include <cstdint>
#include <string_view>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::cli {

// A registered seal proof by its go-state-types number ("8") or by name, case-insensitive:
// filecoin-proofs-api's ("StackedDrg32GiBV1_1") or Go's ("StackedDrg32GiBV1_1_Feat_NiPoRep").
filecoin::RegisteredSealProof parse_seal_proof(std::string_view s);

// A registered update (SnapDeals) proof by its go-state-types number (abi.RegisteredUpdateProof:
// "0" .. "4" = 2 KiB .. 64 GiB) or by name, case-insensitive: filecoin-proofs-api's
// ("StackedDrg32GiBV1"), optionally with Go's "RegisteredUpdateProof_" prefix.
filecoin::RegisteredUpdateProof parse_update_proof(std::string_view s);

// A published sector size: "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (case-insensitive) or its
// bytes ("34359738368").
std::uint64_t parse_sector_size(std::string_view s);

// 32 raw bytes as 64 hex digits (optionally 0x-prefixed): tickets and seeds, which Lotus passes
// as drawn (not field elements).
filecoin::Bytes32 parse_hex32(std::string_view s, std::string_view what);

// A prover id: an actor id ("1000", "f01000", "t01000": filecoin-ffi's toProverID of its ID
// address) or its 32 bytes as 64 hex digits.
filecoin::Bytes32 parse_prover_id(std::string_view s);

// A comm_d as 64 hex digits (its 32 bytes in order) or as an unsealed CID ("baga6ea4sea...");
// must be a canonical field element. (comm_r: post_parse.hpp parse_comm_r.)
filecoin::Fr parse_comm_d(std::string_view s);

}  // namespace cuzk::cli
