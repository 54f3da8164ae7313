// Filecoin PoRep C2 as engine circuits: one circuit per StackedDRG partition circuit (a sector
// size; its V1, V1_1 and synthetic proofs share one, the non-interactive ones have their own)
// whose key files (official or TEST, under the official names) are in the parameter directory.
// A request carries the sector's C1 output (PorepRequest). At submit it is decoded (JSON, Curio's
// envelope or bincode) and checked in full (c1_check.hpp verify_c1: every path, column, label and
// challenge; the replica id when prover id and sector number are known), so a bad C1 is refused
// before any proving, then split into its partitions (Circuit::split), each proved as its own job:
// the witness from the C1 challenge by challenge in parallel, its public inputs compared with
// those a chain verifier derives (porep_public_inputs), the proof verified with the directory's
// .vk. The request's result is the partitions' proofs concatenated in order.
//
// A key file that does not fit cuzk's circuit (counts of inputs, variables, domain) is refused at
// start with the counts that differ; a proof that does not verify with it says so, naming the
// key: with official parameters that is the answer to whether cuzk's circuit is Filecoin's.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "circuit.hpp"

namespace cuzk::engine {

struct FilecoinSelection;  // filecoin_circuit.hpp

// The PoRep circuits served from `dir` (those whose .params and .vk are both there; a pair that
// does not fit the circuit is logged and left out). Empty dir: none.
std::vector<std::unique_ptr<Circuit>> make_porep_circuits(const std::filesystem::path& dir, const FilecoinSelection& sel);

// The id of the circuit a porep request needs ("porep-32gib", "porep-32gib-ni"): from its
// registered_proof, else from the C1 (decoded for it). EngineError kInvalidArgument when the
// request has no PorepRequest or its C1 cannot be decoded.
std::string porep_circuit_id(const ProofRequest& r);

}  // namespace cuzk::engine
