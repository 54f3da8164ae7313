// porep_id and replica_id (porep_id.hpp).
#include "cuzk/filecoin/porep_id.hpp"

#include <openssl/sha.h>

#include <algorithm>

namespace cuzk::filecoin {

PoRepId make_porep_id(std::uint64_t registered_proof_id, std::uint64_t nonce) {
  PoRepId id{};
  for (int i = 0; i < 8; ++i) {
    id[i] = static_cast<std::uint8_t>(registered_proof_id >> (8 * i));
    id[8 + i] = static_cast<std::uint8_t>(nonce >> (8 * i));
  }
  return id;
}

PoRepId porep_id(RegisteredSealProof p) { return make_porep_id(static_cast<std::uint64_t>(p)); }

Bytes32 replica_id(const Bytes32& prover_id, std::uint64_t sector_id, const Bytes32& ticket, const Bytes32& comm_d,
                   const PoRepId& porep_id) {
  std::uint8_t msg[32 + 8 + 32 + 32 + 32];
  std::uint8_t* p = std::copy(prover_id.begin(), prover_id.end(), msg);
  for (int i = 7; i >= 0; --i) *p++ = static_cast<std::uint8_t>(sector_id >> (8 * i));  // big-endian
  p = std::copy(ticket.begin(), ticket.end(), p);
  p = std::copy(comm_d.begin(), comm_d.end(), p);
  std::copy(porep_id.begin(), porep_id.end(), p);
  Bytes32 out;
  SHA256(msg, sizeof msg, out.data());
  out[31] &= 0x3f;
  return out;
}

}  // namespace cuzk::filecoin
