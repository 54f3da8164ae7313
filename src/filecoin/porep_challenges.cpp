// PoRep challenge derivation (porep_challenges.hpp).
#include "cuzk/filecoin/porep_challenges.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "cuzk/filecoin/blake2b.hpp"
#include "cuzk/filecoin/chacha.hpp"
#include "le_bytes.hpp"

namespace cuzk::filecoin {

using detail::put_u32_le;

namespace {

constexpr std::string_view kNiTag = "filecoin.io|PoRep|1|NonInteractive|1";
constexpr std::string_view kSynthGenKey = "filecoin.io|PoRep|1|Synthetic|1|Generation";
constexpr std::string_view kSynthSelectKey = "filecoin.io|PoRep|1|Synthetic|1|Selection";
constexpr std::uint8_t kSynthNonce[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
constexpr std::size_t kSynthChallengeSize = 32;  // SYNTH_CHALLENGE_SIZE
constexpr std::size_t kSynthIndexSize = 4;       // SYNTH_INDEX_SIZE

std::span<const std::uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// chacha20_gen / chacha20_select's key: BLAKE2b-256 keyed with `tag` over a ‖ b.
Bytes32 prf_key(std::string_view tag, const Bytes32& a, const Bytes32& b) {
  Blake2b h(32, bytes_of(tag));
  h.update(a).update(b);
  const std::vector<std::uint8_t> d = h.finalize();
  Bytes32 out;
  std::copy(d.begin(), d.end(), out.begin());
  return out;
}

void require_nodes(std::uint64_t sector_nodes) {
  if (sector_nodes < 2 || sector_nodes > (std::uint64_t{1} << 32))
    throw std::invalid_argument("porep challenges: sector_nodes must be 2..2^32");
}

// The Rust passes the partition as a u8 (`k as u8`); refuse what it could not express.
void require_partition(std::size_t k) {
  if (k > 255) throw std::invalid_argument("porep challenges: partition index above 255");
}

// The u32 index j of challenge i of partition k (the Rust's `as u32`).
std::uint32_t challenge_index(std::size_t per_partition, std::size_t k, std::size_t i) {
  return static_cast<std::uint32_t>(per_partition * k + i);
}

std::uint64_t challenge_of_sha256(const std::uint8_t* msg, std::size_t len, std::uint64_t sector_nodes) {
  std::uint8_t d[32];
  SHA256(msg, len, d);
  return porep_challenge_from_bytes(std::span<const std::uint8_t, 32>(d, 32), sector_nodes);
}

}  // namespace

std::size_t porep_minimum_challenges(const SealProofInfo& info) {
  const bool big = info.sector_size >= kSectorSize32GiB;
  if (info.feature == SealFeature::NonInteractivePoRep) return big ? 2253 : 26;
  return big ? 176 : 2;
}

std::size_t porep_challenges_per_partition(const SealProofInfo& info) {
  const std::size_t min = porep_minimum_challenges(info);
  return (min + info.porep_partitions - 1) / info.porep_partitions;
}

std::uint64_t porep_challenge_from_bytes(std::span<const std::uint8_t, 32> le_bytes, std::uint64_t sector_nodes) {
  require_nodes(sector_nodes);
  const std::uint64_t m = sector_nodes - 1;  // < 2^32, so r * 256 + byte stays below 2^40
  std::uint64_t r = 0;
  for (int i = 31; i >= 0; --i) r = ((r << 8) | le_bytes[i]) % m;
  return r + 1;
}

std::vector<std::uint64_t> interactive_porep_challenges(std::uint64_t sector_nodes, const Bytes32& replica_id,
                                                        const Bytes32& seed, std::size_t challenges_per_partition,
                                                        std::size_t k) {
  require_nodes(sector_nodes);
  require_partition(k);
  std::uint8_t msg[32 + 32 + 4];
  std::copy(replica_id.begin(), replica_id.end(), msg);
  std::copy(seed.begin(), seed.end(), msg + 32);
  std::vector<std::uint64_t> out(challenges_per_partition);
  for (std::size_t i = 0; i < challenges_per_partition; ++i) {
    put_u32_le(msg + 64, challenge_index(challenges_per_partition, k, i));
    out[i] = challenge_of_sha256(msg, sizeof msg, sector_nodes);
  }
  return out;
}

std::vector<std::uint64_t> ni_porep_challenges(std::uint64_t sector_nodes, const Bytes32& replica_id,
                                               const Bytes32& comm_r, std::size_t challenges_per_partition,
                                               std::size_t k) {
  require_nodes(sector_nodes);
  require_partition(k);
  std::uint8_t msg[kNiTag.size() + 32 + 32 + 4];
  std::uint8_t* p = std::copy(kNiTag.begin(), kNiTag.end(), msg);
  p = std::copy(replica_id.begin(), replica_id.end(), p);
  p = std::copy(comm_r.begin(), comm_r.end(), p);
  std::vector<std::uint64_t> out(challenges_per_partition);
  for (std::size_t i = 0; i < challenges_per_partition; ++i) {
    put_u32_le(p, challenge_index(challenges_per_partition, k, i));
    out[i] = challenge_of_sha256(msg, sizeof msg, sector_nodes);
  }
  return out;
}

SynthChallengeGenerator::SynthChallengeGenerator(std::uint64_t sector_nodes, const Bytes32& replica_id,
                                                 const Bytes32& comm_r, std::uint64_t num_synth_challenges)
    : sector_nodes_(sector_nodes),
      replica_id_(replica_id),
      gen_key_(prf_key(kSynthGenKey, replica_id, comm_r)),
      num_synth_(num_synth_challenges) {
  require_nodes(sector_nodes);
  if (num_synth_challenges >= (std::uint64_t{1} << 32))
    throw std::invalid_argument("SynthChallengeGenerator: num_synth_challenges must fit a u32");
}

SynthChallengeGenerator SynthChallengeGenerator::with_default_count(std::uint64_t sector_nodes,
                                                                    const Bytes32& replica_id, const Bytes32& comm_r) {
  return SynthChallengeGenerator(sector_nodes, replica_id, comm_r, std::min(sector_nodes, kDefaultCount));
}

std::uint64_t SynthChallengeGenerator::synth_challenge(std::uint64_t i) const {
  if (i >= num_synth_) throw std::out_of_range("SynthChallengeGenerator: synthetic challenge index out of range");
  ChaCha20Ietf prf(gen_key_, kSynthNonce);
  // The Rust seeks to (i * 32) as u32: exact, i < 2^32 / 32 for every count it uses.
  prf.seek(static_cast<std::uint32_t>(i * kSynthChallengeSize));
  std::array<std::uint8_t, kSynthChallengeSize> r{};
  prf.apply_keystream(r);
  return porep_challenge_from_bytes(r, sector_nodes_);
}

std::vector<std::uint64_t> SynthChallengeGenerator::all_synth_challenges() const {
  ChaCha20Ietf prf(gen_key_, kSynthNonce);
  std::vector<std::uint64_t> out(num_synth_);
  for (std::uint64_t i = 0; i < num_synth_; ++i) {
    std::array<std::uint8_t, kSynthChallengeSize> r{};
    prf.apply_keystream(r);
    out[i] = porep_challenge_from_bytes(r, sector_nodes_);
  }
  return out;
}

std::vector<std::uint64_t> SynthChallengeGenerator::partition_synth_indexes(std::size_t challenges_per_partition,
                                                                            const Bytes32& seed, std::size_t k) const {
  if (num_synth_ == 0) throw std::invalid_argument("SynthChallengeGenerator: no synthetic challenges to select from");
  ChaCha20Ietf prf(prf_key(kSynthSelectKey, replica_id_, seed), kSynthNonce);
  prf.seek(static_cast<std::uint32_t>(k * challenges_per_partition * kSynthIndexSize));
  std::vector<std::uint8_t> r(challenges_per_partition * kSynthIndexSize, 0);
  prf.apply_keystream(r);
  std::vector<std::uint64_t> out(challenges_per_partition);
  for (std::size_t i = 0; i < challenges_per_partition; ++i) {
    const std::uint8_t* b = r.data() + kSynthIndexSize * i;
    const std::uint32_t v =
        std::uint32_t{b[0]} | std::uint32_t{b[1]} << 8 | std::uint32_t{b[2]} << 16 | std::uint32_t{b[3]} << 24;
    out[i] = v % num_synth_;
  }
  return out;
}

std::vector<std::uint64_t> SynthChallengeGenerator::porep_partition_challenges(std::size_t challenges_per_partition,
                                                                               const Bytes32& seed,
                                                                               std::size_t k) const {
  std::vector<std::uint64_t> out = partition_synth_indexes(challenges_per_partition, seed, k);
  for (std::uint64_t& c : out) c = synth_challenge(c);
  return out;
}

std::vector<std::uint64_t> porep_challenges(const SealProofInfo& info, const Bytes32& replica_id,
                                            const std::optional<Bytes32>& seed, const std::optional<Bytes32>& comm_r,
                                            std::size_t k) {
  require_partition(k);
  const std::size_t per_partition = porep_challenges_per_partition(info);
  switch (info.feature) {
    case SealFeature::None:
      if (!seed) throw std::invalid_argument("porep_challenges: interactive PoRep needs the seed");
      return interactive_porep_challenges(info.nodes, replica_id, *seed, per_partition, k);
    case SealFeature::SyntheticPoRep: {
      if (!comm_r) throw std::invalid_argument("porep_challenges: synthetic PoRep needs comm_r");
      const auto gen = SynthChallengeGenerator::with_default_count(info.nodes, replica_id, *comm_r);
      if (seed) return gen.porep_partition_challenges(per_partition, *seed, k);
      if (k != 0) throw std::invalid_argument("porep_challenges: the synthetic set is a single partition (k = 0)");
      return gen.all_synth_challenges();
    }
    case SealFeature::NonInteractivePoRep:
      if (!comm_r) throw std::invalid_argument("porep_challenges: non-interactive PoRep needs comm_r");
      return ni_porep_challenges(info.nodes, replica_id, *comm_r, per_partition, k);
  }
  throw std::invalid_argument("porep_challenges: unknown seal feature");
}

}  // namespace cuzk::filecoin
