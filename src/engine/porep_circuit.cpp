// Filecoin PoRep circuits in the engine (porep_circuit.hpp).
#include "porep_circuit.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_check.hpp"
#include "cuzk/filecoin/c1_circuit.hpp"
#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_keys.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/porep_record.hpp"
#include "cuzk/filecoin/porep_witness.hpp"
#include "filecoin_circuit.hpp"

namespace cuzk::engine {

namespace {

namespace fc = filecoin;
using Bls = groth16::Bls12_381;

// The circuit of a registered seal proof: its size, and "-ni" for non-interactive PoRep (other
// challenge counts, other key files).
std::string circuit_id_of(const fc::SealProofInfo& info) { return fc::porep_circuit_name(info); }

const PorepRequest& porep_of(const ProofRequest& r) {
  if (!r.porep) throw invalid_argument("a porep request carries the sector's C1 output (porep)");
  return *r.porep;
}

std::optional<fc::RegisteredSealProof> named_proof(const PorepRequest& p) {
  if (!p.registered_proof) return std::nullopt;
  const auto id = fc::seal_proof_from_id(*p.registered_proof);
  if (!id)
    throw invalid_argument("porep.registered_proof " + std::to_string(*p.registered_proof) +
                           " is not a registered seal proof");
  return id;
}

fc::DecodedC1 decode(const PorepRequest& p) {
  try {
    return fc::decode_c1(byte_span(p.c1), fc::C1Format::kAuto, named_proof(p));
  } catch (const DecodeError& e) {
    throw invalid_argument(std::string("porep.c1 is refused: ") + e.what());
  }
}

// One partition of a checked C1 (its index: the partition's number).
struct PorepPartition final : PartitionInput {
  std::shared_ptr<const fc::SealCommitPhase1> c1;
};

// The partitions a request proves: its one partition, refused unless the C1 has it, or all of them.
std::vector<std::size_t> requested_partitions(const PorepRequest& p, const fc::SealCommitPhase1& c1) {
  const std::size_t n = c1.partitions.size();
  if (p.partition) {
    if (*p.partition >= n)
      throw invalid_argument("porep.partition " + std::to_string(*p.partition) + ": a " +
                             std::string(fc::seal_proof_info(c1.registered_proof).name) + " C1 has " +
                             std::to_string(n) + " partition(s), 0 to " + std::to_string(n - 1));
    return {*p.partition};
  }
  std::vector<std::size_t> all(n);
  for (std::size_t k = 0; k < n; ++k) all[k] = k;
  return all;
}

class PorepCircuit final : public FilecoinCircuit {
 public:
  PorepCircuit(const fc::SealProofInfo& info, const std::filesystem::path& dir)
      : FilecoinCircuit(circuit_id_of(info), fc::porep_key_paths(dir, info)), info_(info) {
    const fc::PorepCircuitSize c = fc::porep_circuit_size(fc::porep_shape_of(fc::c1_shape(info_.id)));
    this->shape_ = filecoin_key_shape(paths_, info_.name, {c.public_inputs, c.vars, c.constraints, c.a_nnz, c.b_nnz});
  }

  void check_request(const ProofRequest& r) const override {
    if (!r.wtns.empty() || r.native_seed || r.post || r.snap)
      throw invalid_argument("circuit " + id_ + " takes a C1 output (porep), not a witness, a seed or PoSt inputs");
    const PorepRequest& p = porep_of(r);
    if (p.c1.empty()) throw invalid_argument("porep.c1 is empty: it carries the sector's C1 output");
    if (!p.prover_id.empty() && p.prover_id.size() != 32)
      throw invalid_argument("porep.prover_id must be 32 bytes or empty");
    if (const auto named = named_proof(p); named && circuit_id_of(fc::seal_proof_info(*named)) != id_)
      throw invalid_argument("porep.registered_proof " + std::string(fc::seal_proof_info(*named).name) +
                             " is not circuit " + id_);
  }

  std::vector<std::shared_ptr<const PartitionInput>> split(const ProofRequest& r) const override {
    const PorepRequest& p = porep_of(r);
    const auto t0 = std::chrono::steady_clock::now();
    fc::DecodedC1 d = decode(p);
    if (circuit_id_of(fc::seal_proof_info(d.c1.registered_proof)) != id_)
      throw invalid_argument("porep.c1 is a C1 of " + std::string(fc::seal_proof_info(d.c1.registered_proof).name) +
                             ", not of circuit " + id_);
    fc::C1CheckOptions opt;
    std::optional<std::uint64_t> sector = p.sector_number;
    if (sector && d.sector_num && *sector != *d.sector_num)
      throw invalid_argument("porep.sector_number " + std::to_string(*sector) + " is not the C1 envelope's SectorNum " +
                             std::to_string(*d.sector_num));
    if (!sector) sector = d.sector_num;
    const std::vector<std::size_t> wanted = requested_partitions(p, d.c1);  // before the full check
    if (!p.prover_id.empty() && sector) {
      fc::Bytes32 id{};
      std::memcpy(id.data(), p.prover_id.data(), 32);
      opt.prover_id = id;
      opt.sector_number = sector;
    }
    try {
      fc::verify_c1(d.c1, opt);
    } catch (const DecodeError& e) {
      throw invalid_argument(std::string("porep.c1 is refused: ") + e.what());
    } catch (const std::invalid_argument& e) {
      throw invalid_argument(std::string("porep.c1 is refused: ") + e.what());
    }
    auto c1 = std::make_shared<const fc::SealCommitPhase1>(std::move(d.c1));
    std::vector<std::shared_ptr<const PartitionInput>> out;
    for (const std::size_t k : wanted) {
      auto part = std::make_shared<PorepPartition>();
      part->c1 = c1;
      part->index = k;
      out.push_back(std::move(part));
    }
    spdlog::info("circuit {}: a {} C1 of {} ({} partitions{}) decoded and checked in {:.0f} ms{}", id_,
                 fc::to_string(d.format), fc::seal_proof_info(c1->registered_proof).name, c1->partitions.size(),
                 p.partition ? ", partition " + std::to_string(*p.partition) + " proved alone" : "",
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(),
                 opt.prover_id ? ", replica id included" : " (no prover id and sector number: replica id not checked)");
    return out;
  }

  std::shared_ptr<const HostKey> load_key(Devices& b, const io::MappedFile*) const override {
    // The recorded matrices move into the key (C dropped first): no copy of the 27 GiB R1CS.
    return prepared_key(
        b, fc::load_porep_proving_key(paths_, info_, fc::record_porep_circuit(fc::porep_shape_of(fc::c1_shape(info_.id)))));
  }

  std::unique_ptr<Witness> synthesize(const ProofRequest&, const PartitionInput* in, groth16::PhaseTimings& t) const override {
    const auto* part = dynamic_cast<const PorepPartition*>(in);
    if (part == nullptr) throw EngineError(ErrorCode::kInternal, "circuit " + id_ + ": a PoRep job without its partition");
    const fc::SealCommitPhase1& c1 = *part->c1;
    const std::size_t k = part->index;
    std::vector<fc::Fr> w, expected;
    {
      groth16::ScopedPhase ph(t, "synthesis");
      w = fc::porep_witness_full(fc::c1_partition_circuit(c1, k));
      expected = fc::porep_public_inputs(c1.registered_proof, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k);
    }
    return witness_with_inputs(std::move(w), expected, " partition " + std::to_string(k));
  }

 private:
  const fc::SealProofInfo& info_;
};

// The published seal proofs, one per circuit (the first of those sharing one); non-interactive
// PoRep is not served (`cuzk porep setup` refuses it too).
std::vector<const fc::SealProofInfo*> one_per_circuit() {
  std::map<std::string, const fc::SealProofInfo*> by_id;
  for (const fc::SealProofInfo& info : fc::all_seal_proofs())
    if (info.feature != fc::SealFeature::NonInteractivePoRep) by_id.emplace(circuit_id_of(info), &info);
  std::vector<const fc::SealProofInfo*> out;
  for (const auto& [id, info] : by_id) out.push_back(info);
  return out;
}

}  // namespace

std::vector<std::unique_ptr<Circuit>> make_porep_circuits(const std::filesystem::path& dir, const FilecoinSelection& sel) {
  std::vector<FilecoinCandidate> candidates;
  for (const fc::SealProofInfo* info : one_per_circuit())
    candidates.push_back({circuit_id_of(*info), std::string(info->name), fc::porep_key_paths(dir, *info),
                          [info, dir] { return std::make_unique<PorepCircuit>(*info, dir); }});
  return serve_filecoin_circuits(dir, "PoRep", candidates, sel);
}

std::string porep_circuit_id(const ProofRequest& r) {
  const PorepRequest& p = porep_of(r);
  std::optional<fc::RegisteredSealProof> proof = named_proof(p);
  if (!proof && p.c1.empty()) throw invalid_argument("porep.c1 is empty: it carries the sector's C1 output");
  if (!proof) proof = decode(p).c1.registered_proof;
  const fc::SealProofInfo& info = fc::seal_proof_info(*proof);
  if (info.feature == fc::SealFeature::NonInteractivePoRep)
    throw EngineError(ErrorCode::kFailedPrecondition,
                      std::string(info.name) + ": non-interactive PoRep is not supported (its circuit is not served)");
  return circuit_id_of(info);
}

bool is_porep_circuit_id(const std::string& id) {
  for (const fc::SealProofInfo& info : fc::all_seal_proofs())
    if (circuit_id_of(info) == id) return true;
  return false;
}

}  // namespace cuzk::engine
