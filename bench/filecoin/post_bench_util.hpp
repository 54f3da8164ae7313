// Shared by the Filecoin PoSt benchmarks: the partition a benchmark proves (the real 32 GiB
// WindowPoSt vanilla proof of tests/filecoin/data, or synthetic vanilla proofs of any registered
// PoSt), timing helpers, and the partition's QAP matrices built from one recorded slot the way
// the GPU reads them (value-indexed, C left out: the bellperson H takes a and b only).
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cuzk/filecoin/post_partition.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::bench {

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

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
// recorded slot with its wires shifted, value-indexed without their values (6 bytes a term):
// what DeviceCsr uploads. C is not built (the bellperson H needs a and b only).
struct IndexedQap {
  r1cs::CsrMatrix<filecoin::Fr> a, b;
  std::size_t num_vars = 0, num_public = 0, constraints = 0, domain_size = 0;
};
IndexedQap indexed_post_qap(const filecoin::PostShape& shape);

}  // namespace cuzk::bench
