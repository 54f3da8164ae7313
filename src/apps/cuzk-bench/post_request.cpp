// cuzk-bench's PoSt requests (post_request.hpp).
#include "post_request.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/post_public_inputs.hpp"
#include "cuzk/filecoin/post_vanilla_gen.hpp"
#include "cuzk/filecoin/vanilla.hpp"
#include "post_parse.hpp"
#include "post_verify.hpp"

namespace cuzk::bench {

namespace fc = filecoin;

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// 32 pseudo-random bytes from the seed, made canonical as chain randomness is (byte 31 &= 0x3f).
fc::Bytes32 randomness_from_seed(std::uint64_t seed) {
  std::uint64_t state = seed ^ 0x52616e646f6d6e65ull;  // a stream apart from the vanilla data's
  fc::Bytes32 r{};
  for (std::size_t w = 0; w < 4; ++w) {
    const std::uint64_t v = splitmix64(state);
    for (std::size_t b = 0; b < 8; ++b) r[8 * w + b] = static_cast<std::uint8_t>(v >> (8 * b));
  }
  return fc::chain_randomness_to_seed(r);
}

std::string circuit_of(const fc::PoStProofInfo& info) { return fc::post_circuit_name(info); }

pb::ProofKind kind_of(const fc::PoStProofInfo& info) {
  return info.type == fc::PoStType::Winning ? pb::PROOF_KIND_WINNING_POST : pb::PROOF_KIND_WINDOW_POST;
}

// What a chain verifier checks the SNARK against: the partition's sectors (WindowPoSt) or the one
// sector repeated into every slot (WinningPoSt).
std::shared_ptr<const PostExpectation> expectation(const fc::PoStProofInfo& info, const fc::Bytes32& randomness,
                                                   const std::vector<fc::PublicSector>& sectors,
                                                   std::size_t partition) {
  auto e = std::make_shared<PostExpectation>();
  e->circuit_id = circuit_of(info);
  try {
    e->public_inputs = info.type == fc::PoStType::Window
                           ? fc::partition_public_inputs(fc::fallback_post_params(info), randomness, sectors, partition)
                           : fc::post_public_inputs(info, randomness, sectors, partition);
  } catch (const std::exception& ex) {
    e->underivable = ex.what();
  }
  return e;
}

std::string as_string(std::span<const std::uint8_t> b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

PostJob synthetic_job(const fc::PoStProofInfo& info, const fc::Bytes32& randomness,
                      const std::vector<std::uint64_t>& ids, std::size_t partition, std::uint64_t seed) {
  const std::vector<fc::SyntheticSector> made =
      fc::generate_post_vanilla_proofs(info.id, randomness, ids, partition, seed);
  PostJob job;
  job.kind = kind_of(info);
  pb::PostRequest& r = job.request;
  r.set_registered_proof(static_cast<std::uint32_t>(info.id));
  r.set_randomness(as_string(randomness));
  r.set_partition_index(partition);
  std::vector<fc::PublicSector> sectors;
  for (const fc::SyntheticSector& s : made) {
    r.add_sector_ids(s.sector_id);
    r.add_vanilla_proofs(as_string(s.vanilla_proof));
    sectors.push_back({s.sector_id, s.comm_r});
  }
  job.expect = expectation(info, randomness, sectors, partition);
  return job;
}

}  // namespace

struct PostSource::Impl {
  const fc::PoStProofInfo* info = nullptr;
  std::size_t partition = 0;
  std::vector<std::uint64_t> ids;             // synthetic: the sectors; files: the given --sector-ids (or none)
  std::optional<fc::Bytes32> randomness;      // given; else from each request's seed (synthetic only)
  std::vector<std::string> files;             // vanilla file names
  std::optional<PostJob> from_files;          // the one request every seed gets
};

PostSource::PostSource(const PostOptions& o) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.info = &fc::post_proof_info(cli::parse_post_proof(o.proof));
  m.partition = o.partition;
  if (!o.randomness.empty()) m.randomness = cli::parse_randomness(o.randomness, o.chain_randomness);
  if (!o.sector_ids.empty()) m.ids = cli::parse_sector_ids(o.sector_ids);
  m.files = o.vanilla;
  if (m.files.empty()) {
    if (m.ids.empty())
      for (std::size_t i = 0; i < o.sectors; ++i) m.ids.push_back(i + 1);
    // Refuse now what every request would be refused for (sector count, partition of a WinningPoSt).
    if (m.ids.empty() || m.ids.size() > m.info->sector_count)
      throw std::invalid_argument(std::string(m.info->name) + " proves 1 to " + std::to_string(m.info->sector_count) +
                                  " sectors in a partition, not " + std::to_string(m.ids.size()));
    if (m.info->type == fc::PoStType::Winning && m.partition != 0)
      throw std::invalid_argument("a WinningPoSt has one partition: --partition must be 0");
    return;
  }
  if (!m.randomness)
    throw std::invalid_argument("--vanilla needs --randomness: the randomness those vanilla proofs were made with");
  PostJob job;
  job.kind = kind_of(*m.info);
  pb::PostRequest& r = job.request;
  r.set_registered_proof(static_cast<std::uint32_t>(m.info->id));
  r.set_randomness(as_string(*m.randomness));
  r.set_partition_index(m.partition);
  for (std::uint64_t id : m.ids) r.add_sector_ids(id);
  // The sectors (id, comm_r) the inputs are derived from: the ids given, else the proofs' own; comm_r
  // from the proofs. A file that does not decode here is still sent (the daemon judges it), but
  // its proof cannot be checked here.
  std::vector<fc::PublicSector> sectors;
  std::string underivable;
  for (std::size_t i = 0; i < m.files.size(); ++i) {
    std::ifstream in(m.files[i], std::ios::binary);
    if (!in) throw std::invalid_argument("cannot open " + m.files[i]);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    r.add_vanilla_proofs(bytes);
    if (!underivable.empty()) continue;
    try {
      const fc::FallbackPoStSectorProof p = fc::decode_vanilla_proof(cli::as_bytes(bytes), m.info->id);
      sectors.push_back({i < m.ids.size() ? m.ids[i] : p.sector_id, p.comm_r});
    } catch (const DecodeError& e) {
      underivable = m.files[i] + ": " + e.what();
      std::cerr << "warning: " << underivable
                << "\n  (sent as it is: the daemon judges it; its proof cannot be checked here)\n";
    }
  }
  if (underivable.empty()) {
    job.expect = expectation(*m.info, *m.randomness, sectors, m.partition);
  } else {
    auto e = std::make_shared<PostExpectation>();
    e->circuit_id = circuit_of(*m.info);
    e->underivable = underivable;
    job.expect = e;
  }
  m.from_files = std::move(job);
}

PostSource::~PostSource() = default;
PostSource::PostSource(PostSource&&) noexcept = default;

PostJob PostSource::make(std::uint64_t seed) const {
  const Impl& m = *impl_;
  if (m.from_files) return *m.from_files;
  return synthetic_job(*m.info, m.randomness ? *m.randomness : randomness_from_seed(seed), m.ids, m.partition, seed);
}

std::string PostSource::describe() const {
  const Impl& m = *impl_;
  std::string s = std::string(m.info->name) + " (" + circuit_of(*m.info) + ")";
  if (m.info->type == fc::PoStType::Window) s += " partition " + std::to_string(m.partition);
  if (m.from_files)
    return s + ": vanilla proofs from " + std::to_string(m.files.size()) + " file(s), the same in every request";
  return s + ": " + std::to_string(m.ids.size()) + " SYNTHETIC sector(s), vanilla proofs made from the request's seed" +
         (m.randomness ? " with the given randomness" : " (randomness too)");
}

PostJob synthetic_post_job(std::uint32_t registered_proof, std::uint64_t seed) {
  const fc::PoStProofInfo& info = fc::post_proof_info(fc::post_proof_from_id_or_throw(registered_proof));
  std::uint64_t state = seed;
  const std::vector<std::uint64_t> ids{splitmix64(state) % 1'000'000'000};
  return synthetic_job(info, randomness_from_seed(seed), ids, 0, seed);
}

std::vector<std::uint32_t> post_proofs_of_circuit(const std::string& circuit_id) {
  std::vector<std::uint32_t> out;
  for (const fc::PoStProofInfo& info : fc::all_post_proofs())
    if (circuit_of(info) == circuit_id) out.push_back(static_cast<std::uint32_t>(info.id));
  return out;
}

}  // namespace cuzk::bench
