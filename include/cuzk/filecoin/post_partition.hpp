// One PoSt SNARK (a WindowPoSt partition, or a WinningPoSt) from what a node hands over: the
// registered proof, the randomness, the partition index and the sectors' vanilla proofs
// (filecoin-proofs-api bincode). Everything is decoded and checked here, before any proving:
// the vanilla proofs' shape for the registered proof, each proof's consistency (paths reach
// comm_r_last, comm_r = H(comm_c, comm_r_last), every path proves the challenge derived for it),
// and, when the caller names the sectors, that they are the proofs' sectors in that order.
// The result is the partition's circuit (the last sector repeated to fill the partition, as
// filecoin-proofs does) and the public inputs a chain verifier derives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/filecoin/post_circuit.hpp"
#include "cuzk/filecoin/post_public_inputs.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

struct PostPartitionInputs {
  RegisteredPoStProof proof = RegisteredPoStProof::StackedDrgWindow2KiBV1;
  Bytes32 randomness{};                 // the ChallengeSeed: canonical (chain randomness with byte 31 &= 0x3f)
  std::size_t partition_index = 0;      // WindowPoSt: which partition of the deadline's sector list; Winning: 0
  std::vector<std::span<const std::uint8_t>> vanilla_proofs;  // one per sector of the partition, in order
  std::optional<std::vector<std::uint64_t>> sector_ids;        // when given: must be the proofs' sectors
};

struct PostPartition {
  const PoStProofInfo* info = nullptr;
  std::vector<PublicSector> sectors;  // the partition's sectors, from the vanilla proofs
  std::vector<Fr> public_inputs;      // without ONE: what the proof verifies against
  FallbackPostCircuit circuit;
};

// Throws DecodeError (malformed or inconsistent input, with what and where) or
// std::invalid_argument (a request that does not fit the registered proof).
PostPartition prepare_post_partition(const PostPartitionInputs& in);

}  // namespace cuzk::filecoin
