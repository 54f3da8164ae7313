// Commitments as CIDs (go-fil-commcid): a sealed sector's comm_r is the CIDv1
//   version 1 | codec fil-commitment-sealed (0xf102) | multihash poseidon-bls12_381-a2-fc1
//   (0xb401) | digest length 32 | comm_r
// (an unsealed sector's comm_d: codec fil-commitment-unsealed 0xf101, multihash
// sha2-256-trunc254-padded 0x1012), every number an unsigned varint, written in multibase
// base32 ('b' + RFC 4648 lowercase, no padding), e.g. "bagboea4b5abcb...". The digest is the
// commitment's 32 bytes as they are (for comm_r: the Fr's little-endian form).
#pragma once

#include <string>
#include <string_view>

#include "cuzk/filecoin/fr.hpp"

namespace cuzk::filecoin {

// Throws DecodeError saying what is wrong (multibase, base32 character, varint, version, codec,
// multihash, digest length, trailing bytes).
Bytes32 comm_r_from_sealed_cid(std::string_view cid);
Bytes32 comm_d_from_unsealed_cid(std::string_view cid);

std::string sealed_cid_from_comm_r(const Bytes32& comm_r);
std::string unsealed_cid_from_comm_d(const Bytes32& comm_d);

}  // namespace cuzk::filecoin
