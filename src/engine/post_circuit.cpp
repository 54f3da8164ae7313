// Filecoin PoSt circuits in the engine (post_circuit.hpp).
#include "post_circuit.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <system_error>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/post_keys.hpp"
#include "cuzk/filecoin/post_partition.hpp"
#include "cuzk/filecoin/post_record.hpp"
#include "cuzk/filecoin/vanilla.hpp"
#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "cuzk/groth16/qap.hpp"
#include "typed_circuit.hpp"

namespace cuzk::engine {

namespace {

namespace fc = filecoin;
using Bls = groth16::Bls12_381;

std::string circuit_id_of(const fc::PoStProofInfo& info) { return fc::post_circuit_name(info); }

EngineError invalid(const std::string& what) { return EngineError(ErrorCode::kInvalidArgument, what); }

const fc::PoStProofInfo& request_info(const ProofRequest& r) {
  if (!r.post) throw invalid("a " + std::string(to_string(r.kind)) + " request carries its PoSt inputs (post)");
  const auto id = fc::post_proof_from_id(r.post->registered_proof);
  if (!id) throw invalid("post.registered_proof " + std::to_string(r.post->registered_proof) + " is not a registered PoSt proof");
  const fc::PoStProofInfo& info = fc::post_proof_info(*id);
  const ProofKind want = info.type == fc::PoStType::Winning ? ProofKind::kWinningPost : ProofKind::kWindowPost;
  if (r.kind != want)
    throw invalid("post.registered_proof " + std::string(info.name) + " is a " + std::string(to_string(want)) +
                  " proof, but the request's kind is " + std::string(to_string(r.kind)));
  return info;
}

class PostCircuit final : public TypedCircuit<Bls> {
 public:
  PostCircuit(const fc::PoStProofInfo& info, const std::filesystem::path& dir)
      : info_(info), paths_(fc::post_key_paths(dir, info)), test_key_(fc::is_test_key(paths_)) {
    this->id_ = circuit_id_of(info);
    this->witness_from_request_ = false;
    if (!test_key_)
      this->rejection_hint_ = " (or " + paths_.params.string() +
                              " is Filecoin's official key and cuzk's circuit is not the one it was made for)";
    this->shape_ = compute_shape();
  }

  std::string source() const override { return paths_.params.string(); }

  void check_request(const ProofRequest& r) const override {
    if (!r.wtns.empty() || r.native_seed) throw invalid("circuit " + id_ + " takes PoSt inputs (post), not a witness or a seed");
    const fc::PoStProofInfo& info = request_info(r);
    if (circuit_id_of(info) != id_) throw invalid("post.registered_proof " + std::string(info.name) + " is not circuit " + id_);
    const PostRequest& p = *r.post;
    if (p.randomness.size() != 32) throw invalid("post.randomness must be 32 bytes, not " + std::to_string(p.randomness.size()));
    if ((p.randomness[31] & 0xc0) != 0)
      throw invalid("post.randomness is not a canonical field element: clear the top two bits of byte 31 "
                    "(Lotus and Curio do: randomness[31] &= 0x3f)");
    if (!p.prover_id.empty() && p.prover_id.size() != 32) throw invalid("post.prover_id must be 32 bytes or empty");
    const std::size_t max = info.sector_count;
    if (p.vanilla_proofs.empty() || p.vanilla_proofs.size() > max)
      throw invalid("post.vanilla_proofs holds " + std::to_string(p.vanilla_proofs.size()) + " proofs; " +
                    std::string(info.name) + " takes 1 to " + std::to_string(max));
    if (info.type == fc::PoStType::Winning && p.partition_index != 0)
      throw invalid("post.partition_index must be 0 for WinningPoSt");
    if (!p.sector_ids.empty() && p.sector_ids.size() != p.vanilla_proofs.size())
      throw invalid("post.sector_ids holds " + std::to_string(p.sector_ids.size()) + " ids for " +
                    std::to_string(p.vanilla_proofs.size()) + " vanilla proofs");
    const std::size_t size = fc::vanilla_proof_size(info.id);
    for (std::size_t i = 0; i < p.vanilla_proofs.size(); ++i)
      if (p.vanilla_proofs[i].size() != size)
        throw invalid("post.vanilla_proofs[" + std::to_string(i) + "] is " + std::to_string(p.vanilla_proofs[i].size()) +
                      " bytes; a " + std::string(info.name) + " vanilla proof is " + std::to_string(size));
  }

  std::shared_ptr<const HostKey> load_key(DeviceBackend& b, const io::MappedFile*) const override {
    const r1cs::R1CS<fc::Fr> circuit = fc::record_post_circuit(fc::post_shape(info_));
    groth16::ProvingKey<Bls> pk = fc::load_post_proving_key(paths_, info_, circuit);
    if (test_key_) spdlog::warn("circuit {}: {} is a cuzk TEST key: its proofs do not verify on chain", id_, paths_.params.string());
    return host_key(b, std::move(pk));
  }

  std::unique_ptr<Witness> synthesize(const ProofRequest& r, const PartitionInput*,
                                      groth16::PhaseTimings& t) const override {
    const PostRequest& p = *r.post;
    fc::PostPartitionInputs in;
    in.proof = request_info(r).id;
    std::memcpy(in.randomness.data(), p.randomness.data(), 32);
    in.partition_index = p.partition_index;
    for (const auto& v : p.vanilla_proofs) in.vanilla_proofs.emplace_back(v);
    if (!p.sector_ids.empty()) in.sector_ids = p.sector_ids;
    std::optional<fc::PostPartition> part;
    try {
      groth16::ScopedPhase ph(t, "vanilla_check");
      part.emplace(fc::prepare_post_partition(in));
    } catch (const DecodeError& e) {
      throw invalid(std::string("the PoSt inputs are refused: ") + e.what());
    } catch (const std::invalid_argument& e) {
      throw invalid(std::string("the PoSt inputs are refused: ") + e.what());
    }
    groth16::ScopedPhase ph(t, "synthesis");
    auto out = std::make_unique<TypedWitness<Bls>>();
    out->w = gadgets::circuits::parallel_witness_full<fc::Fr>(part->circuit);
    const std::size_t n = part->public_inputs.size();
    if (out->w.size() < n + 1 || !std::equal(part->public_inputs.begin(), part->public_inputs.end(), out->w.begin() + 1))
      throw EngineError(ErrorCode::kInternal, "circuit " + id_ + ": the witness's public inputs are not the derived ones");
    return out;
  }

 private:
  // The key's shape from its file's headers (nothing decoded), checked against the circuit's.
  KeyShape compute_shape() const {
    const io::MappedFile m = io::MappedFile::open(paths_.params);
    const groth16::BellpersonParamsCounts n = groth16::read_bellperson_params_counts(m.bytes());
    const fc::PostShape shape = fc::post_shape(info_);
    cs::RecordCS<fc::Fr> rec;
    fc::FallbackPostCircuit::blank(fc::PostShape{shape.tree, shape.sector_nodes, shape.challenges, 1})
        .synthesize_challenge(rec, 0);
    const r1cs::R1CS<fc::Fr> slot = std::move(rec).finish();
    const std::uint64_t slots = shape.sectors;
    const std::uint64_t inputs = slots * slot.num_public;
    const std::uint64_t vars = 1 + slots * (slot.num_vars - 1);
    const std::uint64_t constraints = slots * slot.num_constraints;
    const std::uint64_t domain = groth16::qap_domain_size(constraints, inputs);
    auto must = [&](std::uint64_t got, std::uint64_t want, const char* what) {
      if (got != want)
        throw std::runtime_error(paths_.params.string() + " does not fit cuzk's " + std::string(info_.name) +
                                 " circuit: " + what + " " + std::to_string(got) + ", the circuit's " + std::to_string(want));
    };
    must(n.ic, inputs + 1, "public inputs (ONE included)");
    must(std::uint64_t{n.ic} + n.l, vars, "variables");
    must(std::uint64_t{n.h} + 1, domain, "domain size");
    KeyShape s;
    s.curve = std::string(Bls::kName);
    s.num_vars = vars;
    s.num_public = inputs;
    s.domain_size = domain;
    s.h_len = n.h;
    s.rows = constraints + inputs + 1;
    s.nnz = slots * (slot.A.nnz() + slot.B.nnz()) + inputs + 1;  // the loaded key keeps A and B only
    s.g1_bytes = sizeof(Bls::G1Affine);
    s.g2_bytes = sizeof(Bls::G2Affine);
    s.fr_bytes = sizeof(fc::Fr);
    return s;
  }

  const fc::PoStProofInfo& info_;
  fc::PostKeyPaths paths_;
  bool test_key_;
};

}  // namespace

std::vector<std::unique_ptr<Circuit>> make_post_circuits(const std::filesystem::path& dir) {
  std::vector<std::unique_ptr<Circuit>> out;
  if (dir.empty()) return out;
  std::vector<std::string> served;
  for (const fc::PoStProofInfo& info : fc::all_post_proofs()) {
    if (info.api_version == fc::ApiVersion::V1_2_0) continue;  // shares its circuit and files with V1
    const fc::PostKeyPaths paths = fc::post_key_paths(dir, info);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(paths.params, ec) || !std::filesystem::is_regular_file(paths.vk, ec)) continue;
    try {
      out.push_back(std::make_unique<PostCircuit>(info, dir));
      served.push_back(out.back()->id() + (fc::is_test_key(paths) ? " (TEST key)" : ""));
    } catch (const std::exception& e) {
      spdlog::error("Filecoin {} is not served: {}", info.name, e.what());
    }
  }
  std::string list;
  for (const auto& s : served) list += (list.empty() ? "" : ", ") + s;
  spdlog::info("Filecoin PoSt from {}: {}", dir.string(), list.empty() ? "no key files (no PoSt kind is served)" : list);
  return out;
}

std::string post_circuit_id(const ProofRequest& r) { return circuit_id_of(request_info(r)); }

bool is_post_circuit_id(const std::string& id) {
  for (const fc::PoStProofInfo& info : fc::all_post_proofs())
    if (circuit_id_of(info) == id) return true;
  return false;
}

bool is_winning_post_circuit_id(const std::string& id) { return is_post_circuit_id(id) && id.starts_with("winning-"); }

}  // namespace cuzk::engine
