// Filecoin PoSt as engine circuits: one circuit per (WinningPoSt | WindowPoSt, sector size) whose
// key files (official or TEST, under the official names) are in the parameter directory.
// Requests carry what a node hands over (PostRequest: registered proof, randomness, partition,
// vanilla proofs); the circuit checks them (cheaply at submit, fully before synthesis), derives
// the challenges and public inputs, synthesizes the partition's witness slot by slot in parallel,
// and every proof is verified with the directory's .vk before it is returned. WindowPoSt V1 and
// V1_2 share a circuit and its files; the request's registered proof picks the challenge rule.
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

// The PoSt circuits served from `dir` (those whose .params and .vk are both there; a pair that
// does not fit the circuit is logged and left out). Empty dir: none.
std::vector<std::unique_ptr<Circuit>> make_post_circuits(const std::filesystem::path& dir, const FilecoinSelection& sel);

// The id of the circuit a winning_post / window_post request needs (e.g. "window-post-32gib"), or
// EngineError kInvalidArgument when the request has no PostRequest, an unknown registered proof,
// or one of the other kind.
std::string post_circuit_id(const ProofRequest& r);

// Whether `id` names a WinningPoSt circuit (preloaded by default: its deadline is seconds).
bool is_winning_post_circuit_id(const std::string& id);

}  // namespace cuzk::engine
