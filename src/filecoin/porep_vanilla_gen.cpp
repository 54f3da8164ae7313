// PoRep C1 generation, the parts both methods share (porep_vanilla_gen.hpp): parameters, the
// label hash, the challenges, the vanilla proofs' assembly, the choice of method.
#include "cuzk/filecoin/porep_vanilla_gen.hpp"

#include <openssl/sha.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/poseidon_constants.hpp"
#include "le_bytes.hpp"
#include "porep_gen_detail.hpp"

namespace cuzk::filecoin {

using detail::put_u64_le;

namespace {

Bytes32 tagged_digest(std::string_view tag, std::uint64_t v) {
  std::string msg(tag);
  std::uint8_t b[8];
  put_u64_le(b, v);
  msg.append(reinterpret_cast<const char*>(b), 8);
  Bytes32 d;
  SHA256(reinterpret_cast<const std::uint8_t*>(msg.data()), msg.size(), d.data());
  return d;
}

// graph.rs copy_parents_data(_exp): the order in which a label hashes its parents' labels.
// Layer 1 (6 DRG parents): all six, six times, then the first. Later layers (6 DRG + 8
// expander): all fourteen twice, then the first nine.
template <class T, class Out>
void hashing_order(std::span<const T> drg, std::span<const T> exp, Out&& out) {
  if (drg.size() != kDrgDegree) throw std::invalid_argument("SDR label: 6 DRG parents expected");
  if (!exp.empty() && exp.size() != kExpDegree) throw std::invalid_argument("SDR label: 8 expander parents expected");
  const T* base[kSdrDegree];
  std::size_t n = 0;
  for (const T& x : drg) base[n++] = &x;
  for (const T& x : exp) base[n++] = &x;
  for (std::size_t j = 0; j < kSdrLabelParents; ++j) out(*base[j % n]);
}

}  // namespace

namespace porep_gen_detail {

Fr seeded_fr(std::string_view tag, std::uint64_t seed, std::uint64_t a) {
  std::uint8_t msg[64];
  const std::size_t t = std::min<std::size_t>(tag.size(), 48);
  std::memcpy(msg, tag.data(), t);
  put_u64_le(msg + t, seed);
  put_u64_le(msg + t + 8, a);
  Bytes32 d;
  SHA256(msg, t + 16, d.data());
  d[31] &= 0x3f;
  return Fr::from_bytes_le(d);
}

Fr seeded_fr(std::string_view tag, std::uint64_t seed, std::uint64_t a, std::uint32_t b) {
  std::uint8_t msg[64];
  const std::size_t t = std::min<std::size_t>(tag.size(), 44);
  std::memcpy(msg, tag.data(), t);
  put_u64_le(msg + t, seed);
  put_u64_le(msg + t + 8, a);
  for (int i = 0; i < 4; ++i) msg[t + 16 + i] = static_cast<std::uint8_t>(b >> (8 * i));
  Bytes32 d;
  SHA256(msg, t + 20, d.data());
  d[31] &= 0x3f;
  return Fr::from_bytes_le(d);
}

SealCommitPhase1 assemble_c1(const SectorView& s, const Bytes32& seed) {
  SealCommitPhase1 c1;
  c1.registered_proof = s.params.proof;
  c1.comm_d = s.tree_d.root();
  c1.comm_r = poseidon_hash2(s.tree_c.root(), s.tree_r.root());
  c1.replica_id = s.replica_id;
  c1.seed = seed;
  c1.ticket = s.params.ticket;

  struct Slot {
    std::size_t partition, index;
    std::uint64_t node;
  };
  std::vector<Slot> all;
  c1.partitions.resize(s.shape.partitions);
  for (std::size_t k = 0; k < s.shape.partitions; ++k) {
    const std::vector<std::uint64_t> ch = porep_gen_challenges(s.params, s.replica_id, seed, c1.comm_r, k);
    c1.partitions[k].resize(ch.size());
    for (std::size_t i = 0; i < ch.size(); ++i) all.push_back(Slot{k, i, ch[i]});
  }
  auto opening = [&](std::uint64_t node) {
    ColumnOpening o;
    o.index = static_cast<std::uint32_t>(node);
    o.rows = s.column(node);
    o.tree_c = s.tree_c.proof(node);
    return o;
  };
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, all.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t n = r.begin(); n != r.end(); ++n) {
      const std::uint64_t c = all[n].node;
      PorepVanillaProof& p = c1.partitions[all[n].partition][all[n].index];
      p.comm_d_proof = s.tree_d.proof(c);
      p.comm_r_last_proof = s.tree_r.proof(c);
      p.c_x = opening(c);
      const auto parents = s.graph.parents(static_cast<std::uint32_t>(c));
      for (std::size_t j = 0; j < kDrgDegree; ++j) p.drg_parents.push_back(opening(parents[j]));
      for (std::size_t j = 0; j < kExpDegree; ++j) p.exp_parents.push_back(opening(parents[kDrgDegree + j]));
      // StackedDrg::prove_layers: layer l's labeling proof hashes the DRG columns' row l and
      // (l > 1) the expander columns' row l - 1.
      std::vector<Fr> drg(kDrgDegree), exp(kExpDegree);
      for (std::size_t l = 1; l <= s.shape.layers; ++l) {
        for (std::size_t j = 0; j < kDrgDegree; ++j) drg[j] = p.drg_parents[j].rows[l - 1];
        for (std::size_t j = 0; l > 1 && j < kExpDegree; ++j) exp[j] = p.exp_parents[j].rows[l - 2];
        p.labeling_proofs.push_back(
            LabelingProof{sdr_hashed_parents(drg, l > 1 ? std::span<const Fr>(exp) : std::span<const Fr>()),
                          static_cast<std::uint32_t>(l), c, 0});
      }
      p.encoding_proof = p.labeling_proofs.back();  // EncodingProof: the last layer's parents again
    }
  });
  return c1;
}

}  // namespace porep_gen_detail

Bytes32 prover_id_from_actor(std::uint64_t actor_id) {
  Bytes32 out{};
  std::size_t i = 0;
  do {
    const auto low = static_cast<std::uint8_t>(actor_id & 0x7f);
    actor_id >>= 7;
    out[i++] = actor_id ? static_cast<std::uint8_t>(low | 0x80) : low;
  } while (actor_id);
  return out;
}

PorepGenParams porep_gen_params(RegisteredSealProof proof, std::uint64_t seed) {
  PorepGenParams p;
  p.proof = proof;
  p.prover_id = prover_id_from_actor(1000);
  p.sector = 1;
  p.ticket = tagged_digest("cuzk/porep-gen/ticket", seed);
  p.seed = tagged_digest("cuzk/porep-gen/seed", seed);
  p.data_seed = seed;
  return p;
}

PorepC1Shape porep_gen_shape(const PorepGenParams& p) { return p.shape.value_or(c1_shape(p.proof)); }

SdrGraph porep_gen_graph(const PorepGenParams& p) {
  const SealProofInfo& info = seal_proof_info(p.proof);
  return SdrGraph(porep_gen_shape(p).nodes, p.graph_porep_id.value_or(porep_id(p.proof)),
                  p.graph_api.value_or(info.api_version));
}

std::vector<std::uint64_t> porep_gen_challenges(const PorepGenParams& p, const Fr& replica_id, const Bytes32& seed,
                                                const Fr& comm_r, std::size_t k) {
  const PorepC1Shape shape = porep_gen_shape(p);
  if (shape == c1_shape(p.proof))
    return porep_challenges(seal_proof_info(p.proof), replica_id.to_bytes_le(), seed, comm_r.to_bytes_le(), k);
  return interactive_porep_challenges(shape.nodes, replica_id.to_bytes_le(), seed, shape.challenges_per_partition, k);
}

Bytes32 sdr_create_label(const Bytes32& replica_id, std::uint32_t layer, std::uint64_t node,
                         std::span<const Bytes32> drg, std::span<const Bytes32> exp) {
  std::uint8_t msg[64 + kSdrLabelParents * 32];
  std::memcpy(msg, replica_id.data(), 32);
  std::memset(msg + 32, 0, 32);
  for (int b = 0; b < 4; ++b) msg[32 + b] = static_cast<std::uint8_t>(layer >> (24 - 8 * b));
  for (int b = 0; b < 8; ++b) msg[36 + b] = static_cast<std::uint8_t>(node >> (56 - 8 * b));
  std::size_t len = 64;
  if (node > 0) {
    if ((layer > 1) != !exp.empty())
      throw std::invalid_argument("sdr_create_label: expander parents are hashed in layers after the first only");
    hashing_order(drg, exp, [&](const Bytes32& x) {
      std::memcpy(msg + len, x.data(), 32);
      len += 32;
    });
  }
  Bytes32 d;
  SHA256(msg, len, d.data());
  d[31] &= 0x3f;  // create_label: "strip last two bits, to ensure result is in Fr"
  return d;
}

std::vector<Fr> sdr_hashed_parents(std::span<const Fr> drg, std::span<const Fr> exp) {
  std::vector<Fr> out;
  out.reserve(kSdrLabelParents);
  hashing_order(drg, exp, [&](const Fr& x) { out.push_back(x); });
  return out;
}

PorepGenMode resolve_porep_gen_mode(const PorepGenParams& p, PorepGenMode mode) {
  if (mode != PorepGenMode::Auto) return mode;
  const PorepC1Shape shape = porep_gen_shape(p);
  const bool from_comm_r = shape == c1_shape(p.proof) && seal_proof_info(p.proof).feature != SealFeature::None;
  return shape.nodes <= (std::uint64_t{1} << 18) || from_comm_r ? PorepGenMode::Sealed : PorepGenMode::Sparse;
}

SealCommitPhase1 generate_porep_c1(const PorepGenParams& p, PorepGenMode mode) {
  if (resolve_porep_gen_mode(p, mode) == PorepGenMode::Sparse) return sparse_porep_c1(p);
  return sealed_sector_c1(seal_sector(p), p.seed);
}

}  // namespace cuzk::filecoin
