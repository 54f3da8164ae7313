// Shared by the Filecoin PoSt benchmarks: the partition a benchmark proves (the real 32 GiB
// WindowPoSt vanilla proof of tests/filecoin/data, or synthetic vanilla proofs of any registered
// PoSt), and the partition's QAP matrices built from one recorded slot (bench_common.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "cuzk/filecoin/post_partition.hpp"

namespace cuzk::bench {

// The vanilla proofs and randomness of one partition: the real 32 GiB WindowPoSt proof (one
// sector, the partition padded with it as filecoin-proofs does) for ids 8 and 13, synthetic
// proofs of `sectors` sectors for the others.
struct PostInput {
  filecoin::RegisteredPoStProof proof;
  filecoin::Bytes32 randomness{};
  std::vector<std::vector<std::uint8_t>> vanilla;
  std::vector<std::uint64_t> sector_ids;
  std::string source;  // what the vanilla proofs are
};
PostInput post_input(filecoin::RegisteredPoStProof proof, const std::filesystem::path& data_dir, std::size_t sectors);

filecoin::PostPartitionInputs partition_inputs(const PostInput& in);

// The partition's QAP A and B (binding rows included), every slot's rows copied from one
// recorded slot with its wires shifted, value-indexed without their values.
IndexedQap indexed_post_qap(const filecoin::PostShape& shape);

}  // namespace cuzk::bench
