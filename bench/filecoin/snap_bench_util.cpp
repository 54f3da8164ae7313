#include "snap_bench_util.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/snap_record.hpp"
#include "cuzk/filecoin/snap_request.hpp"
#include "cuzk/filecoin/snap_vanilla.hpp"

namespace cuzk::bench {

namespace fc = filecoin;

fc::RegisteredUpdateProof update_proof_of_size(std::string_view size) {
  if (const auto p = fc::update_proof_of_size(sector_size_bytes(size))) return *p;
  throw std::invalid_argument("no SnapDeals proof of sector size " + std::string(size));
}

SnapInput snap_input(fc::RegisteredUpdateProof proof) {
  const fc::UpdateProofInfo& info = fc::update_proof_info(proof);
  const fc::SnapParams p = fc::snap_params(proof);
  const auto t0 = std::chrono::steady_clock::now();
  fc::SnapTestUpdate u = fc::make_snap_test_update(p, fc::snap_h_default(info.nodes), 1, 4096);
  std::vector<std::vector<std::uint8_t>> parts;
  for (std::size_t k = 0; k < p.partition_count; ++k)
    parts.push_back(fc::encode_snap_partition_proof(fc::make_snap_partition_proof(u, k)));
  const double ms = ms_since(t0);
  return SnapInput{proof, std::move(u), std::move(parts), ms};
}

CheckedSnap decode_and_check(const SnapInput& in) {
  const fc::SnapParams& p = in.update.params;
  std::vector<std::optional<fc::EmptySectorUpdateCircuit>> slots(in.partitions.size());
  const auto t0 = std::chrono::steady_clock::now();
  tbb::parallel_for(std::size_t{0}, slots.size(), [&](std::size_t k) {
    slots[k].emplace(fc::snap_partition_circuit(p, in.update.pub, k, in.partitions[k]));
  });
  CheckedSnap c;
  c.check_ms = ms_since(t0);
  for (auto& s : slots) c.circuits.push_back(std::move(*s));
  return c;
}

namespace {
void check_inputs(const SnapInput& in, std::size_t k, SnapPartitionWitness& out) {
  out.public_inputs = fc::snap_partition_inputs(fc::update_proof_info(in.proof), in.update.pub, k);
  out.inputs_match = out.w.size() > out.public_inputs.size() &&
                     std::equal(out.public_inputs.begin(), out.public_inputs.end(), out.w.begin() + 1);
}
}  // namespace

SnapPartitionWitness snap_partition_witness(const SnapInput& in, const CheckedSnap& c, std::size_t k) {
  SnapPartitionWitness out;
  const auto t0 = std::chrono::steady_clock::now();
  out.owned = fc::snap_witness_full(c.circuits.at(k));
  out.synth_ms = ms_since(t0);
  out.w = out.owned;
  check_inputs(in, k, out);
  return out;
}

SnapPartitionWitness snap_partition_witness(const SnapInput& in, const CheckedSnap& c, std::size_t k,
                                            const fc::SnapWitnessLayout& layout, std::span<fc::Fr> buf) {
  SnapPartitionWitness out;
  const auto t0 = std::chrono::steady_clock::now();
  fc::snap_witness_into(c.circuits.at(k), layout, buf);
  out.synth_ms = ms_since(t0);
  out.w = buf;
  check_inputs(in, k, out);
  return out;
}

}  // namespace cuzk::bench
