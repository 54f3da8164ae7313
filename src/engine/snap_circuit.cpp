// Filecoin SnapDeals circuits in the engine (snap_circuit.hpp).
#include "snap_circuit.hpp"

#include <spdlog/spdlog.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cstring>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/snap_check.hpp"
#include "cuzk/filecoin/snap_keys.hpp"
#include "cuzk/filecoin/snap_record.hpp"
#include "cuzk/filecoin/snap_request.hpp"
#include "cuzk/filecoin/snap_vanilla.hpp"
#include "filecoin_circuit.hpp"

namespace cuzk::engine {

namespace {

namespace fc = filecoin;
using Bls = groth16::Bls12_381;

const SnapRequest& snap_of(const ProofRequest& r) {
  if (!r.snap)
    throw invalid_argument(
        "a snap_deals request carries the sector update's commitments and vanilla partition proofs (snap)");
  return *r.snap;
}

const fc::UpdateProofInfo& request_info(const SnapRequest& s) {
  const auto id = fc::update_proof_from_id(s.registered_proof);
  if (!id)
    throw invalid_argument("snap.registered_proof " + std::to_string(s.registered_proof) +
                           " is not a registered update proof (0-4: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
  return fc::update_proof_info(*id);
}

fc::Bytes32 bytes32(const std::vector<std::uint8_t>& v) {
  fc::Bytes32 b{};
  std::memcpy(b.data(), v.data(), 32);
  return b;
}

// One partition of a checked request: its circuit (the vanilla proof's values) and the public
// values its inputs are derived from.
struct SnapPartition final : PartitionInput {
  std::shared_ptr<const fc::EmptySectorUpdateCircuit> circuit;
  fc::SnapPublic pub;
};

class SnapCircuit final : public FilecoinCircuit {
 public:
  SnapCircuit(const fc::UpdateProofInfo& info, const std::filesystem::path& dir)
      : FilecoinCircuit(fc::snap_circuit_name(info), fc::snap_key_paths(dir, info)),
        info_(info),
        params_(fc::snap_params(info.id)) {
    const fc::SnapCircuitSize c = fc::snap_circuit_size(params_);
    this->shape_ = filecoin_key_shape(paths_, info_.name, {c.public_inputs, c.vars, c.constraints, c.a_nnz, c.b_nnz});
  }

  void check_request(const ProofRequest& r) const override {
    if (!r.wtns.empty() || r.native_seed || r.post || r.porep)
      throw invalid_argument("circuit " + id_ +
                             " takes a sector update's vanilla proofs (snap), not a witness, a seed, PoSt "
                             "or PoRep inputs");
    const SnapRequest& s = snap_of(r);
    const fc::UpdateProofInfo& info = request_info(s);
    if (fc::snap_circuit_name(info) != id_)
      throw invalid_argument("snap.registered_proof " + std::string(info.name) + " is not circuit " + id_);
    using Field = std::pair<const char*, const std::vector<std::uint8_t>*>;
    for (const auto& [field, v] : {Field{"comm_r_old", &s.comm_r_old}, Field{"comm_r_new", &s.comm_r_new},
                                   Field{"comm_d_new", &s.comm_d_new}})
      if (v->size() != 32)
        throw invalid_argument("snap." + std::string(field) + " must be 32 bytes, not " + std::to_string(v->size()));
    if (s.partition_proofs.size() != params_.partition_count)
      throw invalid_argument("snap.partition_proofs holds " + std::to_string(s.partition_proofs.size()) +
                             " proofs; a " + std::string(info_.name) + " update has " +
                             std::to_string(params_.partition_count) + " partitions, one proof each, in order");
    const std::size_t size = fc::snap_partition_proof_size(params_);
    for (std::size_t k = 0; k < s.partition_proofs.size(); ++k)
      if (s.partition_proofs[k].size() != size)
        throw invalid_argument("snap.partition_proofs[" + std::to_string(k) + "] is " +
                               std::to_string(s.partition_proofs[k].size()) + " bytes; a " + std::string(info_.name) +
                               " partition proof is " + std::to_string(size));
  }

  std::vector<std::shared_ptr<const PartitionInput>> split(const ProofRequest& r) const override {
    const SnapRequest& s = snap_of(r);
    const auto t0 = std::chrono::steady_clock::now();
    fc::SnapPublic pub;
    try {
      pub = fc::snap_public_from_bytes(info_, bytes32(s.comm_r_old), bytes32(s.comm_r_new), bytes32(s.comm_d_new),
                                       "snap.");
    } catch (const DecodeError& e) {
      throw invalid_argument(e.what());
    }
    // Every partition decoded and checked (in parallel); the first refusal in partition order is the answer.
    const std::size_t n = s.partition_proofs.size();
    std::vector<std::shared_ptr<const PartitionInput>> out(n);
    std::vector<std::string> errors(n);
    tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
      try {
        auto part = std::make_shared<SnapPartition>();
        part->circuit = std::make_shared<const fc::EmptySectorUpdateCircuit>(
            fc::snap_partition_circuit(params_, pub, k, byte_span(s.partition_proofs[k])));
        part->pub = pub;
        part->index = k;
        out[k] = std::move(part);
      } catch (const DecodeError& e) {
        errors[k] = e.what();
      } catch (const std::invalid_argument& e) {
        errors[k] = e.what();
      }
    });
    for (std::size_t k = 0; k < n; ++k)
      if (!errors[k].empty())
        throw invalid_argument("snap.partition_proofs[" + std::to_string(k) + "] is refused: " + errors[k]);
    spdlog::info("circuit {}: {} vanilla partition proofs of {} decoded and checked in {:.0f} ms", id_, n, info_.name,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    return out;
  }

  std::shared_ptr<const HostKey> load_key(Devices& b, const io::MappedFile*) const override {
    return prepared_key(b, fc::load_snap_proving_key(paths_, info_, fc::record_snap_circuit(params_)));
  }

  std::unique_ptr<Witness> synthesize(const ProofRequest&, const PartitionInput* in,
                                      groth16::PhaseTimings& t) const override {
    const auto* part = dynamic_cast<const SnapPartition*>(in);
    if (part == nullptr)
      throw EngineError(ErrorCode::kInternal, "circuit " + id_ + ": a SnapDeals job without its partition");
    std::vector<fc::Fr> w, expected;
    {
      groth16::ScopedPhase ph(t, "synthesis");
      w = fc::snap_witness_full(*part->circuit);
      expected = fc::snap_partition_inputs(info_, part->pub, part->index);
    }
    return witness_with_inputs(std::move(w), expected, " partition " + std::to_string(part->index));
  }

 private:
  const fc::UpdateProofInfo& info_;
  fc::SnapParams params_;
};

}  // namespace

std::vector<std::unique_ptr<Circuit>> make_snap_circuits(const std::filesystem::path& dir, const FilecoinSelection& sel) {
  std::vector<FilecoinCandidate> candidates;
  for (const fc::UpdateProofInfo& info : fc::all_update_proofs())
    candidates.push_back({fc::snap_circuit_name(info), std::string(info.name), fc::snap_key_paths(dir, info),
                          [&info, dir] { return std::make_unique<SnapCircuit>(info, dir); }});
  return serve_filecoin_circuits(dir, "SnapDeals", candidates, sel);
}

std::string snap_circuit_id(const ProofRequest& r) { return fc::snap_circuit_name(request_info(snap_of(r))); }

bool is_snap_circuit_id(const std::string& id) {
  for (const fc::UpdateProofInfo& info : fc::all_update_proofs())
    if (fc::snap_circuit_name(info) == id) return true;
  return false;
}

}  // namespace cuzk::engine
