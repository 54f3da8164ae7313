// SnapDeals phi, rho and challenges (snap_challenges.hpp), after storage-proofs-update
// challenges.rs (Challenges::new / next) and vanilla.rs (phi, rho).
#include "cuzk/filecoin/snap_challenges.hpp"

#include <stdexcept>
#include <string>

#include "cuzk/filecoin/poseidon_constants.hpp"

namespace cuzk::filecoin {

namespace {

Fr gen_randomness(const Fr& a, const Fr& b) {
  const Fr in[2] = {a, b};
  return poseidon_hash(poseidon_constants_gen_randomness(), in);
}

}  // namespace

Fr snap_phi(const Fr& comm_d_new, const Fr& comm_r_old) { return gen_randomness(comm_d_new, comm_r_old); }

Fr snap_rho(const Fr& phi, std::uint32_t high) { return gen_randomness(phi, Fr::from_u64(high)); }

std::vector<std::uint32_t> snap_challenges(const SnapParams& p, const Fr& comm_r_new, std::size_t k) {
  if (k >= p.partition_count)
    throw std::invalid_argument("snap_challenges: partition index " + std::to_string(k) +
                                " exceeds the partition count " + std::to_string(p.partition_count));
  const std::size_t bits = p.random_bits_per_challenge(), per_digest = p.challenges_per_digest();
  const std::uint64_t partition_bits = std::uint64_t{k} << bits;
  std::uint64_t digest_index = std::uint64_t{k} * p.digests_per_partition();
  std::vector<std::uint32_t> out;
  out.reserve(p.challenge_count);
  Fr::Repr digest{};
  for (std::size_t i = 0; out.size() < p.challenge_count;) {
    if (i == 0) digest = gen_randomness(comm_r_new, Fr::from_u64(digest_index)).to_canonical();
    std::uint64_t c = 0;
    for (std::size_t b = 0; b < bits; ++b) {
      const std::size_t at = i * bits + b;
      if ((digest[at / 64] >> (at % 64)) & 1) c |= std::uint64_t{1} << b;
    }
    out.push_back(static_cast<std::uint32_t>(c | partition_bits));
    if (++i == per_digest) i = 0, ++digest_index;
  }
  return out;
}

}  // namespace cuzk::filecoin
