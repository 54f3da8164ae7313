// Filecoin SnapDeals (empty-sector update) as engine circuits: one circuit per registered update
// proof ("snap-2kib" ... "snap-64gib") whose key files (official or TEST, under the official
// names v28-empty-sector-update-...) are in the parameter directory. A request carries what
// filecoin-proofs' generate_empty_sector_update_proof_with_vanilla takes (SnapRequest: the
// registered update proof, comm_r_old, comm_r_new, comm_d_new and one vanilla PartitionProof per
// partition). At submit the commitments must be canonical and every partition proof is decoded and
// checked in full against them (snap_check.hpp), so a bad request is refused before any proving,
// naming the partition and the field; then it is split into its partitions (Circuit::split), each
// proved as its own job: the witness, its public inputs compared with those a chain verifier
// derives from the commitments (snap_request.hpp), the proof verified with the directory's .vk.
// The request's result is the partitions' 192-byte proofs concatenated in order.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "circuit.hpp"

namespace cuzk::engine {

struct FilecoinSelection;  // filecoin_circuit.hpp

// The SnapDeals circuits served from `dir` (those whose .params and .vk are both there; a pair
// that does not fit the circuit is logged and left out). Empty dir: none.
std::vector<std::unique_ptr<Circuit>> make_snap_circuits(const std::filesystem::path& dir, const FilecoinSelection& sel);

// The id of the circuit a snap_deals request needs ("snap-32gib"), from its registered proof.
// EngineError kInvalidArgument when the request has no SnapRequest or an unknown registered proof.
std::string snap_circuit_id(const ProofRequest& r);

}  // namespace cuzk::engine
