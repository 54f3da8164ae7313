// Filecoin PoRep circuits in the engine (porep_circuit.hpp).
#include "porep_circuit.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <system_error>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_check.hpp"
#include "cuzk/filecoin/c1_circuit.hpp"
#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_keys.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/porep_record.hpp"
#include "cuzk/filecoin/porep_witness.hpp"
#include "cuzk/groth16/qap.hpp"
#include "typed_circuit.hpp"

namespace cuzk::engine {

namespace {

namespace fc = filecoin;
using Bls = groth16::Bls12_381;

EngineError invalid(const std::string& what) { return EngineError(ErrorCode::kInvalidArgument, what); }

std::string size_name(std::uint64_t b) {
  return b >= (std::uint64_t{1} << 30)   ? std::to_string(b >> 30) + "gib"
         : b >= (std::uint64_t{1} << 20) ? std::to_string(b >> 20) + "mib"
                                         : std::to_string(b >> 10) + "kib";
}

// The circuit of a registered seal proof: its size, and "-ni" for non-interactive PoRep (other
// challenge counts, other key files).
std::string circuit_id_of(const fc::SealProofInfo& info) {
  return "porep-" + size_name(info.sector_size) + (info.feature == fc::SealFeature::NonInteractivePoRep ? "-ni" : "");
}

const PorepRequest& porep_of(const ProofRequest& r) {
  if (!r.porep) throw invalid("a porep request carries the sector's C1 output (porep)");
  return *r.porep;
}

std::optional<fc::RegisteredSealProof> named_proof(const PorepRequest& p) {
  if (!p.registered_proof) return std::nullopt;
  const auto id = fc::seal_proof_from_id(*p.registered_proof);
  if (!id) throw invalid("porep.registered_proof " + std::to_string(*p.registered_proof) + " is not a registered seal proof");
  return id;
}

fc::DecodedC1 decode(const PorepRequest& p) {
  try {
    return fc::decode_c1(p.c1, fc::C1Format::kAuto, named_proof(p));
  } catch (const DecodeError& e) {
    throw invalid(std::string("porep.c1 is refused: ") + e.what());
  }
}

// One partition of a checked C1.
struct PorepPartition final : PartitionInput {
  std::shared_ptr<const fc::SealCommitPhase1> c1;
  std::size_t k = 0;
};

class PorepCircuit final : public TypedCircuit<Bls> {
 public:
  PorepCircuit(const fc::SealProofInfo& info, const std::filesystem::path& dir)
      : info_(info), paths_(fc::porep_key_paths(dir, info)), test_key_(fc::is_test_key(paths_)) {
    this->id_ = circuit_id_of(info);
    this->witness_from_request_ = false;
    if (!test_key_)
      this->rejection_hint_ = " (or " + paths_.params.string() +
                              " is Filecoin's official key and cuzk's circuit is not the one it was made for)";
    this->shape_ = compute_shape();
  }

  std::string source() const override { return paths_.params.string(); }

  void check_request(const ProofRequest& r) const override {
    if (!r.wtns.empty() || r.native_seed || r.post) throw invalid("circuit " + id_ + " takes a C1 output (porep), not a witness, a seed or PoSt inputs");
    const PorepRequest& p = porep_of(r);
    if (p.c1.empty()) throw invalid("porep.c1 is empty: it carries the sector's C1 output");
    if (!p.prover_id.empty() && p.prover_id.size() != 32) throw invalid("porep.prover_id must be 32 bytes or empty");
    if (const auto named = named_proof(p); named && circuit_id_of(fc::seal_proof_info(*named)) != id_)
      throw invalid("porep.registered_proof " + std::string(fc::seal_proof_info(*named).name) + " is not circuit " + id_);
  }

  std::vector<std::shared_ptr<const PartitionInput>> split(const ProofRequest& r) const override {
    const PorepRequest& p = porep_of(r);
    const auto t0 = std::chrono::steady_clock::now();
    fc::DecodedC1 d = decode(p);
    if (circuit_id_of(fc::seal_proof_info(d.c1.registered_proof)) != id_)
      throw invalid("porep.c1 is a C1 of " + std::string(fc::seal_proof_info(d.c1.registered_proof).name) +
                    ", not of circuit " + id_);
    fc::C1CheckOptions opt;
    std::optional<std::uint64_t> sector = p.sector_number;
    if (sector && d.sector_num && *sector != *d.sector_num)
      throw invalid("porep.sector_number " + std::to_string(*sector) + " is not the C1 envelope's SectorNum " +
                    std::to_string(*d.sector_num));
    if (!sector) sector = d.sector_num;
    if (!p.prover_id.empty() && sector) {
      fc::Bytes32 id{};
      std::memcpy(id.data(), p.prover_id.data(), 32);
      opt.prover_id = id;
      opt.sector_number = sector;
    }
    try {
      fc::verify_c1(d.c1, opt);
    } catch (const DecodeError& e) {
      throw invalid(std::string("porep.c1 is refused: ") + e.what());
    } catch (const std::invalid_argument& e) {
      throw invalid(std::string("porep.c1 is refused: ") + e.what());
    }
    auto c1 = std::make_shared<const fc::SealCommitPhase1>(std::move(d.c1));
    std::vector<std::shared_ptr<const PartitionInput>> out;
    for (std::size_t k = 0; k < c1->partitions.size(); ++k) {
      auto part = std::make_shared<PorepPartition>();
      part->c1 = c1;
      part->k = k;
      out.push_back(std::move(part));
    }
    spdlog::info("circuit {}: a {} C1 of {} ({} partitions) decoded and checked in {:.0f} ms{}", id_,
                 fc::to_string(d.format), fc::seal_proof_info(c1->registered_proof).name, out.size(),
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(),
                 opt.prover_id ? ", replica id included" : " (no prover id and sector number: replica id not checked)");
    return out;
  }

  std::shared_ptr<const HostKey> load_key(DeviceBackend& b, const io::MappedFile*) const override {
    const r1cs::R1CS<fc::Fr> circuit = fc::record_porep_circuit(fc::porep_shape_of(fc::c1_shape(info_.id)));
    groth16::ProvingKey<Bls> pk = fc::load_porep_proving_key(paths_, info_, circuit);
    if (test_key_) spdlog::warn("circuit {}: {} is a cuzk TEST key: its proofs do not verify on chain", id_, paths_.params.string());
    return host_key(b, std::move(pk));
  }

  std::unique_ptr<Witness> synthesize(const ProofRequest&, const PartitionInput* in, groth16::PhaseTimings& t) const override {
    const auto* part = dynamic_cast<const PorepPartition*>(in);
    if (part == nullptr) throw EngineError(ErrorCode::kInternal, "circuit " + id_ + ": a PoRep job without its partition");
    const fc::SealCommitPhase1& c1 = *part->c1;
    auto out = std::make_unique<TypedWitness<Bls>>();
    std::vector<fc::Fr> expected;
    {
      groth16::ScopedPhase ph(t, "synthesis");
      out->w = fc::porep_witness_full(fc::c1_partition_circuit(c1, part->k));
      expected = fc::porep_public_inputs(c1.registered_proof, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, part->k);
    }
    if (out->w.size() < expected.size() + 1 || !std::equal(expected.begin(), expected.end(), out->w.begin() + 1))
      throw EngineError(ErrorCode::kInternal, "circuit " + id_ + " partition " + std::to_string(part->k) +
                                                  ": the witness's public inputs are not those a verifier derives");
    return out;
  }

 private:
  // The key's shape from its file's headers (nothing decoded), checked against the circuit's.
  KeyShape compute_shape() const {
    const io::MappedFile m = io::MappedFile::open(paths_.params);
    const groth16::BellpersonParamsCounts n = groth16::read_bellperson_params_counts(m.bytes());
    const fc::PorepCircuitSize c = fc::porep_circuit_size(fc::porep_shape_of(fc::c1_shape(info_.id)));
    const std::uint64_t domain = groth16::qap_domain_size(c.constraints, c.public_inputs);
    auto must = [&](std::uint64_t got, std::uint64_t want, const char* what) {
      if (got != want)
        throw std::runtime_error(paths_.params.string() + " does not fit cuzk's " + std::string(info_.name) +
                                 " circuit: " + what + " " + std::to_string(got) + ", the circuit's " + std::to_string(want));
    };
    must(n.ic, c.public_inputs + 1, "public inputs (ONE included)");
    must(std::uint64_t{n.ic} + n.l, c.vars, "variables");
    must(std::uint64_t{n.h} + 1, domain, "domain size");
    KeyShape s;
    s.curve = std::string(Bls::kName);
    s.num_vars = c.vars;
    s.num_public = c.public_inputs;
    s.domain_size = domain;
    s.h_len = n.h;
    s.rows = c.constraints + c.public_inputs + 1;
    s.nnz = c.a_nnz + c.b_nnz + c.public_inputs + 1;  // the loaded key keeps A and B only
    s.g1_bytes = sizeof(Bls::G1Affine);
    s.g2_bytes = sizeof(Bls::G2Affine);
    s.fr_bytes = sizeof(fc::Fr);
    return s;
  }

  const fc::SealProofInfo& info_;
  fc::KeyPaths paths_;
  bool test_key_;
};

// The published seal proofs, one per circuit (the first of those sharing one).
std::vector<const fc::SealProofInfo*> one_per_circuit() {
  std::map<std::string, const fc::SealProofInfo*> by_id;
  for (const fc::SealProofInfo& info : fc::all_seal_proofs()) by_id.emplace(circuit_id_of(info), &info);
  std::vector<const fc::SealProofInfo*> out;
  for (const auto& [id, info] : by_id) out.push_back(info);
  return out;
}

}  // namespace

std::vector<std::unique_ptr<Circuit>> make_porep_circuits(const std::filesystem::path& dir) {
  std::vector<std::unique_ptr<Circuit>> out;
  if (dir.empty()) return out;
  std::vector<std::string> served;
  for (const fc::SealProofInfo* info : one_per_circuit()) {
    const fc::KeyPaths paths = fc::porep_key_paths(dir, *info);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(paths.params, ec) || !std::filesystem::is_regular_file(paths.vk, ec)) continue;
    try {
      out.push_back(std::make_unique<PorepCircuit>(*info, dir));
      served.push_back(out.back()->id() + (fc::is_test_key(paths) ? " (TEST key)" : ""));
    } catch (const std::exception& e) {
      spdlog::error("Filecoin {} is not served: {}", info->name, e.what());
    }
  }
  std::string list;
  for (const auto& s : served) list += (list.empty() ? "" : ", ") + s;
  spdlog::info("Filecoin PoRep from {}: {}", dir.string(), list.empty() ? "no key files (no PoRep kind is served)" : list);
  return out;
}

std::string porep_circuit_id(const ProofRequest& r) {
  const PorepRequest& p = porep_of(r);
  if (const auto named = named_proof(p)) return circuit_id_of(fc::seal_proof_info(*named));
  if (p.c1.empty()) throw invalid("porep.c1 is empty: it carries the sector's C1 output");
  return circuit_id_of(fc::seal_proof_info(decode(p).c1.registered_proof));
}

bool is_porep_circuit_id(const std::string& id) {
  for (const fc::SealProofInfo& info : fc::all_seal_proofs())
    if (circuit_id_of(info) == id) return true;
  return false;
}

}  // namespace cuzk::engine
