// cuzk-bench's SnapDeals requests (snap_job.hpp).
#include "snap_job.hpp"

#include <iostream>

#include "cuzk/filecoin/snap_request.hpp"
#include "seal_parse.hpp"
#include "snap_vanilla_dir.hpp"

namespace cuzk::bench {

namespace fc = filecoin;
namespace pb = ::cuzk::v1;

PartitionedJob make_snap_job(const SnapOptions& o) {
  cli::SnapVanillaSet set = cli::read_snap_vanilla_dir(o.vanilla_dir);
  if (!o.proof.empty()) set.proof = cli::parse_update_proof(o.proof);
  const fc::UpdateProofInfo& info = fc::update_proof_info(set.proof);

  PartitionedJob job;
  job.request.set_kind(pb::PROOF_KIND_SNAP_DEALS);
  pb::SnapRequest& r = *job.request.mutable_snap();
  r.set_registered_proof(static_cast<std::uint32_t>(set.proof));
  auto put = [](std::string* field, const fc::Bytes32& b) {
    field->assign(reinterpret_cast<const char*>(b.data()), b.size());
  };
  put(r.mutable_comm_r_old(), set.comm_r_old);
  put(r.mutable_comm_r_new(), set.comm_r_new);
  put(r.mutable_comm_d_new(), set.comm_d_new);
  std::size_t bytes = 0;
  for (const auto& p : set.partitions) {
    r.add_partition_proofs(reinterpret_cast<const char*>(p.data()), p.size());
    bytes += p.size();
  }

  auto e = std::make_shared<PartitionExpectation>();
  e->circuit_id = fc::snap_circuit_name(info);
  try {
    e->partition_inputs = fc::snap_verifier_inputs(set.proof, set.comm_r_old, set.comm_r_new, set.comm_d_new);
  } catch (const std::exception& ex) {
    e->underivable = o.vanilla_dir + "/commitments.txt: " + ex.what();
    std::cerr << "warning: " << e->underivable
              << "\n  (sent as it is: the daemon judges it; its proofs cannot be checked here)\n";
  }
  job.expect = e;
  const std::size_t n = set.partitions.size();
  job.description = std::string(info.name) + " (" + e->circuit_id + "), " + std::to_string(n) + " partition" +
                    (n == 1 ? "" : "s") + ": the vanilla proofs of " + o.vanilla_dir + " (" + std::to_string(bytes) +
                    " bytes), the same in every request";
  return job;
}

}  // namespace cuzk::bench
