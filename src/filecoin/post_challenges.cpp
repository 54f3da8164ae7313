// PoSt challenge derivation (method in post_challenges.hpp). SHA-256 is OpenSSL's; a leaf
// challenge hashes the 48 bytes randomness ‖ sector_id ‖ index in one go, which is what the
// Rust's cloned hasher state (updated with randomness and sector_id once) amounts to.
#include "cuzk/filecoin/post_challenges.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cuzk/error.hpp"
#include "le_bytes.hpp"

namespace cuzk::filecoin {

using detail::put_u64_le;

namespace {

std::uint64_t u64_le_of_sha256(const std::uint8_t* data, std::size_t len) {
  std::uint8_t digest[SHA256_DIGEST_LENGTH];
  SHA256(data, len, digest);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | digest[i];
  return v;
}

}  // namespace

Bytes32 chain_randomness_to_seed(Bytes32 randomness) {
  randomness[31] &= 0x3f;
  return randomness;
}

void require_safe_commitment(const Bytes32& bytes, std::string_view name) {
  Fr::Repr c{};
  for (std::size_t i = 0; i < 32; ++i) c[i / 8] |= std::uint64_t{bytes[i]} << (8 * (i % 8));
  if (ff::big::cmp(c, Fr::kModulus) >= 0)
    throw DecodeError(std::string(name) +
                      " is not a canonical field element (>= r); chain randomness needs its top two "
                      "bits cleared first");
}

Bytes32 prover_id_from_actor_id(std::uint64_t actor_id) {
  Bytes32 out{};
  std::size_t i = 0;
  do {
    std::uint8_t b = actor_id & 0x7f;
    actor_id >>= 7;
    if (actor_id) b |= 0x80;
    out[i++] = b;
  } while (actor_id);
  return out;
}

std::uint64_t challenge_index(ApiVersion v, std::size_t sector_index, std::size_t challenges_per_sector,
                              std::size_t n) {
  switch (v) {
    case ApiVersion::V1_0_0:
    case ApiVersion::V1_1_0: return static_cast<std::uint64_t>(sector_index * challenges_per_sector + n);
    case ApiVersion::V1_2_0: return n;
  }
  throw std::invalid_argument("challenge_index: unknown api version");
}

std::uint64_t leaf_challenge(const Bytes32& randomness, std::uint64_t sector_id, std::uint64_t index,
                             std::uint64_t sector_nodes) {
  if (sector_nodes == 0) throw std::invalid_argument("leaf_challenge: a sector of 0 nodes");
  std::uint8_t msg[48];
  std::copy(randomness.begin(), randomness.end(), msg);
  put_u64_le(msg + 32, sector_id);
  put_u64_le(msg + 40, index);
  return u64_le_of_sha256(msg, sizeof msg) % sector_nodes;
}

std::vector<std::uint64_t> sector_leaf_challenges(const PoStProofInfo& info, const Bytes32& randomness,
                                                  std::uint64_t sector_id, std::size_t sector_index) {
  require_safe_commitment(randomness, "randomness");
  std::vector<std::uint64_t> out;
  out.reserve(info.challenge_count);
  for (std::size_t n = 0; n < info.challenge_count; ++n)
    out.push_back(leaf_challenge(randomness, sector_id,
                                 challenge_index(info.api_version, sector_index, info.challenge_count, n), info.nodes));
  return out;
}

std::vector<std::vector<std::uint64_t>> fallback_sector_challenges(const PoStProofInfo& info, const Bytes32& randomness,
                                                                   std::span<const std::uint64_t> sector_ids) {
  if (sector_ids.empty()) throw std::invalid_argument("fallback_sector_challenges: no sectors supplied");
  if (info.type == PoStType::Winning && sector_ids.size() != info.sector_count)
    throw std::invalid_argument("fallback_sector_challenges: WinningPoSt challenges " +
                                std::to_string(info.sector_count) + " sector, not " +
                                std::to_string(sector_ids.size()));
  // With the partitions consecutive chunks of sector_count, partition·sector_count + i is the
  // position in the list.
  std::vector<std::vector<std::uint64_t>> out;
  out.reserve(sector_ids.size());
  for (std::size_t i = 0; i < sector_ids.size(); ++i)
    out.push_back(sector_leaf_challenges(info, randomness, sector_ids[i], i));
  return out;
}

std::vector<std::uint64_t> winning_post_sector_challenge(const PoStProofInfo& info, const Bytes32& randomness,
                                                         std::uint64_t sector_set_len, const Bytes32& prover_id) {
  if (info.type != PoStType::Winning)
    throw std::invalid_argument("winning_post_sector_challenge: not a WinningPoSt proof");
  if (sector_set_len == 0) throw std::invalid_argument("winning_post_sector_challenge: empty sector set is invalid");
  require_safe_commitment(prover_id, "prover_id");
  require_safe_commitment(randomness, "randomness");
  std::vector<std::uint64_t> out;
  out.reserve(info.sector_count);
  std::uint8_t msg[72];
  std::copy(prover_id.begin(), prover_id.end(), msg);
  std::copy(randomness.begin(), randomness.end(), msg + 32);
  for (std::size_t n = 0; n < info.sector_count; ++n) {
    put_u64_le(msg + 64, n);  // n as usize, 8 bytes on the 64-bit targets filecoin-proofs runs on
    out.push_back(u64_le_of_sha256(msg, sizeof msg) % sector_set_len);
  }
  return out;
}

std::size_t num_partitions(const PoStProofInfo& info, std::size_t num_sectors) {
  if (info.type == PoStType::Winning) return 1;
  const std::size_t p = (num_sectors + info.sector_count - 1) / info.sector_count;
  return p > 1 ? p : 1;
}

}  // namespace cuzk::filecoin
