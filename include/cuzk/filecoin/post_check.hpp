// Check mode for a whole FallbackPoSt partition, at the cost of one slot's recording: each sector
// slot's constraints are a copy of slot 0's over its own wires (post_record.hpp), so the partition
// is satisfied exactly when every slot's witness satisfies the one-slot system. Slots are checked
// in parallel, each with its own small witness (a 32 GiB WindowPoSt partition never holds its
// 4 GB assignment at once). Also collects the public inputs the witness exposes, in order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/filecoin/post_circuit.hpp"

namespace cuzk::filecoin {

struct PostCheckReport {
  struct Failure {
    std::size_t slot = 0;
    std::uint64_t row = 0;  // constraint within the slot
    std::string name;       // its namespace path
  };
  std::optional<Failure> first_failure;  // lowest slot, then lowest row
  std::vector<Fr> public_inputs;         // without ONE
  std::uint64_t constraints = 0;         // of the whole partition
};

// Checks slots [first_slot, first_slot + count) (all by default); public_inputs then holds
// those slots' inputs.
PostCheckReport check_post_partition(const FallbackPostCircuit& circuit, std::size_t first_slot = 0,
                                     std::size_t count = static_cast<std::size_t>(-1));

}  // namespace cuzk::filecoin
