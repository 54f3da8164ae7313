// Filecoin PoSt circuits in the engine (post_circuit.hpp).
#include "post_circuit.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/post_keys.hpp"
#include "cuzk/filecoin/post_partition.hpp"
#include "cuzk/filecoin/post_record.hpp"
#include "cuzk/filecoin/vanilla.hpp"
#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "filecoin_circuit.hpp"

namespace cuzk::engine {

namespace {

namespace fc = filecoin;
using Bls = groth16::Bls12_381;

std::string circuit_id_of(const fc::PoStProofInfo& info) { return fc::post_circuit_name(info); }

const fc::PoStProofInfo& request_info(const ProofRequest& r) {
  if (!r.post)
    throw invalid_argument("a " + std::string(to_string(r.kind)) + " request carries its PoSt inputs (post)");
  const auto id = fc::post_proof_from_id(r.post->registered_proof);
  if (!id)
    throw invalid_argument("post.registered_proof " + std::to_string(r.post->registered_proof) +
                           " is not a registered PoSt proof");
  const fc::PoStProofInfo& info = fc::post_proof_info(*id);
  const ProofKind want = info.type == fc::PoStType::Winning ? ProofKind::kWinningPost : ProofKind::kWindowPost;
  if (r.kind != want)
    throw invalid_argument("post.registered_proof " + std::string(info.name) + " is a " + std::string(to_string(want)) +
                           " proof, but the request's kind is " + std::string(to_string(r.kind)));
  return info;
}

class PostCircuit final : public FilecoinCircuit {
 public:
  PostCircuit(const fc::PoStProofInfo& info, const std::filesystem::path& dir)
      : FilecoinCircuit(circuit_id_of(info), fc::post_key_paths(dir, info)), info_(info) {
    this->shape_ = filecoin_key_shape(paths_, info_.name, counts());
  }

  void check_request(const ProofRequest& r) const override {
    if (!r.wtns.empty() || r.native_seed)
      throw invalid_argument("circuit " + id_ + " takes PoSt inputs (post), not a witness or a seed");
    const fc::PoStProofInfo& info = request_info(r);
    if (circuit_id_of(info) != id_)
      throw invalid_argument("post.registered_proof " + std::string(info.name) + " is not circuit " + id_);
    const PostRequest& p = *r.post;
    if (p.randomness.size() != 32)
      throw invalid_argument("post.randomness must be 32 bytes, not " + std::to_string(p.randomness.size()));
    if ((p.randomness[31] & 0xc0) != 0)
      throw invalid_argument(
          "post.randomness is not a canonical field element: clear the top two bits of byte 31 "
          "(Lotus and Curio do: randomness[31] &= 0x3f)");
    if (!p.prover_id.empty() && p.prover_id.size() != 32)
      throw invalid_argument("post.prover_id must be 32 bytes or empty");
    const std::size_t max = info.sector_count;
    if (p.vanilla_proofs.empty() || p.vanilla_proofs.size() > max)
      throw invalid_argument("post.vanilla_proofs holds " + std::to_string(p.vanilla_proofs.size()) + " proofs; " +
                             std::string(info.name) + " takes 1 to " + std::to_string(max));
    if (info.type == fc::PoStType::Winning && p.partition_index != 0)
      throw invalid_argument("post.partition_index must be 0 for WinningPoSt");
    if (!p.sector_ids.empty() && p.sector_ids.size() != p.vanilla_proofs.size())
      throw invalid_argument("post.sector_ids holds " + std::to_string(p.sector_ids.size()) + " ids for " +
                             std::to_string(p.vanilla_proofs.size()) + " vanilla proofs");
    const std::size_t size = fc::vanilla_proof_size(info.id);
    for (std::size_t i = 0; i < p.vanilla_proofs.size(); ++i)
      if (p.vanilla_proofs[i].size() != size)
        throw invalid_argument("post.vanilla_proofs[" + std::to_string(i) + "] is " +
                               std::to_string(p.vanilla_proofs[i].size()) + " bytes; a " + std::string(info.name) +
                               " vanilla proof is " + std::to_string(size));
  }

  std::shared_ptr<const HostKey> load_key(Devices& b, const io::MappedFile*) const override {
    return prepared_key(b, fc::load_post_proving_key(paths_, info_, fc::record_post_circuit(fc::post_shape(info_))));
  }

  std::unique_ptr<Witness> synthesize(const ProofRequest& r, const PartitionInput*,
                                      groth16::PhaseTimings& t) const override {
    const PostRequest& p = *r.post;
    fc::PostPartitionInputs in;
    in.proof = request_info(r).id;
    std::memcpy(in.randomness.data(), p.randomness.data(), 32);
    in.partition_index = p.partition_index;
    for (const auto& v : p.vanilla_proofs) in.vanilla_proofs.push_back(byte_span(v));
    if (!p.sector_ids.empty()) in.sector_ids = p.sector_ids;
    std::optional<fc::PostPartition> part;
    try {
      groth16::ScopedPhase ph(t, "vanilla_check");
      part.emplace(fc::prepare_post_partition(in));
    } catch (const DecodeError& e) {
      throw invalid_argument(std::string("the PoSt inputs are refused: ") + e.what());
    } catch (const std::invalid_argument& e) {
      throw invalid_argument(std::string("the PoSt inputs are refused: ") + e.what());
    }
    std::vector<fc::Fr> w;
    {
      groth16::ScopedPhase ph(t, "synthesis");
      w = gadgets::circuits::parallel_witness_full<fc::Fr>(part->circuit);
    }
    return witness_with_inputs(std::move(w), part->public_inputs, "");
  }

 private:
  // The partition circuit's counts: its sector slots are alike, so one slot is recorded.
  FilecoinCircuitCounts counts() const {
    const fc::PostShape shape = fc::post_shape(info_);
    cs::RecordCS<fc::Fr> rec;
    fc::FallbackPostCircuit::blank(fc::PostShape{shape.tree, shape.sector_nodes, shape.challenges, 1})
        .synthesize_challenge(rec, 0);
    const r1cs::R1CS<fc::Fr> slot = std::move(rec).finish();
    const std::uint64_t slots = shape.sectors;
    return {slots * slot.num_public, 1 + slots * (slot.num_vars - 1), slots * slot.num_constraints,
            slots * slot.A.nnz(), slots * slot.B.nnz()};
  }

  const fc::PoStProofInfo& info_;
};

}  // namespace

std::vector<std::unique_ptr<Circuit>> make_post_circuits(const std::filesystem::path& dir, const FilecoinSelection& sel) {
  std::vector<FilecoinCandidate> candidates;
  for (const fc::PoStProofInfo& info : fc::all_post_proofs()) {
    if (info.api_version == fc::ApiVersion::V1_2_0) continue;  // shares its circuit and files with V1
    candidates.push_back({circuit_id_of(info), std::string(info.name), fc::post_key_paths(dir, info),
                          [&info, dir] { return std::make_unique<PostCircuit>(info, dir); }});
  }
  return serve_filecoin_circuits(dir, "PoSt", candidates, sel);
}

std::string post_circuit_id(const ProofRequest& r) { return circuit_id_of(request_info(r)); }

bool is_post_circuit_id(const std::string& id) {
  for (const fc::PoStProofInfo& info : fc::all_post_proofs())
    if (circuit_id_of(info) == id) return true;
  return false;
}

bool is_winning_post_circuit_id(const std::string& id) { return is_post_circuit_id(id) && id.starts_with("winning-"); }

}  // namespace cuzk::engine
